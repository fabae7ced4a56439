import { useQueryClient } from '@tanstack/react-query';
import { useState, type KeyboardEvent } from 'react';
import { formatCheckTable, type McpCallRecord, type McpCheckRow, type McpToolDefinition } from '../../../core/index.ts';
import { getMcpServers, useMcpServers, type McpServerState } from '../../lib/runtime/mcp-servers.ts';
import { callFromPage, checkFromPage, exampleArguments, importFromPage, type ImportOutcome } from './mcp-actions.ts';
import { HistoryTab } from './HistoryTab.tsx';
import { NotificationsPane } from './NotificationsPane.tsx';
import { PromptsTab } from './PromptsTab.tsx';
import { ResourcesTab } from './ResourcesTab.tsx';
import { ServerCredentials } from './ServerCredentials.tsx';

/**
 * MCP servers (issue 13): add a server by its Streamable HTTP URL, see its tools (and the
 * entries Sextant refused), call a tool with its arguments validated before sending, run the
 * check table, import a tool as a saved manifest, and switch a server on for the planner.
 * Issue 23: a bearer token and headers per server, the call history (kept, re-run), Resources
 * and Prompts tabs, and a notifications pane. Everything a server sends is rendered as text.
 */
export function McpPage() {
  const servers = useMcpServers();
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);

  const add = async () => {
    setAdding(true);
    setProblem(await getMcpServers().add(url));
    setAdding(false);
    setUrl('');
  };

  return (
    <div className="mcp-page">
      <section className="panel" aria-label="Add an MCP server">
        <h2>MCP servers</h2>
        <p className="muted small">
          A server's Streamable HTTP endpoint. From this page the server must allow this origin (CORS) and expose its Mcp-Session-Id header. Tool
          descriptions are the server's text: they reach the planner only from servers switched on below.
        </p>
        <form
          className="inline-inputs"
          onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}
        >
          <input type="url" placeholder="http://127.0.0.1:3001/mcp" value={url} onChange={(event) => setUrl(event.target.value)} aria-label="Server URL" data-testid="mcp.url" size={40} />
          <button type="submit" className="primary" disabled={adding || url.trim() === ''} data-testid="mcp.add">
            {adding ? 'Connecting…' : 'Add server'}
          </button>
        </form>
        {problem && (
          <p className="notice notice--blocked" role="alert" data-testid="mcp.add-problem">
            {problem}
          </p>
        )}
      </section>
      {servers.length === 0 && <p className="muted">No MCP server added yet.</p>}
      {servers.map((server) => (
        <ServerPanel key={server.url} server={server} />
      ))}
    </div>
  );
}

