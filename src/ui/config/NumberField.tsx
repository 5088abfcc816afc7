import { useState } from 'react';
import { LIMITS } from '../../compiler/config';
import { updateConfig, useStore } from '../store';

type Field = keyof typeof LIMITS;

/** Why `text` is not an allowed value of `field`, or null if it is. */
function rangeMessage(field: Field, label: string, text: string): string | null {
  const { min, max } = LIMITS[field];
  const v = Number(text);
  if (text.trim() === '' || !Number.isInteger(v) || v < min || v > max)
    return `${label} must be a whole number from ${min} to ${max}`;
  return null;
}

/**
 * A numeric config field. What the user types is kept here; only a valid value reaches the
 * store, an invalid one shows a message under the field instead.
 */
export function NumberField({ field, label, unit }: { field: Field; label: string; unit?: string }) {
  const value = useStore((s) => s.config[field]);
  const [draft, setDraft] = useState(String(value));
  const [shown, setShown] = useState(value);
  const [message, setMessage] = useState<string | null>(null);
  if (value !== shown) {
    // Changed elsewhere (e.g. a reset): show the stored value.
    setShown(value);
    setDraft(String(value));
    setMessage(null);
  }
  const { min, max } = LIMITS[field];
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <span className="field-input">
        <input type="number" min={min} max={max} step={1} value={draft} aria-invalid={message !== null}
          data-testid={`cfg-${field}`}
          onChange={(e) => {
            const text = e.target.value;
            setDraft(text);
            const problem = rangeMessage(field, label, text);
            setMessage(problem);
            if (problem) return;
            const v = Number(text);
            const err = updateConfig({ [field]: v });
            if (err) setMessage(err.hint ? `${err.what} (${err.hint})` : err.what);
            else setShown(v);
          }} />
        {unit && <span className="unit">{unit}</span>}
      </span>
      {message && <span className="field-error" role="alert" data-testid={`cfg-${field}-error`}>{message}</span>}
    </label>
  );
}
