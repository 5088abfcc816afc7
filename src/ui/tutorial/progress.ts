// The tutorial's progress as plain data: which step is open and which have passed (what a share
// link carries), plus what is kept in localStorage across reloads: the typed answers, whether
// the panel is open, and the runs recorded so far. Everything read back is validated; anything
// malformed gives a fresh start instead.
import { validateConfig, type Config } from '../../compiler/config';
import { isRunRecord } from './runlog';
import { STEP_IDS, STEPS } from './steps';
import type { RunRecord } from './types';

/** What a share link carries: the step shown and the steps passed (in tutorial order). */
export interface TutorialProgress {
  step: string;
  passed: string[];
}

export interface StoredTutorial extends TutorialProgress {
  open: boolean;
  /** Per step, per question: the text typed. */
  answers: Record<string, Record<string, string>>;
}

export const PROGRESS_KEY = 'dpg.tutorial.v1';
export const RUNS_KEY = 'dpg.tutorial.runs.v1';
/** Runs kept (the newest); each is a few kilobytes per hundred layers. */
export const MAX_RUNS = 24;
const MAX_ANSWER = 100;

export function freshTutorial(): StoredTutorial {
  return { open: false, step: STEP_IDS[0]!, passed: [], answers: {} };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** Progress as a link or a caller gives it; null unless it is exactly {step, passed} with known, distinct steps. */
export function parseProgress(v: unknown): TutorialProgress | null {
  if (!isObj(v) || Object.keys(v).some((k) => k !== 'step' && k !== 'passed')) return null;
  const { step, passed } = v;
  if (typeof step !== 'string' || !STEP_IDS.includes(step)) return null;
  if (!Array.isArray(passed) || passed.length > STEP_IDS.length) return null;
  if (!passed.every((p) => typeof p === 'string' && STEP_IDS.includes(p)) || new Set(passed).size !== passed.length) return null;
  // Kept in tutorial order, whatever order it came in.
  return { step, passed: STEP_IDS.filter((id) => passed.includes(id)) };
}

function parseAnswers(v: unknown): StoredTutorial['answers'] | null {
  if (!isObj(v)) return null;
  const out: StoredTutorial['answers'] = {};
  for (const [stepId, qs] of Object.entries(v)) {
    const step = STEPS.find((s) => s.id === stepId);
    if (!step || !isObj(qs)) return null;
    const mine: Record<string, string> = {};
    for (const [q, text] of Object.entries(qs)) {
      if (!step.questions.some((x) => x.id === q) || typeof text !== 'string' || text.length > MAX_ANSWER) return null;
      mine[q] = text;
    }
    out[stepId] = mine;
  }
  return out;
}

/** The stored tutorial from its JSON text; fresh when it is missing or malformed in any part. */
export function parseStored(text: string | null | undefined): StoredTutorial {
  if (!text) return freshTutorial();
  let v: unknown;
  try { v = JSON.parse(text); } catch { return freshTutorial(); }
  if (!isObj(v) || v.v !== 1 || typeof v.open !== 'boolean') return freshTutorial();
  const progress = parseProgress({ step: v.step, passed: v.passed });
  const answers = parseAnswers(v.answers);
  if (!progress || !answers || Object.keys(v).some((k) => !['v', 'open', 'step', 'passed', 'answers'].includes(k))) return freshTutorial();
  return { open: v.open, ...progress, answers };
}

export function serialiseStored(t: StoredTutorial): string {
  return JSON.stringify({ v: 1, open: t.open, step: t.step, passed: t.passed, answers: t.answers });
}

const CONFIG_TYPES: Record<keyof Config, (x: unknown) => boolean> = {
  platform: (x) => typeof x === 'string', cores: Number.isInteger, tiled: (x) => typeof x === 'boolean',
  l1: Number.isInteger, l2: Number.isInteger, defaultMemLevel: (x) => x === 'L2' || x === 'L3',
  doubleBuffer: (x) => typeof x === 'boolean', neurekaWmem: (x) => typeof x === 'boolean',
  profileTiling: (x) => x === null || x === 'L2' || x === 'L3',
};

/** A configuration with exactly Config's fields, of their types, that validateConfig accepts. */
export function isConfig(v: unknown): v is Config {
  if (!isObj(v)) return false;
  const keys = Object.keys(CONFIG_TYPES) as (keyof Config)[];
  if (Object.keys(v).length !== keys.length || !keys.every((k) => own(v, k) && CONFIG_TYPES[k](v[k]))) return false;
  try { validateConfig(v as unknown as Config); return true; } catch { return false; }
}

/** The stored runs; none when the text is missing or any record is malformed. */
export function parseRuns(text: string | null | undefined): RunRecord[] {
  if (!text) return [];
  let v: unknown;
  try { v = JSON.parse(text); } catch { return []; }
  if (!isObj(v) || v.v !== 1 || !Array.isArray(v.runs) || v.runs.length > MAX_RUNS) return [];
  return v.runs.every((r) => isRunRecord(r, isConfig)) ? (v.runs as RunRecord[]) : [];
}

export function serialiseRuns(runs: readonly RunRecord[]): string {
  return JSON.stringify({ v: 1, runs: runs.slice(-MAX_RUNS) });
}
