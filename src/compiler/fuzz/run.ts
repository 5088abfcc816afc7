// The fuzz driver: one case = one seeded mutation of a model and one seeded configuration, run
// through a list of stages (stages.ts: parse, shapes, interpret, lower, tile, codegen, then
// whatever the caller appends: our C compiler, a bounded run). A case ends
//   'ok'        every stage ran (or one stopped at a bound it was given: `bounded`);
//   'error'     a PlaygroundError: the expected, explained refusal of bad input;
//   'internal'  a PlaygroundError with code 'internal': the playground reporting its own bug;
//   'uncaught'  any other exception: a bug;
//   'hang'      set by the caller that timed the case out (a worker with a timeout, or a time check).
import type { ErrorCode } from '../../common/errors';
import { PlaygroundError } from '../../common/errors';
import type { Config } from '../config';
import type { NpyArray } from '../npz';
import { describeConfig, fuzzConfig } from './config';
import { mutate } from './mutate';
import { mulberry32 } from './prng';
import { FRONT_END_STAGES, type CaseState, type FuzzStage } from './stages';

export type Outcome = 'ok' | 'error' | 'internal' | 'uncaught' | 'hang';
export const OUTCOMES: readonly Outcome[] = ['ok', 'error', 'internal', 'uncaught', 'hang'];

export interface CaseResult {
  seed: number;
  /** The model the case mutated (a corpus name), for the reproducer. */
  model: string;
  /** The model spliced in, when it was not the model itself. */
  donor?: string;
  mutation: string;
  /** The configuration, in a few words (the seed gives it back exactly). */
  config: string;
  outcome: Outcome;
  /** The stage that ended the case (the last one for 'ok'). */
  stage: string;
  /** 'ok' cases cut short at a bound (the run's cycle limit): what stopped them. */
  bounded?: string;
  /** 'ok' cases whose last stage did not apply (the simulator run of generic code): why. */
  skipped?: string;
  code?: ErrorCode;
  message?: string;
  ms: number;
  /** Milliseconds per stage run. */
  stageMs?: Record<string, number>;
}

export interface FuzzOptions {
  /** The stages to run, in order (default: the front end: parse, shapes, interpret). */
  stages?: readonly FuzzStage[];
  /** Corpus name of the model, reported in the result. */
  model?: string;
  /** Another model's bytes for splicing (default: the model itself). */
  donor?: Uint8Array;
  /** Its corpus name, reported in the result. */
  donorName?: string;
  /** The model's own inputs.npz arrays, used when they still fit the mutated graph. */
  inputs?: readonly NpyArray[];
  /** Called as each stage starts (a worker reports it, so a hang names its stage). */
  onStage?: (stage: string) => void;
}

/** The case's configuration and whether its model is mutated at all; drawn from their own stream of the seed. */
export function caseSetup(seed: number): { config: Config; mutated: boolean } {
  const rng = mulberry32((seed ^ 0x5ca1ab1e) >>> 0);
  const mutated = rng() >= 0.12; // some cases run the model as it is, to meet the configurations only
  return { config: fuzzConfig(rng), mutated };
}

/** The case's mutation (or none), reproducible from the seed alone. */
export function caseMutation(bytes: Uint8Array, seed: number, donor: Uint8Array = bytes): { bytes: Uint8Array; what: string; rng: () => number } {
  const rng = mulberry32(seed);
  if (!caseSetup(seed).mutated) return { bytes, what: 'none', rng };
  const m = mutate(bytes, rng, donor);
  return { bytes: m.bytes, what: m.what, rng };
}

/** Mutates `bytes` with `seed` and runs the stages on the result. Never throws. */
export async function fuzzOnce(bytes: Uint8Array, seed: number, opts: FuzzOptions = {}): Promise<CaseResult> {
  const t0 = performance.now();
  const { config } = caseSetup(seed);
  const m = caseMutation(bytes, seed, opts.donor ?? bytes);
  const base = { seed, model: opts.model ?? '', mutation: m.what, config: describeConfig(config),
    ...(m.what.startsWith('splice') && opts.donorName ? { donor: opts.donorName } : {}) };
  const state: CaseState = { bytes: m.bytes, config, rng: m.rng, npz: opts.inputs };
  const stages = opts.stages ?? FRONT_END_STAGES;
  let stage = stages[0]?.name ?? 'none';
  const stageMs: Record<string, number> = {};
  let ts = performance.now();
  const lap = () => {
    const now = performance.now();
    stageMs[stage] = Math.round(now - ts);
    ts = now;
  };
  try {
    for (const st of stages) {
      stage = st.name;
      opts.onStage?.(stage);
      await st.run(state);
      lap();
      if (state.bounded || state.skipped) break;
    }
    return { ...base, outcome: 'ok', stage, ...(state.bounded ? { bounded: state.bounded } : {}),
      ...(state.skipped ? { skipped: state.skipped } : {}), ms: performance.now() - t0, stageMs };
  } catch (e) {
    lap();
    const ms = performance.now() - t0;
    if (e instanceof PlaygroundError)
      return { ...base, outcome: e.data.code === 'internal' ? 'internal' : 'error', stage, code: e.data.code, message: e.message, ms, stageMs };
    const err = e instanceof Error ? e : new Error(String(e));
    const at = (err.stack ?? '').split('\n').slice(1, 4).map((l) => l.trim()).join(' | ');
    return { ...base, outcome: 'uncaught', stage, message: `${err.name}: ${err.message} @ ${at}`, ms, stageMs };
  }
}

