// The fuzz driver: one case = one seeded mutation of a model, run through the whole front
// end (readOnnx -> shape inference -> reference interpreter). A case ends 'ok', in a
// PlaygroundError ('error', the expected way to refuse bad input), or 'uncaught' (any other
// exception: a bug). Hangs are the caller's to detect (a worker with a timeout, or a time check).
import type { ErrorCode } from '../../common/errors';
import { PlaygroundError } from '../../common/errors';
import { allocTensor, DTYPES, numel } from '../ir/dtype';
import type { Graph } from '../ir/graph';
import { interpret, type TensorValue } from '../interpret/interpret';
import { bindNpzInputs } from '../interpret/npz-io';
import type { NpyArray } from '../npz';
import { readOnnx } from '../onnx/read';
import { analyze } from '../shapes/infer';
import { mutate } from './mutate';
import type { Rng } from './prng';
import { int, mulberry32 } from './prng';

/** 'hang' is set by the caller that timed the case out (a worker, or a time check). */
export type Outcome = 'ok' | 'error' | 'uncaught' | 'hang';
export type Stage = 'parse' | 'shapes' | 'interpret';

export interface CaseResult {
  seed: number;
  /** The model the case mutated (a corpus name), for the reproducer. */
  model: string;
  /** The model spliced in, when it was not the model itself. */
  donor?: string;
  mutation: string;
  outcome: Outcome;
  /** The stage that ended the case (the last one for 'ok'). */
  stage: Stage;
  /** Set when the interpreter was skipped because the graph needs more than the element budget. */
  overBudget?: number;
  code?: ErrorCode;
  message?: string;
  ms: number;
}

export interface FuzzOptions {
  /** Corpus name of the model, reported in the result. */
  model?: string;
  /** Another model's bytes for splicing (default: the model itself). */
  donor?: Uint8Array;
  /** Its corpus name, reported in the result. */
  donorName?: string;
  /** The model's own inputs.npz arrays, used when they still fit the mutated graph. */
  inputs?: readonly NpyArray[];
  /** Skip the interpreter when the typed graph holds more elements than this (default 50M). */
  budget?: number;
}

export const DEFAULT_BUDGET = 50_000_000;

/** Mutates `bytes` with `seed` and runs the front end on the result. Never throws. */
export function fuzzOnce(bytes: Uint8Array, seed: number, opts: FuzzOptions = {}): CaseResult {
  const t0 = performance.now();
  const rng = mulberry32(seed);
  const m = mutate(bytes, rng, opts.donor ?? bytes);
  const base = { seed, model: opts.model ?? '', mutation: m.what, ...(m.what.startsWith('splice') && opts.donorName ? { donor: opts.donorName } : {}) };
  let stage: Stage = 'parse';
  try {
    const graph = readOnnx(m.bytes, 'network.onnx');
    stage = 'shapes';
    const typed = analyze(graph).graph;
    const elements = graphElements(typed);
    if (elements > (opts.budget ?? DEFAULT_BUDGET))
      return { ...base, outcome: 'ok', stage, overBudget: elements, ms: performance.now() - t0 };
    stage = 'interpret';
    interpret(graph, inputsFor(typed, opts.inputs, rng));
    return { ...base, outcome: 'ok', stage, ms: performance.now() - t0 };
  } catch (e) {
    const ms = performance.now() - t0;
    if (e instanceof PlaygroundError) return { ...base, outcome: 'error', stage, code: e.data.code, message: e.message, ms };
    const err = e instanceof Error ? e : new Error(String(e));
    const at = (err.stack ?? '').split('\n').slice(1, 4).map((l) => l.trim()).join(' | ');
    return { ...base, outcome: 'uncaught', stage, message: `${err.name}: ${err.message} @ ${at}`, ms };
  }
}

/** Elements of every typed tensor and initializer: an upper bound on what the interpreter holds. */
export function graphElements(g: Graph): number {
  let n = 0;
  for (const t of Object.values(g.types)) n += numel(t.shape);
  for (const t of Object.values(g.initializers)) n += numel(t.shape);
  return n;
}

