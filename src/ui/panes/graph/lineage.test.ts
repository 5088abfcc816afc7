import { describe, expect, it } from 'vitest';
import type { Graph, Node } from '../../../compiler/ir/graph';
import { runPasses } from '../../../compiler/passes/manager';
import type { Pass } from '../../../compiler/passes/types';
import { compareSnapshots, relate } from './lineage';
import { INITIAL_GRAPH_STATE, resolveSides, shownPasses, stepRight } from './state';

const node = (name: string, op: string, inputs: string[], outputs: string[]): Node =>
  ({ name, op, domain: '', inputs, outputs, attrs: {} });

/** x -> Conv -> RequantShift -> Relu -> y */
const input: Graph = {
  name: 'toy', inputs: [{ name: 'x', dtype: 'int8', shape: [1, 4] }], outputs: [{ name: 'y', dtype: 'int8', shape: [1, 4] }],
  initializers: {}, types: {}, opsets: [{ domain: '', version: 13 }],
  nodes: [node('conv', 'Conv', ['x'], ['a']), node('rqs', 'RequantShift', ['a'], ['b']), node('relu', 'Relu', ['b'], ['y'])],
};

// Toy passes for the test only: a fusion, a pass that changes nothing, an inserted node, a deletion.
const fuse: Pass = {
  name: 'fuse', doc: '', run(g, ctx) {
    ctx.derive('rqconv', ['conv', 'rqs']);
    return { ...g, nodes: [node('rqconv', 'RequantizedConv', ['x'], ['b']), ...g.nodes.slice(2)] };
  },
};
const nothing: Pass = { name: 'nothing', doc: '', run: (g) => g };
const transpose: Pass = {
  name: 'transpose', doc: '', run(g, ctx) {
    ctx.derive('tr', ['rqconv']);
    return { ...g, nodes: [node('tr', 'Transpose', ['x'], ['xt']), { ...g.nodes[0]!, inputs: ['xt'] }, ...g.nodes.slice(1)] };
  },
};
const dropRelu: Pass = {
  name: 'drop-relu', doc: '', run(g) {
    return { ...g, nodes: g.nodes.filter((n) => n.op !== 'Relu').map((n) => (n.name === 'rqconv' ? { ...n, outputs: ['y'] } : n)) };
  },
};

const snaps = runPasses(input, [fuse, nothing, transpose, dropRelu]);

describe('lineage', () => {
  it('follows origins over several passes, both ways', () => {
    expect(relate(snaps, 3, ['rqconv'], 0).sort()).toEqual(['conv', 'rqs']);
    expect(relate(snaps, 3, ['tr'], 0).sort()).toEqual(['conv', 'rqs']);
    expect(relate(snaps, 0, ['rqs'], 3).sort()).toEqual(['rqconv', 'tr']);
    expect(relate(snaps, 0, ['relu'], 4)).toEqual([]);
    expect(relate(snaps, 2, ['relu'], 2)).toEqual(['relu']);
    expect(relate(snaps, 3, ['tr'], 1)).toEqual(['rqconv']);
  });

  it('colours fused, added, changed and removed nodes relative to the other side', () => {
    const fused = compareSnapshots(snaps, 0, 1);
    expect(fused.newer.get('rqconv')).toBe('fused');
    expect(fused.newer.get('relu')).toBe('same');
    expect(fused.older.get('conv')).toBe('fused');
    expect(fused.older.get('rqs')).toBe('fused');
    const inserted = compareSnapshots(snaps, 2, 3);
    expect(inserted.newer.get('tr')).toBe('added');
    expect(inserted.newer.get('rqconv')).toBe('changed');
    expect(inserted.older.get('rqconv')).toBe('changed');
    const dropped = compareSnapshots(snaps, 3, 4);
    expect(dropped.older.get('relu')).toBe('removed');
    const far = compareSnapshots(snaps, 0, 4);
    expect(far.newer.get('tr')).toBe('added'); // inserted by a later pass than the fusion
    expect(far.newer.get('rqconv')).toBe('fused');
    expect(far.older.get('conv')).toBe('fused');
    expect(far.older.get('relu')).toBe('removed');
  });
});

describe('stepping through passes', () => {
  const passes = snaps.map((s) => ({ changed: s.changed }));
  it('knows which passes changed nothing', () => {
    expect(passes.map((p) => p.changed)).toEqual([false, true, false, true, true]);
    expect(shownPasses(passes, true)).toEqual([0, 1, 3, 4]);
  });
  it('shows the last pass against the one before by default', () => {
    expect(resolveSides(INITIAL_GRAPH_STATE, passes)).toEqual({ left: 3, right: 4 });
  });
  it('skips hidden passes, on the left side too', () => {
    const s = { ...INITIAL_GRAPH_STATE, hideUnchanged: true, right: 1 };
    expect(stepRight(s, passes, +1)).toBe(3);
    expect(resolveSides({ ...s, right: 3 }, passes)).toEqual({ left: 1, right: 3 });
    expect(stepRight({ ...s, right: 0 }, passes, -1)).toBe(0);
    expect(stepRight({ ...s, right: 4 }, passes, +1)).toBe(4);
    expect(resolveSides({ ...INITIAL_GRAPH_STATE, right: 3 }, passes)).toEqual({ left: 2, right: 3 });
  });
  it('opens a compile on the input against the final graph, until a pass is picked', () => {
    const open = { ...INITIAL_GRAPH_STATE, overview: true };
    expect(resolveSides(open, passes)).toEqual({ left: 0, right: 4 });
    const tail = [...passes, { changed: false }];
    expect(resolveSides({ ...open, hideUnchanged: true }, tail)).toEqual({ left: 0, right: 4 });
    expect(resolveSides({ ...open, overview: false, right: 3 }, passes)).toEqual({ left: 2, right: 3 });
  });
  it('keeps a pinned left side', () => {
    expect(resolveSides({ ...INITIAL_GRAPH_STATE, left: 0, right: 2 }, passes)).toEqual({ left: 0, right: 2 });
    expect(resolveSides({ ...INITIAL_GRAPH_STATE, left: 9 }, passes)).toEqual({ left: 4, right: 4 });
  });
});