const TABS = ['tools', 'resources', 'prompts', 'history'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = { tools: 'Tools', resources: 'Resources', prompts: 'Prompts', history: 'History' };

function ServerPanel({ server }: { server: McpServerState }) {
  const store = getMcpServers();
  const [tab, setTab] = useState<Tab>('tools');
  const id = `mcp-${server.url.replace(/[^A-Za-z0-9]+/g, '-')}`;
  // Arrow keys move between the tabs (the WAI-ARIA tabs pattern); Tab leaves the tab list.
  const onTabKey = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    const next = TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length];
    setTab(next);
    document.getElementById(`${id}-tab-${next}`)?.focus();
  };
  return (
    <section className="panel" aria-label={`MCP server ${server.url}`} data-testid="mcp.server">
      <div className="inline-inputs">
        <strong className="mono">{server.url}</strong>
        <span className={`badge badge--${server.status === 'connected' ? 'ok' : server.status === 'error' ? 'error' : 'running'}`} data-testid="mcp.status">
          {server.status}
        </span>
        <label className="checkbox">
          <input type="checkbox" checked={server.enabled} onChange={(event) => void store.setEnabled(server.url, event.target.checked)} data-testid="mcp.enabled" />
          Offer its tools to the planner
        </label>
        <span className="spacer" />
        <button type="button" onClick={() => void store.refresh(server.url)}>
          Reconnect
        </button>
        <button type="button" onClick={() => void store.remove(server.url)}>
          Remove
        </button>
      </div>
      {server.error && (
        <p className="notice notice--blocked" role="alert" data-testid="mcp.error">
          {server.error}
        </p>
      )}
      {server.problems.length > 0 && (
        <div data-testid="mcp.problems">
          <h3>Entries refused</h3>
          <ul>
            {server.problems.map((entry) => (
              <li key={`${entry.index}-${entry.name ?? ''}`}>
                <span className="mono">{entry.name ?? `#${entry.index}`}</span>: {entry.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <ServerCredentials url={server.url} reconnect={() => void store.refresh(server.url)} />
      {server.status === 'connected' && (
        <>
          <div role="tablist" aria-label={`What ${server.name} offers`} className="mcp-tabs" onKeyDown={onTabKey}>
            {TABS.map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                id={`${id}-tab-${name}`}
                aria-selected={tab === name}
                aria-controls={`${id}-panel`}
                tabIndex={tab === name ? 0 : -1}
                onClick={() => setTab(name)}
                data-testid={`mcp.tab.${name}`}
              >
                {TAB_LABELS[name]}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${tab}`} className="mcp-tabpanel">
            {tab === 'tools' && (
              <ul className="mcp-tools">
                {server.tools.map((tool) => (
                  <ToolEntry key={tool.name} url={server.url} tool={tool} />
                ))}
              </ul>
            )}
            {tab === 'resources' && <ResourcesTab url={server.url} />}
            {tab === 'prompts' && <PromptsTab url={server.url} />}
            {tab === 'history' && <HistoryTab url={server.url} />}
          </div>
          <NotificationsPane url={server.url} serverLogs={server.offers?.logging ?? false} />
        </>
      )}
    </section>
  );
}

function ToolEntry({ url, tool }: { url: string; tool: McpToolDefinition }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [argsText, setArgsText] = useState(() => exampleArguments(tool));
  const [record, setRecord] = useState<McpCallRecord | null>(null);
  const [rows, setRows] = useState<McpCheckRow[] | string | null>(null);
  const [imported, setImported] = useState<ImportOutcome | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="mcp-tool" data-testid={`mcp.tool.${tool.name}`}>
      <button type="button" className="link-button" onClick={() => setOpen(!open)} aria-expanded={open}>
        <strong className="mono">{tool.name}</strong>
        {tool.title && <span> — {tool.title}</span>}
      </button>
      {tool.description && <p className="muted small">{tool.description}</p>}
      {open && (
        <div className="mcp-tool-body">
          <label className="field">
            Arguments (JSON, checked against the tool's inputSchema before anything is sent)
            <textarea className="json-editor json-editor--small mono" value={argsText} onChange={(event) => setArgsText(event.target.value)} data-testid="mcp.args" />
          </label>
          <div className="inline-inputs">
            <button type="button" className="primary" disabled={busy} onClick={() => void run(async () => setRecord(await callFromPage(url, tool, argsText)))} data-testid="mcp.call">
              Call
            </button>
            <button type="button" disabled={busy} onClick={() => void run(async () => setRows(await checkFromPage(url, tool)))} data-testid="mcp.check">
              Run the check
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  setImported(await importFromPage(url, tool));
                  await queryClient.invalidateQueries({ queryKey: ['manifests'] });
                })
              }
              data-testid="mcp.import"
            >
              Import as a saved manifest
            </button>
          </div>
          {record && <CallResult record={record} />}
          {typeof rows === 'string' && (
            <p className="notice notice--blocked" role="alert">
              {rows}
            </p>
          )}
          {Array.isArray(rows) && <CheckTable rows={rows} />}
          {imported && (
            <div data-testid="mcp.imported">
              <p className={imported.ok ? '' : 'notice notice--blocked'}>{imported.message}</p>
              {imported.review.length > 0 && (
                <ul className="small">
                  {imported.review.map((item) => (
                    <li key={item.field}>
                      <span className="mono">{item.field}</span>: {item.reason}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </div>
      )}
    </li>
  );
}

function CallResult({ record }: { record: McpCallRecord }) {
  const { result } = record;
  return (
    <div className="result" data-testid="mcp.result">
      <p>
        <span className={`badge badge--${result.status}`} data-testid="mcp.result-status">
          {result.status}
        </span>{' '}
        {record.phase === 'validation' ? <strong data-testid="mcp.not-sent">Nothing was sent to the server.</strong> : <span className="muted small">{record.durationMs.toFixed(0)} ms</span>}
      </p>
      <p data-testid="mcp.result-summary">{result.summary}</p>
      {result.errors.length > 0 && (
        <ul className="issue-list" data-testid="mcp.result-errors">
          {result.errors.map((error, index) => (
            <li key={index} className="issue">
              <span className="mono">{error.code}</span>
              <span className="mono">{error.field || '(envelope)'}</span>
              <span>{error.message}</span>
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>ToolResult JSON</summary>
        <pre className="mono small">{JSON.stringify(result, null, 2)}</pre>
      </details>
    </div>
  );
}

function CheckTable({ rows }: { rows: McpCheckRow[] }) {
  const passed = rows.filter((row) => row.passed).length;
  return (
    <div data-testid="mcp.check-table">
      <p>
        <span className={`badge badge--${passed === rows.length ? 'ok' : 'error'}`}>
          {passed} of {rows.length} as the schema says
        </span>
      </p>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Case</th>
            <th scope="col">Expected</th>
            <th scope="col">Server</th>
            <th scope="col">Output</th>
            <th scope="col">ms</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.caseId} title={row.detail}>
              <td className="mono">{row.caseId}</td>
              <td>{row.expected}</td>
              <td>{row.outcome === 'accepted' && row.expected === 'reject' ? 'accepted (finding)' : row.outcome}</td>
              <td>{row.outputMatches === null ? '–' : row.outputMatches ? 'matches' : 'breaks outputSchema'}</td>
              <td>{row.durationMs.toFixed(0)}</td>
              <td>{row.passed ? 'pass' : 'FAIL'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <details>
        <summary>As text</summary>
        <pre className="mono small">{formatCheckTable(rows)}</pre>
      </details>
    </div>
  );
}

export default McpPage;
