import { useState } from 'react';
import type { ToolError } from '../../../core/index.ts';
import { credentialProblems, useMcpCredentials, type McpHeader } from '../../lib/runtime/mcp-credentials.ts';
import { CodedErrors } from './CodedErrors.tsx';

/**
 * A server's bearer token and custom headers, kept like API keys: this tab only unless
 * "remember on this device" is ticked, never shown back, sent only to this server. Using them
 * reconnects the server.
 */
export function ServerCredentials({ url, reconnect }: { url: string; reconnect: () => void }) {
  const store = useMcpCredentials();
  const stored = store.get(url);
  const remembered = store.isRemembered(url);
  const [token, setToken] = useState('');
  const [headers, setHeaders] = useState<McpHeader[]>([]);
  const [remember, setRemember] = useState(false);
  const [problems, setProblems] = useState<ToolError[]>([]);

  const setHeader = (index: number, change: Partial<McpHeader>) => setHeaders(headers.map((header, at) => (at === index ? { ...header, ...change } : header)));
  const apply = () => {
    const draft = { token: token.trim(), headers: headers.filter((header) => header.name.trim() !== '' || header.value !== '') };
    const found = credentialProblems(draft);
    setProblems(found);
    if (found.length > 0) return;
    store.set(url, draft, remember);
    setToken('');
    setHeaders([]);
    reconnect();
  };

  const state = stored
    ? `${[stored.token ? 'bearer token' : null, ...stored.headers.map((header) => header.name)].filter(Boolean).join(', ')} · ${remembered ? 'remembered on this device' : 'this tab only'}`
    : 'none';
  return (
    <details className="mcp-credentials" data-testid="mcp.credentials">
      <summary>
        Token and headers <span className="tag" data-testid="mcp.credentials-state">{state}</span>
      </summary>
      <p className="muted small">
        Sent with every request to this server only (never on a redirect), never saved with the call history or a workspace export. A browser sends a custom header only when the server's CORS
        preflight allows it. Setting them replaces the ones in use and reconnects.
      </p>
      <div className="inline-inputs">
        <label className="field mcp-credentials__token">
          Bearer token
          <input
            type="password"
            autoComplete="off"
            value={token}
            onChange={(event) => setToken(event.target.value)}
            placeholder={stored?.token ? '•••••••• (enter a new one to replace it)' : 'sent as Authorization: Bearer …'}
            data-testid="mcp.token"
          />
        </label>
      </div>
      {headers.map((header, index) => (
        <div className="inline-inputs mcp-credentials__header" key={index}>
          <input value={header.name} onChange={(event) => setHeader(index, { name: event.target.value })} placeholder="Header name" aria-label={`Header ${index + 1} name`} data-testid="mcp.header-name" />
          <input type="password" autoComplete="off" value={header.value} onChange={(event) => setHeader(index, { value: event.target.value })} placeholder="value" aria-label={`Header ${index + 1} value`} data-testid="mcp.header-value" />
          <button type="button" onClick={() => setHeaders(headers.filter((_, at) => at !== index))}>
            Remove header
          </button>
        </div>
      ))}
      <div className="inline-inputs">
        <button type="button" onClick={() => setHeaders([...headers, { name: '', value: '' }])} data-testid="mcp.header-add">
          Add a header
        </button>
        <label className="checkbox small" title="Stored in this browser's localStorage, never in the workspace or any export">
          <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} data-testid="mcp.credentials-remember" />
          remember on this device
        </label>
        <button type="button" className="primary" disabled={token.trim() === '' && headers.length === 0} onClick={apply} data-testid="mcp.credentials-apply">
          Use and reconnect
        </button>
        {stored && (
          <button
            type="button"
            onClick={() => {
              store.forget(url);
              reconnect();
            }}
            data-testid="mcp.credentials-forget"
          >
            Forget
          </button>
        )}
      </div>
      {problems.length > 0 && <CodedErrors errors={problems} testId="mcp.credentials-problems" />}
    </details>
  );
}
