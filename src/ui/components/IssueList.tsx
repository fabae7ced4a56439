import type { ToolError, ToolWarning } from '../../core/index.ts';

/** Errors, each with the field it points at; rendered as text only. */
export function ErrorList({ errors }: { errors: ToolError[] }) {
  if (errors.length === 0) return null;
  return (
    <ul className="issue-list issue-list--errors" aria-label="Errors">
      {errors.map((error, index) => (
        <li key={index} className="issue" data-testid="result.error" data-code={error.code} data-field={error.field}>
          <span className="issue__code">{error.code}</span>
          <span className="issue__field" title="Field the error points at">
            {error.field === '' ? '(whole invocation)' : error.field}
          </span>
          <span className="issue__message">{error.message}</span>
        </li>
      ))}
    </ul>
  );
}

export function WarningList({ warnings }: { warnings: ToolWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul className="issue-list issue-list--warnings" aria-label="Warnings">
      {warnings.map((warning, index) => (
        <li key={index} className="issue" data-testid="result.warning" data-code={warning.code}>
          <span className="issue__code">{warning.code}</span>
          <span className="issue__message">{warning.message}</span>
        </li>
      ))}
    </ul>
  );
}
