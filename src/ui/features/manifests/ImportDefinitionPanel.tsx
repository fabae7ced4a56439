import { useEffect, useRef, useState } from 'react';
import { canonicalizeDefinitions, safeParseJson, toManifest, type CanonicalizationResult, type ManifestDraft } from '../../../core/index.ts';
import { takeJourney } from '../../lib/stores/journey.ts';

interface Converted {
  result: CanonicalizationResult;
  draft: ManifestDraft;
}

/**
 * Paste any tool definition (OpenAI, Anthropic, MCP, LangChain, raw JSON Schema, an array of them
 * or an MCP `tools/list` response): see what it was detected as, how sure the detector is, what
 * was lost, and a draft ToolManifest to open in the editor.
 */
export function ImportDefinitionPanel({ onOpen }: { onOpen(manifestJson: string): void }) {
  const [text, setText] = useState('');
  const [converted, setConverted] = useState<Converted[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);

  // The start page's "Import a tool definition": arrive with the paste box in view and focused.
  // A frame later: after navigating, the app moves focus to the page's content first.
  useEffect(() => {
    if (!takeJourney('import-definition')) return;
    // Not cancelled on clean-up: the journey is taken once, and an unmounted panel has no input to focus.
    requestAnimationFrame(() => {
      input.current?.scrollIntoView({ block: 'center' });
      input.current?.focus({ preventScroll: true });
    });
  }, []);

  const convert = () => {
    const parsed = safeParseJson(text);
    if (!parsed.ok) {
      setProblem(`Not JSON: ${parsed.message}`);
      setConverted(null);
      return;
    }
    setProblem(null);
    const { results } = canonicalizeDefinitions(parsed.value);
    setConverted(results.map((result) => ({ result, draft: toManifest(result.tool) })));
  };

  return (
    <section className="panel" aria-label="Import a tool definition" data-testid="manifest-import">
      <h2>Import a tool definition</h2>
      <textarea
        ref={input}
        className="json-editor json-editor--small"
        spellCheck={false}
        placeholder="Paste an OpenAI, Anthropic, MCP or LangChain tool definition, or a JSON Schema"
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-label="Tool definition JSON"
        data-testid="manifest-import.input"
      />
      <button type="button" className="primary" onClick={convert} disabled={text.trim() === ''} data-testid="manifest-import.convert">
        Detect and convert
      </button>
      {problem && <p className="field__error">{problem}</p>}
      {converted?.map(({ result, draft }, index) => (
        <div className="converted" key={index} data-testid="manifest-import.result">
          <p>
            <strong>{result.tool.name || '(unnamed)'}</strong> detected as <span className="tag" data-testid="manifest-import.format">{result.source_format_detected}</span>
          </p>
          <table className="data-table">
            <caption>Detector confidence</caption>
            <tbody>
              {Object.entries(result.confidence)
                .sort((a, b) => b[1] - a[1])
                .map(([format, score]) => (
                  <tr key={format}>
                    <th scope="row">{format}</th>
                    <td>{score.toFixed(2)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
          {result.warnings.length > 0 && (
            <ul className="issue-list issue-list--warnings" aria-label="Warnings">
              {result.warnings.map((warning) => (
                <li key={warning} className="issue">
                  <span className="issue__code">warning</span>
                  <span className="issue__message">{warning}</span>
                </li>
              ))}
            </ul>
          )}
          {draft.review.length > 0 && (
            <details>
              <summary>{draft.review.length} fields filled with defaults — review them</summary>
              <ul>
                {draft.review.map((item) => (
                  <li key={item.field}>
                    <code>{item.field}</code>: {item.reason}
                  </li>
                ))}
              </ul>
            </details>
          )}
          <button type="button" onClick={() => onOpen(JSON.stringify(draft.manifest, null, 2))} data-testid="manifest-import.open">
            Open draft manifest in the editor
          </button>
        </div>
      ))}
    </section>
  );
}
