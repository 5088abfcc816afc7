// Numeric fields as typed: text that is not (yet) a valid value stays a draft beside the stored
// configuration, with the reason, and blocks Compile. The ranges come from one place only:
// validateConfig (src/compiler/config.ts), which knows the platform's limits.
import type { PlaygroundErrorData } from '../../common/errors';
import { toErrorData } from '../../common/errors';
import type { Config } from '../../compiler/config';
import { validateConfig } from '../../compiler/config';
import { ignoredBecause } from './applies';

export type NumberFieldName = 'cores' | 'l1' | 'l2';
export type Drafts = Partial<Record<NumberFieldName, string>>;

export const FIELD_LABELS: Record<NumberFieldName, string> = { cores: 'Cores', l1: 'L1 size', l2: 'L2 size' };

/** The whole number a text holds, or undefined. */
export function parseWhole(text: string): number | undefined {
  return /^\s*[-+]?\d+\s*$/.test(text) ? Number(text) : undefined;
}

/** validateConfig's error for `c`, or null when it is valid. */
export function configError(c: Config): PlaygroundErrorData | null {
  try {
    validateConfig(c);
    return null;
  } catch (err) {
    return toErrorData(err, 'config');
  }
}

function entries(d: Drafts): [NumberFieldName, string][] {
  return Object.entries(d) as [NumberFieldName, string][];
}

/** The configuration with every draft that parses applied. */
function withDrafts(c: Config, d: Drafts): Config {
  const out = { ...c };
  for (const [f, text] of entries(d)) {
    const v = parseWhole(text);
    if (v !== undefined) out[f] = v;
  }
  return out;
}

/** Why a field's draft is not a valid value, or null when it has none (or it is fine). */
export function draftProblem(c: Config, d: Drafts, field: NumberFieldName): string | null {
  const text = d[field];
  if (text === undefined) return null;
  const v = parseWhole(text);
  if (v === undefined) return `${FIELD_LABELS[field]} must be a whole number`;
  const err = configError({ ...c, [field]: v });
  return err ? message(err) : null;
}

const message = (err: PlaygroundErrorData) => (err.hint ? `${err.what}: ${err.hint}` : err.what);

/** Why Compile cannot run with these drafts, or null. */
export function draftsBlocker(c: Config, d: Drafts): string | null {
  for (const [f] of entries(d)) {
    const p = draftProblem(c, d, f);
    if (p) return `${FIELD_LABELS[f]}: ${p}`;
  }
  // Each draft fits alone, but not together.
  const err = entries(d).length ? configError(withDrafts(c, d)) : null;
  return err ? message(err) : null;
}

/**
 * The stored configuration and drafts after a change: drafts of controls the platform now
 * ignores are dropped, and all drafts are applied together once they make a valid configuration.
 */
export function settle(c: Config, d: Drafts): { config: Config; drafts: Drafts } {
  const kept: Drafts = Object.fromEntries(entries(d).filter(([f]) => ignoredBecause(c, f) === null));
  const next = withDrafts(c, kept);
  const allParse = entries(kept).every(([, t]) => parseWhole(t) !== undefined);
  if (allParse && !configError(next)) return { config: next, drafts: {} };
  return { config: c, drafts: kept };
}
