import type { Control } from './applies';
import { ignoredBecause, ignoredTitle } from './applies';
import type { NumberFieldName } from './drafts';
import { draftProblem, FIELD_LABELS } from './drafts';
import { editNumber, useStore } from '../store';

/**
 * A numeric config field. What the user types is applied when valid; otherwise it stays a
 * draft (shown here, with the reason under the field) and Compile is blocked until it is fixed.
 * A field the platform ignores is disabled and says why.
 */
export function NumberField({ field, unit }: { field: NumberFieldName; unit?: string }) {
  const config = useStore((s) => s.config);
  const draft = useStore((s) => s.drafts[field]);
  const problem = useStore((s) => draftProblem(s.config, s.drafts, field));
  const ignored = ignoredBecause(config, field as Control);
  const title = ignoredTitle(config, field as Control);
  return (
    <label className={`field ${ignored ? 'disabled' : ''}`} title={title}>
      <span className="field-label">{FIELD_LABELS[field]}</span>
      <span className="field-input">
        <input type="text" inputMode="numeric" value={draft ?? String(config[field])} aria-invalid={problem !== null}
          disabled={ignored !== null} data-testid={`cfg-${field}`}
          onChange={(e) => editNumber(field, e.target.value)} />
        {unit && <span className="unit">{unit}</span>}
      </span>
      {ignored && <span className="field-note" data-testid={`cfg-${field}-ignored`}>{ignored}</span>}
      {problem && <span className="field-error" role="alert" data-testid={`cfg-${field}-error`}>{problem}</span>}
    </label>
  );
}
