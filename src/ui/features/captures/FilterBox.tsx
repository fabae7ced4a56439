import { formatCount } from '../../components/format.ts';
import { useEffect, useState } from 'react';

interface Props {
  value: string;
  onCommit(value: string): void;
  /** The filter's problem, from the worker that evaluated it. */
  error: { message: string; position: number | null } | null;
  matched: number | null;
  total: number;
}

const DEBOUNCE_MS = 250;

/** The filter language of tool invocations, validated as you type, with the error's position marked. */
export function FilterBox({ value, onCommit, error, matched, total }: Props) {
  const [text, setText] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => onCommit(text), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, onCommit]);
  const position = error?.position ?? null;
  return (
    <div className="filter-box">
      <label className="field">
        <span className="field__label">Filter (same language as tool invocations)</span>
        <input
          className={`mono${error ? ' is-invalid' : ''}`}
          value={text}
          placeholder="e.g. channel IN (37,38,39) AND rssi > -92"
          onChange={(event) => setText(event.target.value)}
          spellCheck={false}
          aria-invalid={error !== null}
          data-testid="capture.filter"
        />
      </label>
      {error ? (
        <div className="filter-box__error" role="alert" data-testid="capture.filter-error">
          {position !== null && position <= text.length && (
            <pre className="filter-box__marker" aria-hidden="true">
              {text}
              {'\n'}
              {' '.repeat(position)}^
            </pre>
          )}
          <span className="field__error">{error.message}</span>
        </div>
      ) : (
        <p className="muted" data-testid="capture.filter-count">
          {matched === null ? '…' : `${formatCount(matched)} of ${formatCount(total)} rows`}
        </p>
      )}
    </div>
  );
}
