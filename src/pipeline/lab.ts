// The new-operator lab (tutorial Part III): its test, its four measured steps and the table of
// cycles per step, shared by the CLI (`dpg lab`) and the app's tutorial track. The GVSoC
// figures are the tutorial's (shared/reference/siracusa.md), printed beside ours.
import type { Config } from '../compiler/config';
import type { OpTestOptions } from '../compiler/ops/user/maketest';
import type { UserOpSpec, UserTileRule } from '../compiler/ops/user/spec';

export type LabStepId = 'one-core' | 'eight-cores' | 'tiled' | 'simd';

export interface LabStep {
  id: LabStepId;
  title: string;
  /** What the step sets on top of the lab's base configuration. */
  config: Pick<Config, 'cores' | 'tiled'> & Partial<Pick<Config, 'l1'>>;
  kernel: 'scalar' | 'simd';
  /** The step adds the lab's tiling rule (the innermost tile dimension a multiple of 16). */
  rule: boolean;
  /** The tutorial's GVSoC cycles for the step. */
  gvsoc: number;
}

/** The tiling rule of step 6a: each core's share of a tile a multiple of 4 lanes. */
export const LAB_RULE: UserTileRule = { axis: -1, multiple: 16 };

export const LAB_STEPS: readonly LabStep[] = [
  { id: 'one-core', title: '1 core, untiled', config: { cores: 1, tiled: false }, kernel: 'scalar', rule: false, gvsoc: 2_492_970 },
  { id: 'eight-cores', title: '8 cores, untiled', config: { cores: 8, tiled: false }, kernel: 'scalar', rule: false, gvsoc: 313_541 },
  { id: 'tiled', title: '8 cores, tiled (L1 32768)', config: { cores: 8, tiled: true, l1: 32768 }, kernel: 'scalar', rule: false, gvsoc: 108_090 },
  { id: 'simd', title: '+ SIMD (innermost tile a multiple of 16)', config: { cores: 8, tiled: true, l1: 32768 }, kernel: 'simd', rule: true, gvsoc: 43_005 },
];

/** The lab's one-node test: input (1, 16, 64, 64) uniform over int8, mul 1, shift 3. */
export const LAB_TEST: OpTestOptions = { shapes: [[1, 16, 64, 64]], attrs: { mul: 1, shift: 3 }, seed: 2026 };

/** The spec a step compiles with: the student's, plus the lab rule where the step adds it. */
export function labSpec(spec: UserOpSpec, step: LabStep): UserOpSpec {
  const has = spec.tiling.some((r) => r.axis === LAB_RULE.axis && r.multiple === LAB_RULE.multiple);
  return step.rule && !has ? { ...spec, tiling: [...spec.tiling, LAB_RULE] } : spec;
}

export interface LabRow {
  step: LabStep;
  cycles: number;
  /** Against the 1-core untiled run, and against the previous step (when both were measured). */
  speedup?: number;
  stepSpeedup?: number;
  /** Ours / GVSoC. */
  vsGvsoc: number;
}

/** The table of the steps measured so far (cycles by step id), in lab order. */
export function labTable(cycles: Partial<Record<LabStepId, number>>): LabRow[] {
  const base = cycles['one-core'];
  const rows: LabRow[] = [];
  LAB_STEPS.forEach((step, i) => {
    const c = cycles[step.id];
    if (c === undefined) return;
    const prev = i > 0 ? cycles[LAB_STEPS[i - 1].id] : undefined;
    rows.push({ step, cycles: c, speedup: base !== undefined ? base / c : undefined, stepSpeedup: prev !== undefined ? prev / c : undefined, vsGvsoc: c / step.gvsoc });
  });
  return rows;
}

/** The table as text (the CLI prints it). */
export function labTableText(rows: readonly LabRow[]): string {
  const x = (v?: number) => (v === undefined ? '-' : `${v.toFixed(2)}x`);
  const head = ['step', 'cycles', 'vs 1 core', 'vs previous', 'GVSoC', 'GVSoC speedup', 'ours / GVSoC'];
  const base = LAB_STEPS[0].gvsoc;
  const body = rows.map((r) => [r.step.title, r.cycles.toLocaleString('en-US'), x(r.speedup), x(r.stepSpeedup), r.step.gvsoc.toLocaleString('en-US'),
    x(base / r.step.gvsoc), r.vsGvsoc.toFixed(2)]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ');
  return [line(head), ...body.map(line)].join('\n');
}
