// The memory pane's pure part: which buffers a view of the timeline shows and where, the step
// range after a zoom or a brush, and the words of a buffer's tooltip. No DOM, tested directly.
import type { Buffer, LayerSteps, LevelPlan, TilePlan } from '../../../compiler/tiling/types';

/** A window on the timeline, in steps: [from, to). */
export interface StepRange {
  from: number;
  to: number;
}

export interface Rect {
  buffer: Buffer;
  /** In the lane's own units: x in [0, 1000], y in [0, 100] with address 0 at the bottom. */
  x: number;
  y: number;
  w: number;
  h: number;
}

export const LANE_W = 1000;
export const LANE_H = 100;

/**
 * The address range a lane shows: up to its capacity (or beyond, when the plan overflows it);
 * a level that is mostly empty (L2 holding a small network) is shown up to a bit above its
 * use instead, so its buffers stay visible; the capacity is then off the chart.
 */
export const laneTop = (l: LevelPlan) =>
  l.used >= l.capacity / 2 ? Math.max(l.capacity, l.used, 1) : Math.max(1, Math.ceil(l.used * 1.25));

export function laneRects(level: LevelPlan, range: StepRange): Rect[] {
  const span = Math.max(1e-9, range.to - range.from);
  const top = laneTop(level);
  const rects: Rect[] = [];
  for (const b of level.buffers) {
    if (b.end <= range.from || b.start >= range.to || b.bytes === 0) continue;
    const s = Math.max(b.start, range.from), e = Math.min(b.end, range.to);
    rects.push({
      buffer: b,
      x: ((s - range.from) / span) * LANE_W,
      w: Math.max(0.5, ((e - s) / span) * LANE_W),
      y: LANE_H - ((b.offset + b.bytes) / top) * LANE_H,
      h: Math.max(0.3, (b.bytes / top) * LANE_H),
    });
  }
  return rects;
}

/** Zooms by `factor` (< 1 zooms in) around the step at fraction `at` of the view; clamped to [0, total]. */
export function zoom(r: StepRange, total: number, factor: number, at: number): StepRange {
  const span = r.to - r.from;
  const next = Math.min(total, Math.max(1, span * factor));
  const pivot = r.from + at * span;
  let from = pivot - at * next;
  from = Math.max(0, Math.min(total - next, from));
  return { from, to: from + next };
}

/** The range a brush from fraction a to b of the whole timeline selects (at least one step). */
export function brushRange(a: number, b: number, total: number): StepRange {
  let from = Math.max(0, Math.min(a, b)) * total, to = Math.min(1, Math.max(a, b)) * total;
  if (to - from < 1) { const mid = (from + to) / 2; from = Math.max(0, mid - 0.5); to = Math.min(total, from + 1); }
  return { from, to };
}

export function layerOfStep(layers: readonly LayerSteps[], step: number): LayerSteps | undefined {
  return layers.find((l) => l.count > 0 && step >= l.start && step < l.start + l.count);
}

const kb = (n: number) => (n >= 10240 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);

/** The tooltip's lines for a buffer. */
export function describeBuffer(b: Buffer, plan: TilePlan): string[] {
  const first = layerOfStep(plan.layers, b.start)?.node;
  const last = layerOfStep(plan.layers, b.end - 1)?.node;
  const lines = [
    `${b.tensor}${b.role === 'scratch' ? ' (scratch)' : ''}`,
    `${b.role} in ${b.level} at 0x${b.offset.toString(16)}, ${kb(b.bytes)}${b.copies === 2 ? ' (2 copies: double-buffered)' : ''}`,
    `${b.role === 'constant' || b.role === 'activation' ? 'shape' : 'tile'} ${b.shape.join('x')}`,
    `lives steps ${b.start}..${b.end - 1}${first ? ` (${first === last ? first : `${first} .. ${last}`})` : ''}`,
  ];
  if (b.aliases?.length) lines.push(`also holds ${b.aliases.join(', ')} (reshapes)`);
  return lines;
}

/** Buffers that belong to a node: its tiles in L1, its output and its operands at home. */
export function buffersOfNode(plan: TilePlan, node: string, inputs: readonly string[], outputs: readonly string[]): Set<string> {
  const mine = new Set<string>();
  const tensors = new Set([...inputs, ...outputs]);
  for (const l of plan.levels) for (const b of l.buffers)
    if (b.node === node || tensors.has(b.tensor) || b.aliases?.some((a) => tensors.has(a))) mine.add(b.id);
  return mine;
}
