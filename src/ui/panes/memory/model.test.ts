import { describe, expect, it } from 'vitest';
import type { Buffer, LevelPlan, TilePlan } from '../../../compiler/tiling/types';
import { brushRange, buffersOfNode, describeBuffer, LANE_H, laneRects, laneTop, zoom } from './model';

const b = (id: string, offset: number, bytes: number, start: number, end: number, extra: Partial<Buffer> = {}): Buffer =>
  ({ id, level: 'L1', offset, bytes, start, end, role: 'input', tensor: id, shape: [bytes], copies: 1, ...extra });
const level = (buffers: Buffer[], capacity = 100): LevelPlan =>
  ({ name: 'L1', capacity, used: Math.max(...buffers.map((x) => x.offset + x.bytes)), buffers, allocator: '', lowerBound: 0 });

describe('memory pane model', () => {
  it('places buffers by step (x) and address (y, 0 at the bottom), clipped to the view', () => {
    const l = level([b('a', 0, 50, 0, 2), b('b', 50, 50, 2, 4), b('c', 0, 10, 6, 8)]);
    const r = laneRects(l, { from: 1, to: 5 });
    expect(r.map((x) => x.buffer.id)).toEqual(['a', 'b']);
    expect(r[0]).toMatchObject({ x: 0, w: 250, y: LANE_H / 2, h: LANE_H / 2 });
    expect(r[1]).toMatchObject({ x: 250, w: 500, y: 0, h: LANE_H / 2 });
  });
  it('scales a mostly empty level to its use, a full one to its capacity', () => {
    expect(laneTop(level([b('a', 0, 60, 0, 1)], 100))).toBe(100);
    expect(laneTop(level([b('a', 0, 10, 0, 1)], 1000))).toBe(13);
  });
  it('zooms around the pointer and brushes a range, within the run', () => {
    expect(zoom({ from: 0, to: 100 }, 100, 0.5, 0.5)).toEqual({ from: 25, to: 75 });
    expect(zoom({ from: 0, to: 100 }, 100, 2, 0.5)).toEqual({ from: 0, to: 100 });
    expect(brushRange(0.5, 0.25, 200)).toEqual({ from: 50, to: 100 });
    expect(brushRange(0.3, 0.3, 10).to - brushRange(0.3, 0.3, 10).from).toBe(1);
  });
  it('describes a buffer and finds the buffers of a node', () => {
    const plan = {
      layers: [{ node: 'conv', start: 0, count: 3 }, { node: 'add', start: 3, count: 1 }],
      levels: [level([b('L1:conv:in0', 0, 40, 0, 3, { node: 'conv', tensor: 'x', shape: [1, 4, 10], copies: 2 }), b('L2:y', 0, 40, 0, 4, { role: 'activation', tensor: 'y' })])],
    } as unknown as TilePlan;
    const lines = describeBuffer(plan.levels[0].buffers[0], plan);
    expect(lines).toEqual(['x', 'input in L1 at 0x0, 40 B (2 copies: double-buffered)', 'tile 1x4x10', 'lives steps 0..2 (conv)']);
    expect([...buffersOfNode(plan, 'add', ['y'], ['z'])]).toEqual(['L2:y']);
  });
});
