import { shownText } from './names';
import { dismissError, useStore } from './store';

/** The last error: what went wrong, where, and what to do. Dismissing it changes nothing else; a sticky one (a link's problem) stays until dismissed. */
export function ErrorBanner() {
  const error = useStore((s) => s.error);
  if (!error) return null;
  const { code, what, where, hint } = error.data;
  return (
    <div className="error-banner" role="alert" data-testid="error-banner" data-sticky={error.sticky ? 1 : undefined}>
      <div className="error-body">
        <div className="error-title">
          <strong data-testid="error-title">{shownText(error.title)}</strong>
          <span className="error-code" data-testid="error-code">{code}</span>
        </div>
        <div data-testid="error-what">{shownText(what)}</div>
        {where && <div className="error-where">where: <span data-testid="error-where">{shownText(where)}</span></div>}
        {hint && <div className="error-hint">hint: <span data-testid="error-hint">{shownText(hint)}</span></div>}
      </div>
      <button type="button" className="error-dismiss" onClick={dismissError} data-testid="error-dismiss"
        aria-label="Dismiss error">×</button>
    </div>
  );
}