// ---- many cases -------------------------------------------------------------------------------

export interface FuzzModel {
  name: string;
  onnx: Uint8Array;
  inputs?: readonly NpyArray[];
}

/** Which model, donor and seed case `index` of a run uses: a case is reproducible from its index. */
export function caseFor(models: readonly FuzzModel[], index: number, baseSeed = 1): { model: FuzzModel; donor: FuzzModel; seed: number } {
  const seed = (Math.imul(baseSeed, 0x9e3779b1) + index) >>> 0;
  return { model: models[index % models.length], donor: models[(index * 7 + 3) % models.length], seed };
}

export function runCase(models: readonly FuzzModel[], index: number, baseSeed = 1, stages?: readonly FuzzStage[],
  onStage?: (stage: string) => void): Promise<CaseResult> {
  const { model, donor, seed } = caseFor(models, index, baseSeed);
  return fuzzOnce(model.onnx, seed, { model: model.name, donor: donor.onnx, donorName: donor.name, inputs: model.inputs, stages, onStage });
}

/** The result a caller records for a case it stopped (a hang) or whose worker died. */
export function stoppedCase(models: readonly FuzzModel[], index: number, baseSeed: number, outcome: 'hang' | 'uncaught',
  stage: string, message: string, ms: number): CaseResult {
  const { model, donor, seed } = caseFor(models, index, baseSeed);
  const what = caseMutation(model.onnx, seed, donor.onnx).what;
  return { seed, model: model.name, mutation: what, config: describeConfig(caseSetup(seed).config), outcome, stage, message, ms };
}

export interface StageCounts {
  /** Cases that started the stage. */
  reached: number;
  /** Cases that got through it. */
  passed: number;
  /** Cases it ended, by outcome (never 'ok': those passed, were cut short or skipped). */
  ended: Record<Outcome, number>;
  /** 'ok' cases cut short here at a bound (the run's cycle limit). */
  bounded: number;
  /** 'ok' cases to which this stage did not apply. */
  skipped: number;
  /** Refusals ('error'), by code. */
  byCode: Partial<Record<ErrorCode, number>>;
  /** The first refusal of each code, to read what the user is told. */
  examples: Partial<Record<ErrorCode, string>>;
}

export interface FuzzSummary {
  cases: number;
  /** Cases by outcome. */
  outcomes: Record<Outcome, number>;
  /** 'ok' cases cut short at a bound they were given (the run's cycle limit). */
  bounded: number;
  /** 'ok' cases whose last stage did not apply to them. */
  skipped: number;
  /** Per stage, in the order of the stage list. */
  stages: Record<string, StageCounts>;
  ms: number;
  slowestMs: number;
  /** The slowest case (the next hang, perhaps). */
  slowest?: CaseResult;
  /** Reproducers of every uncaught exception, internal error and hang. */
  findings: CaseResult[];
}

export function emptySummary(stageNames: readonly string[] = FRONT_END_STAGES.map((s) => s.name)): FuzzSummary {
  const stages: Record<string, StageCounts> = {};
  for (const n of stageNames) stages[n] = { reached: 0, passed: 0, ended: zeroOutcomes(), bounded: 0, skipped: 0, byCode: {}, examples: {} };
  return { cases: 0, outcomes: zeroOutcomes(), bounded: 0, skipped: 0, stages, ms: 0, slowestMs: 0, findings: [] };
}

const zeroOutcomes = (): Record<Outcome, number> => ({ ok: 0, error: 0, internal: 0, uncaught: 0, hang: 0 });

