// Typed answers against measured values: a tolerant number reader (a student types "5.7x",
// "1,234,567" or "5,67"), the comparison with its tolerance, and how a list of check items
// becomes a step's verdict.
import type { Answers, CheckItem, CheckResult } from './types';

/** The number a typed answer holds, or undefined. Thousands separators, a trailing ×/x or % and spaces are ignored. */
export function parseAnswer(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  let t = text.trim().replace(/\s+/g, '').replace(/(×|x|X|%)$/, '');
  if (/^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) t = t.replace(/,/g, '');
  else if (/^[-+]?\d*,\d+$/.test(t)) t = t.replace(',', '.');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return undefined;
  const v = Number(t);
  return Number.isFinite(v) ? v : undefined;
}

/** How close a typed number must be: within `rel` of the measured value (a fraction), or `abs`. */
export interface Tolerance { rel?: number; abs?: number }

export const SPEEDUP_TOLERANCE: Tolerance = { rel: 0.02 };
export const SPEEDUP_TOLERANCE_TEXT = 'within 2 % of the measured ratio';

export function within(value: number, expected: number, tol: Tolerance): boolean {
  const allowed = Math.max((tol.rel ?? 0) * Math.abs(expected), tol.abs ?? 0);
  return Math.abs(value - expected) <= allowed + 1e-9;
}

/**
 * A numeric answer against what was measured. Without a measurement the item is missing (measure
 * first); a wrong answer says where to look (`hint`), never the value.
 */
export function numberItem(answers: Answers, id: string, label: string, expected: number | undefined,
  tol: Tolerance, hint: string): CheckItem {
  const text = answers[id]?.trim() ?? '';
  if (expected === undefined || !Number.isFinite(expected)) return { id, label, state: 'missing', detail: 'nothing measured to compare with yet' };
  if (text === '') return { id, label, state: 'missing', detail: 'type your answer' };
  const v = parseAnswer(text);
  if (v === undefined) return { id, label, state: 'wrong', detail: `"${text}" is not a number` };
  return within(v, expected, tol)
    ? { id, label, state: 'ok', detail: `${text}: matches the measurement` }
    : { id, label, state: 'wrong', detail: hint };
}

/** A numeric answer that any of several measured values makes right (e.g. any bad configuration against the good one). */
export function numberItemAny(answers: Answers, id: string, label: string, candidates: readonly number[],
  tol: Tolerance, hint: string): CheckItem {
  const text = answers[id]?.trim() ?? '';
  const v = parseAnswer(text);
  const hit = v === undefined ? undefined : candidates.find((c) => within(v, c, tol));
  return numberItem(answers, id, label, candidates.length ? hit ?? candidates[0] : undefined, tol, hint);
}

/** A word answer: right when it is one of `accepted` (case and surrounding spaces ignored). */
export function textItem(answers: Answers, id: string, label: string, accepted: readonly string[] | undefined, hint: string): CheckItem {
  const text = answers[id]?.trim() ?? '';
  if (!accepted || accepted.length === 0) return { id, label, state: 'missing', detail: 'nothing measured to compare with yet' };
  if (text === '') return { id, label, state: 'missing', detail: 'type your answer' };
  const norm = (s: string) => s.trim().toLowerCase().replace(/\(\)$/, '');
  return accepted.some((a) => norm(a) === norm(text))
    ? { id, label, state: 'ok', detail: `${text}: right` }
    : { id, label, state: 'wrong', detail: hint };
}

/** A condition on the app's state: holds, or what to do. */
export function stateItem(id: string, label: string, holds: boolean, found: string, todo: string): CheckItem {
  return holds ? { id, label, state: 'ok', detail: found } : { id, label, state: 'missing', detail: todo };
}

/** Any wrong answer fails the step; anything missing leaves it not yet done; the evidence shows once it passed. */
export function verdict(items: CheckItem[], evidence: () => string[]): CheckResult {
  const status = items.some((i) => i.state === 'wrong') ? 'failed' : items.some((i) => i.state === 'missing') ? 'not-yet' : 'passed';
  return { status, items, evidence: status === 'passed' ? evidence() : [] };
}

export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
export const pct = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)} %` : '0 %');
export const times = (x: number) => `${x.toFixed(2)}×`;
