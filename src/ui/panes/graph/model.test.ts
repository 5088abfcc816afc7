import { describe, expect, it } from 'vitest';
import type { Graph } from '../../../compiler/ir/graph';
import { INPUT_PREFIX, OUTPUT_PREFIX, graphView, layoutKey, shortName } from './model';
import { basisPath } from './path';

const g: Graph = {
  name: 'g', opsets: [], initializers: { w: { name: 'w', dtype: 'int8', shape: [4], data: new Int8Array(4) } },
  inputs: [{ name: 'x', dtype: 'int8', shape: [1, 4] }], outputs: [{ name: 'y', dtype: 'int8', shape: [1, 4] }],
  types: { x: { dtype: 'int8', shape: [1, 4] }, a: { dtype: 'int8', shape: [1, 4] }, y: { dtype: 'int8', shape: [1, 4] } },
  nodes: [
    { name: 'relu', op: 'Relu', domain: '', inputs: ['x'], outputs: ['a'], attrs: {} },
    { name: 'add', op: 'Add', domain: '', inputs: ['a', 'a', 'w', ''], outputs: ['y'], attrs: {} },
  ],
};

describe('graph view', () => {
  it('has a box per node and per graph input and output, and one arrow per producer and consumer', () => {
    const v = graphView(g);
    expect(v.boxes.map((b) => b.id)).toEqual([INPUT_PREFIX + 'x', 'relu', 'add', OUTPUT_PREFIX + 'y']);
    expect(v.arrows.map((a) => [a.from, a.to, a.tensors.map((t) => t.name)])).toEqual([
      [INPUT_PREFIX + 'x', 'relu', ['x']], ['relu', 'add', ['a']], ['add', OUTPUT_PREFIX + 'y', ['y']],
    ]);
    expect(v.arrows[1]!.tensors[0]!.type).toEqual({ dtype: 'int8', shape: [1, 4] });
    expect(v.index.get('add')).toBe(2);
  });
  it('sizes boxes to their labels and keys them by structure', () => {
    const v = graphView(g);
    expect(v.boxes[1]!.width).toBeGreaterThanOrEqual(72);
    expect(layoutKey(v)).toBe(layoutKey(graphView({ ...g, types: {} })));
    expect(layoutKey(v)).not.toBe(layoutKey(graphView({ ...g, nodes: g.nodes.slice(0, 1) })));
    expect(shortName('a'.repeat(40))).toHaveLength(26);
    expect(shortName('a'.repeat(40)).startsWith('\u2026')).toBe(true);
  });
  it('draws routes as B-splines', () => {
    expect(basisPath([0, 0, 10, 10])).toBe('M0,0L10,10');
    expect(basisPath([0, 0, 6, 6, 12, 0])).toBe('M0,0L1,1C2,2,4,4,6,4C8,4,10,2,11,1L12,0') // as d3.curveBasis;
  });
});
