import { useState } from 'react';
import type { ToolError } from '../../../core/index.ts';
import type { PromptEntry, PromptList, PromptView, Read } from '../../lib/runtime/mcp-inspector-results.ts';
import { CodedErrors } from './CodedErrors.tsx';
import { getPromptFromPage, listPromptsFromPage } from './mcp-actions.ts';

/** A server's prompts: list them, get one with its arguments; the messages are shown as text. */
export function PromptsTab({ url }: { url: string }) {
  const [listing, setListing] = useState<Read<PromptList> | null>(null);
  const [busy, setBusy] = useState(false);
  const list = async () => {
    setBusy(true);
    setListing(await listPromptsFromPage(url));
    setBusy(false);
  };
  return (
    <div data-testid="mcp.prompts">
      <button type="button" disabled={busy} onClick={() => void list()} data-testid="mcp.prompts-list">
        {listing ? 'List again' : 'List prompts'}
      </button>
      {listing && !listing.ok && <CodedErrors errors={[listing.error]} testId="mcp.prompts-error" />}
      {listing?.ok && listing.value.prompts.length === 0 && <p className="muted">The server lists no prompts.</p>}
      {listing?.ok && (
        <ul className="mcp-tools">
          {listing.value.prompts.map((prompt) => (
            <PromptItem key={prompt.name} url={url} prompt={prompt} />
          ))}
        </ul>
      )}
      {listing?.ok && listing.value.problems.length > 0 && (
        <ul className="small" data-testid="mcp.prompt-problems">
          {listing.value.problems.map((problem) => (
            <li key={problem.index}>Entry #{problem.index} refused: {problem.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function PromptItem({ url, prompt }: { url: string; prompt: PromptEntry }) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<{ view: PromptView } | { errors: ToolError[]; sent: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const get = async () => {
    setBusy(true);
    const got = await getPromptFromPage(url, prompt, values);
    setAnswer(got.ok ? { view: got.value } : { errors: got.errors, sent: got.sent });
    setBusy(false);
  };
  return (
    <li className="mcp-tool" data-testid={`mcp.prompt.${prompt.name}`}>
      <button type="button" className="link-button" onClick={() => setOpen(!open)} aria-expanded={open}>
        <strong className="mono">{prompt.name}</strong>
        {prompt.title && <span> — {prompt.title}</span>}
      </button>
      {prompt.description && <p className="muted small">{prompt.description}</p>}
      {open && (
        <form
          className="mcp-tool-body"
          onSubmit={(event) => {
            event.preventDefault();
            void get();
          }}
        >
          {prompt.arguments.length === 0 && <p className="muted small">No arguments.</p>}
          {prompt.arguments.map((arg) => (
            <label key={arg.name} className="field">
              <span>
                <span className="mono">{arg.name}</span>
                {arg.required ? ' (required)' : ' (optional)'}
                {arg.description && <span className="muted small"> — {arg.description}</span>}
              </span>
              <input value={values[arg.name] ?? ''} onChange={(event) => setValues({ ...values, [arg.name]: event.target.value })} data-testid={`mcp.prompt-arg.${arg.name}`} />
            </label>
          ))}
          <button type="submit" className="primary" disabled={busy} data-testid="mcp.prompt-get">
            Get prompt
          </button>
          {answer && 'errors' in answer && (
            <>
              {!answer.sent && <p><strong data-testid="mcp.prompt-not-sent">Nothing was sent to the server.</strong></p>}
              <CodedErrors errors={answer.errors} testId="mcp.prompt-error" />
            </>
          )}
          {answer && 'view' in answer && (
            <div data-testid="mcp.prompt-messages">
              {answer.view.description && <p className="muted small">{answer.view.description}</p>}
              {answer.view.messages.map((message, index) => (
                <figure key={index} className="mcp-content">
                  <figcaption className="small mono">{message.role}</figcaption>
                  <pre className="mono small mcp-pre" tabIndex={0}>
                    {message.text}
                  </pre>
                </figure>
              ))}
            </div>
          )}
        </form>
      )}
    </li>
  );
}
