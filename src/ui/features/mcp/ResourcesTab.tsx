import { useState } from 'react';
import type { Read, ResourceContentView } from '../../lib/runtime/mcp-inspector-results.ts';
import { CodedErrors } from './CodedErrors.tsx';
import { listResourcesFromPage, readResourceFromPage, type ResourcesListing } from './mcp-actions.ts';

/** A server's resources and resource templates: list them, read one by its URI (templates filled in by hand). Contents shown as text. */
export function ResourcesTab({ url }: { url: string }) {
  const [listing, setListing] = useState<Read<ResourcesListing> | null>(null);
  const [uri, setUri] = useState('');
  const [contents, setContents] = useState<Read<ResourceContentView[]> | null>(null);
  const [busy, setBusy] = useState(false);

  const list = async () => {
    setBusy(true);
    setListing(await listResourcesFromPage(url));
    setBusy(false);
  };
  const read = async (target: string) => {
    setUri(target);
    setBusy(true);
    setContents(await readResourceFromPage(url, target));
    setBusy(false);
  };

  return (
    <div data-testid="mcp.resources">
      <div className="inline-inputs">
        <button type="button" disabled={busy} onClick={() => void list()} data-testid="mcp.resources-list">
          {listing ? 'List again' : 'List resources'}
        </button>
      </div>
      {listing && !listing.ok && <CodedErrors errors={[listing.error]} testId="mcp.resources-error" />}
      {listing?.ok && (
        <>
          {listing.value.resources.resources.length === 0 ? (
            <p className="muted">The server lists no resources.</p>
          ) : (
            <ul className="mcp-list" data-testid="mcp.resource-list">
              {listing.value.resources.resources.map((resource) => (
                <li key={resource.uri}>
                  <button type="button" className="link-button mono" onClick={() => void read(resource.uri)} data-testid="mcp.resource">
                    {resource.uri}
                  </button>
                  {resource.name !== resource.uri && <span> — {resource.title ?? resource.name}</span>}
                  {resource.mimeType && <span className="tag">{resource.mimeType}</span>}
                  {resource.description && <p className="muted small">{resource.description}</p>}
                </li>
              ))}
            </ul>
          )}
          {listing.value.resources.problems.length > 0 && (
            <ul className="small" data-testid="mcp.resource-problems">
              {listing.value.resources.problems.map((problem) => (
                <li key={problem.index}>Entry #{problem.index} refused: {problem.message}</li>
              ))}
            </ul>
          )}
          {listing.value.templates.ok && listing.value.templates.value.templates.length > 0 && (
            <>
              <h4>Templates (fill in the URI below)</h4>
              <ul className="mcp-list" data-testid="mcp.resource-templates">
                {listing.value.templates.value.templates.map((template) => (
                  <li key={template.uriTemplate}>
                    <button type="button" className="link-button mono" onClick={() => setUri(template.uriTemplate)}>
                      {template.uriTemplate}
                    </button>
                    <span> — {template.name}</span>
                    {template.description && <p className="muted small">{template.description}</p>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      <form
        className="inline-inputs"
        onSubmit={(event) => {
          event.preventDefault();
          void read(uri);
        }}
      >
        <label className="field mcp-grow">
          Resource URI
          <input className="mono" value={uri} onChange={(event) => setUri(event.target.value)} placeholder="demo://resource/static/document/features.md" data-testid="mcp.resource-uri" />
        </label>
        <button type="submit" disabled={busy || uri.trim() === ''} data-testid="mcp.resource-read">
          Read
        </button>
      </form>
      {contents && !contents.ok && <CodedErrors errors={[contents.error]} testId="mcp.resource-error" />}
      {contents?.ok && (
        <div data-testid="mcp.resource-contents">
          {contents.value.length === 0 && <p className="muted">The resource has no contents.</p>}
          {contents.value.map((item, index) => (
            <figure key={index} className="mcp-content">
              <figcaption className="small">
                <span className="mono">{item.uri || '(no uri)'}</span> {item.mimeType && <span className="tag">{item.mimeType}</span>}{' '}
                <span className="muted">
                  {item.kind === 'text' ? `${item.size} characters` : `${item.size} bytes`}
                  {item.clipped ? ', the first shown' : ''}
                </span>
              </figcaption>
              <pre className="mono small mcp-pre" tabIndex={0} data-testid="mcp.resource-text">
                {item.shown}
              </pre>
            </figure>
          ))}
        </div>
      )}
    </div>
  );
}
