import type { ToolError } from '../../../core/index.ts';

/** Coded errors, one line each: code, field, message, all as text. */
export function CodedErrors({ errors, testId }: { errors: readonly ToolError[]; testId?: string }) {
  return (
    // The alert role sits on a wrapper: on the list itself it would hide the list semantics (axe listitem).
    <div role="alert" data-testid={testId}>
      <ul className="issue-list issue-list--errors">
        {errors.map((error, index) => (
          <li key={index} className="issue">
            <span className="mono">{error.code}</span>
            <span className="mono">{error.field || '(request)'}</span>
            <span>{error.message}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