/** Adds one case to a summary; `hang` marks a case that was stopped for taking too long. */
export function record(s: FuzzSummary, r: CaseResult, hang = r.outcome === 'hang'): void {
  const c: CaseResult = hang && r.outcome !== 'hang'
    ? { ...r, outcome: 'hang', message: `took ${r.ms.toFixed(0)} ms (then ${r.outcome}${r.message ? `: ${r.message}` : ''})` } : r;
  s.cases++;
  if (c.ms > s.slowestMs) {
    s.slowestMs = c.ms;
    s.slowest = c;
  }
  s.outcomes[c.outcome]++;
  if (c.bounded) s.bounded++;
  if (c.skipped) s.skipped++;
  const names = Object.keys(s.stages);
  const at = names.indexOf(c.stage);
  // Every stage before the one that ended the case was reached and passed.
  names.forEach((n, i) => {
    if (at < 0 || i > at) return;
    const st = s.stages[n];
    st.reached++;
    if (i < at || (c.outcome === 'ok' && !c.bounded && !c.skipped)) st.passed++;
    if (i === at) {
      if (c.outcome !== 'ok') st.ended[c.outcome]++;
      else if (c.bounded) st.bounded++;
      else if (c.skipped) st.skipped++;
      if (c.outcome === 'error') {
        st.byCode[c.code!] = (st.byCode[c.code!] ?? 0) + 1;
        st.examples[c.code!] ??= c.message;
      }
    }
  });
  if (c.outcome === 'uncaught' || c.outcome === 'internal' || c.outcome === 'hang') s.findings.push(c);
}

/** Bugs found: uncaught exceptions, the playground's own internal errors, hangs. */
export const bugCount = (s: FuzzSummary) => s.outcomes.uncaught + s.outcomes.internal + s.outcomes.hang;

export function describeCase(r: CaseResult): string {
  const what = r.outcome === 'hang' ? `HANG in ${r.stage}: ${r.message ?? `ran ${r.ms.toFixed(0)} ms`}` :
    r.outcome === 'uncaught' ? `UNCAUGHT in ${r.stage}: ${r.message}` :
    r.outcome === 'internal' ? `INTERNAL ERROR in ${r.stage}: ${r.message}` :
    r.bounded ? `ok, stopped in ${r.stage}: ${r.bounded}` :
    r.skipped ? `ok, ${r.stage} skipped: ${r.skipped}` :
    `${r.outcome} in ${r.stage} (${r.ms.toFixed(0)} ms) ${r.message ?? ''}`;
  return `seed ${r.seed} on ${r.model}${r.donor ? ` (donor ${r.donor})` : ''} [${r.mutation}] {${r.config}}: ${what}`;
}

/** A finding's kind: its outcome, stage and message with the numbers and quoted names taken out. */
export function signature(r: CaseResult): string {
  const msg = (r.message ?? '').replace(/'[^']*'|"[^"]*"/g, "'…'").replace(/-?\d+(\.\d+)?/g, 'N').slice(0, 160);
  return `${r.outcome} in ${r.stage}: ${msg}`;
}

/** Findings grouped by signature, most frequent first: the count and the first case of each. */
export function distinctFindings(s: FuzzSummary): { signature: string; count: number; first: CaseResult }[] {
  const groups = new Map<string, { signature: string; count: number; first: CaseResult }>();
  for (const f of s.findings) {
    const k = signature(f);
    const g = groups.get(k);
    if (g) g.count++;
    else groups.set(k, { signature: k, count: 1, first: f });
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

/** The per-stage table and the totals, as lines of text. */
export function formatSummary(s: FuzzSummary, refusals = false): string[] {
  const lines = [`${s.cases} cases in ${(s.ms / 1000).toFixed(1)} s: ` + OUTCOMES.map((o) => `${o} ${s.outcomes[o]}`).join(', ') +
    (s.bounded ? ` (of the ok cases, ${s.bounded} stopped at the run's cycle bound)` : '') +
    (s.skipped ? ` (${s.skipped} skipped a stage that does not apply)` : '') + `; slowest case ${s.slowestMs.toFixed(0)} ms`];
  const cols = ['reached', 'passed', 'refused', 'internal', 'uncaught', 'hang', 'bounded', 'skipped'];
  lines.push(`  ${'stage'.padEnd(10)} ${cols.map((c) => c.padStart(8)).join(' ')}  refusals by code`);
  for (const [name, st] of Object.entries(s.stages))
    lines.push(`  ${name.padEnd(10)} ` +
      [st.reached, st.passed, st.ended.error, st.ended.internal, st.ended.uncaught, st.ended.hang, st.bounded, st.skipped].map((v) => String(v).padStart(8)).join(' ') + '  ' +
      Object.entries(st.byCode).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', '));
  if (refusals) {
    lines.push('  the first refusal of each code past the parser (what the user reads):');
    for (const [name, st] of Object.entries(s.stages).slice(1))
      for (const [code, msg] of Object.entries(st.examples)) lines.push(`    ${name} ${code}: ${msg}`.slice(0, 400));
  }
  if (s.slowest) lines.push(`  slowest: ${describeCase(s.slowest)}`.slice(0, 600) + (s.slowest.stageMs ? ` ms per stage ${JSON.stringify(s.slowest.stageMs)}` : ''));
  return lines;
}
