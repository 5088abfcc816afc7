// The Part III lab's table (tutorial.md Part III, step 7): cycles of the student's own operator in
// the four configurations of LAB_STEPS (1 core untiled, 8 cores untiled, 8 cores tiled at L1
// 32768, the same with a SIMD kernel), each filled by the latest run that matches it: a run of a
// model using a user operator, built from the generated code (no code pane edits), Errors 0, with
// the step's configuration and the step's kind of kernel. Pure; the tutorial store records.
import { DEFAULT_CONFIG, type Config } from '../../compiler/config';
import type { UserOp, UserOpSpec } from '../../compiler/ops/user/spec';
import { LAB_RULE, LAB_STEPS, type LabStep, type LabStepId } from '../../pipeline/lab';
import { configDiff } from './runlog';

export interface LabEntry {
  /** Order of observation (a later run of the same step replaces it). */
  seq: number;
  cycles: number;
  errors: number;
  total: number;
  /** The operator and the model the run was of. */
  op: string;
  model: string;
}

export type LabLog = Record<string, LabEntry>;

/** C text without comments and string literals (what a kernel really uses). */
function code(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ').replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
}

/**
 * Whether a kernel works on packed lanes: it uses GCC vector types or the Xpulp helpers'
 * packed operations (4 int8 or 2 int16 per word), rather than one element at a time.
 */
export function kernelKind(src: string): 'scalar' | 'simd' {
  const c = code(src);
  return /\bvector_size\b|\bv4s\b|\bv4u\b|\bv2s\b|\bv2u\b|__builtin_pulp_|\bdpg_v4\w*|\bdpg_\w*(?:4|_v\d)\w*\s*\(/.test(c) ? 'simd' : 'scalar';
}

/** The configuration a lab step runs with (the CLI's `dpg lab` sets the same on its defaults). */
export function labConfig(step: LabStep): Config {
  return { ...DEFAULT_CONFIG, platform: 'siracusa', ...step.config };
}

/** Whether a spec has the lab's tiling rule (the innermost tile dimension a multiple of 16). */
export function hasLabRule(spec: UserOpSpec, rank = 4): boolean {
  return spec.tiling.some((r) => (r.axis === LAB_RULE.axis || r.axis === rank + LAB_RULE.axis) && r.multiple === LAB_RULE.multiple);
}

/**
 * The lab step a finished run counts for, if any: its configuration (as the compile used it),
 * its kernel's kind and, for the step that adds it, the tiling rule match the step.
 */
export function labStepOf(config: Config, op: UserOp): LabStepId | undefined {
  const kind = kernelKind(op.kernel);
  return LAB_STEPS.find((s) => s.kernel === kind && (!s.rule || hasLabRule(op.spec)) && configDiff(config, labConfig(s)).length === 0)?.id;
}

/** The user op a compiled model uses (the first of the compile's ops that is one of its graph's op types). */
export function usedOp(ops: readonly UserOp[] | null | undefined, opTypes: ReadonlySet<string>): UserOp | undefined {
  return ops?.find((o) => opTypes.has(o.spec.op));
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The stored lab log; empty when missing or malformed in any part. */
export function parseLab(text: string | null | undefined): LabLog {
  if (!text) return {};
  let v: unknown;
  try { v = JSON.parse(text); } catch { return {}; }
  if (!isObj(v) || v.v !== 1 || !isObj(v.rows)) return {};
  const out: LabLog = {};
  for (const [id, e] of Object.entries(v.rows)) {
    if (!LAB_STEPS.some((s) => s.id === id) || !isObj(e)) return {};
    if (!['seq', 'cycles', 'errors', 'total'].every((k) => isNum(e[k])) || typeof e.op !== 'string' || typeof e.model !== 'string'
      || e.op.length > 64 || e.model.length > 200) return {};
    out[id] = { seq: e.seq as number, cycles: e.cycles as number, errors: e.errors as number, total: e.total as number, op: e.op, model: e.model };
  }
  return out;
}

export function serialiseLab(lab: LabLog): string {
  return JSON.stringify({ v: 1, rows: lab });
}