/** The shared inputs when they fit the graph, else integers in int8 range generated to fit. */
export function inputsFor(g: Graph, shared: readonly NpyArray[] | undefined, rng: Rng): TensorValue[] {
  if (shared) {
    try {
      return bindNpzInputs(g, shared, 'inputs.npz').inputs;
    } catch (e) {
      if (!(e instanceof PlaygroundError)) throw e;
    }
  }
  return g.inputs.map((v) => {
    const n = numel(v.shape);
    const info = DTYPES[v.dtype];
    if (!info.array) return { dtype: v.dtype, shape: v.shape, data: new Float64Array(n) };
    const data = allocTensor(v.dtype, n);
    const lo = Math.max(info.min ?? -128, -128), hi = Math.min(info.max ?? 127, 127);
    for (let i = 0; i < n; i++) {
      const x = int(rng, lo, hi);
      (data as unknown as (number | bigint)[])[i] = typeof data[0] === 'bigint' ? BigInt(x) : x;
    }
    return { dtype: v.dtype, shape: v.shape, data };
  });
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

export function runCase(models: readonly FuzzModel[], index: number, baseSeed = 1, budget?: number): CaseResult {
  const { model, donor, seed } = caseFor(models, index, baseSeed);
  return fuzzOnce(model.onnx, seed, { model: model.name, donor: donor.onnx, donorName: donor.name, inputs: model.inputs, budget });
}

export interface FuzzSummary {
  cases: number;
  ok: number;
  /** Cases ending in a PlaygroundError. */
  errors: number;
  uncaught: number;
  hangs: number;
  ms: number;
  /** ok cases whose interpreter run was skipped for the element budget. */
  overBudget: number;
  byCode: Partial<Record<ErrorCode, number>>;
  byStage: Record<Stage, number>;
  slowestMs: number;
  /** Reproducers of every uncaught exception and hang (and the first over-budget cases). */
  findings: CaseResult[];
}

export function emptySummary(): FuzzSummary {
  return { cases: 0, ok: 0, errors: 0, uncaught: 0, hangs: 0, ms: 0, overBudget: 0, byCode: {},
    byStage: { parse: 0, shapes: 0, interpret: 0 }, slowestMs: 0, findings: [] };
}

/** Adds one case to a summary; `hang` marks a case that was stopped for taking too long. */
export function record(s: FuzzSummary, r: CaseResult, hang = r.outcome === 'hang'): void {
  s.cases++;
  s.slowestMs = Math.max(s.slowestMs, r.ms);
  if (hang) {
    s.hangs++;
    s.findings.push({ ...r, outcome: 'hang', message: r.outcome === 'hang' ? r.message : `took ${r.ms.toFixed(0)} ms (then ${r.outcome})` });
    return;
  }
  s.byStage[r.stage]++;
  if (r.outcome === 'ok') {
    s.ok++;
    if (r.overBudget !== undefined && s.overBudget++ < 3) s.findings.push(r);
  } else if (r.outcome === 'error') {
    s.errors++;
    s.byCode[r.code!] = (s.byCode[r.code!] ?? 0) + 1;
  } else {
    s.uncaught++;
    s.findings.push(r);
  }
}

export function describeCase(r: CaseResult): string {
  const what = r.outcome === 'hang' ? `HANG: ${r.message ?? `ran ${r.ms.toFixed(0)} ms`}` :
    r.outcome === 'uncaught' ? `UNCAUGHT in ${r.stage}: ${r.message}` :
    r.overBudget !== undefined ? `over budget: ${r.overBudget} elements, shape inference did not refuse it` :
    `${r.outcome} (${r.ms.toFixed(0)} ms) ${r.message ?? ''}`;
  return `seed ${r.seed} on ${r.model}${r.donor ? ` (donor ${r.donor})` : ''} [${r.mutation}]: ${what}`;
}
