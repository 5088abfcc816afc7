import { describe, expect, it } from 'vitest';
import { interpret } from '../interpret/interpret';
import { definePass } from '../passes/define';
import { runPasses } from '../passes/manager';
import { at, GraphBuilder, randomInputs } from '../passes/testing';
import { platformFor } from '../platforms';
import { inputPositions, semanticChecks } from './check';
import { checkOutputs } from '../interpret/compare';

/** A small transformer-ish block: linear layers, a residual Add, a softmax. */
function block() {
  const b = new GraphBuilder();
  const x = b.input('x', [1, 4, 8]), cache = b.input('cache', [1, 4, 0, 8]);
  const q = b.requant(b.node('Add', [b.node('MatMul', [x, b.init('wq', [8, 8])]), b.init('bq', [8])]), 8);
  const k = b.requant(b.node('MatMul', [x, b.init('wk', [8, 8])]), 8);
  const kk = b.node('Concat', [cache, b.node('Reshape', [k, b.init('s', [4], [1, 4, 1, 8], 'int64')])], { axis: at.int(2) });
  const s = b.requant(b.node('MatMul', [q, b.node('Transpose', [b.node('Reshape', [kk, b.init('s2', [3], [1, 4, 8], 'int64')])], { perm: at.ints([0, 2, 1]) })]), 10);
  const p = b.node('iSoftmax', [s], { coeffA: at.int(1), coeffB: at.int(64), coeffC: at.int(2136), log2: at.int(47), n_levels: at.int(256) });
  const r = b.requant(b.node('Add', [b.requant(b.node('Relu', [x]), 2), b.requant(b.node('MatMul', [b.requant(p, 8), q]), 8)]), 1);
  b.output(r);
  return b.build();
}

const full = (snaps: ReturnType<typeof runPasses>, inputs: ReturnType<typeof randomInputs>) => {
  const pos = inputPositions(snaps);
  const ref = interpret(snaps[0].graph, inputs);
  return snaps.map((s, i) => (i === 0 || !s.changed ? null : checkOutputs(interpret(s.graph, pos[i].map((p) => inputs[p])), ref).errors));
};

describe('semantic check', () => {
  it('matches full reruns of every snapshot, with dropped inputs mapped by position', () => {
    const g = block();
    const snaps = runPasses(g, platformFor('siracusa-neureka').passes);
    const inputs = randomInputs(g, 5);
    const checks = semanticChecks(snaps, inputs);
    expect(checks.length).toBeGreaterThan(5);
    expect(snaps.at(-1)!.graph.inputs).toHaveLength(1); // the empty cache was dropped
    const want = full(snaps, inputs);
    for (const c of checks) expect(c.errors, snaps[c.snapshot].pass).toBe(want[c.snapshot]);
    expect(checks.every((c) => c.errors === 0 && !c.error)).toBe(true);
  });

  it('catches a pass that changes the outputs and names the first tensor it changed', () => {
    const g = block();
    const broken = definePass({
      name: 'broken', doc: 'changes a requant add',
      rewrite(ed) {
        const n = [...ed.each()].find((x) => x.op === 'RequantizedAdd')!;
        ed.update(n, { attrs: { ...n.attrs, rqsOut_add: { kind: 'int', value: 3 } } });
      },
    });
    const passes = [...platformFor('siracusa').passes];
    passes.splice(passes.findIndex((p) => p.name === 'fuse-add-requants') + 1, 0, broken);
    const snaps = runPasses(g, passes);
    const inputs = randomInputs(g, 5, -128, 127);
    const checks = semanticChecks(snaps, inputs);
    const at = checks.find((c) => snaps[c.snapshot].pass === 'broken')!;
    expect(at.errors).toBeGreaterThan(0);
    expect(at.firstDifferent).toBe('output_0'); // the RequantizedAdd writes the (renamed) graph output
    const want = full(snaps, inputs);
    for (const c of checks) expect(c.errors).toBe(want[c.snapshot]);
    expect(checks.filter((c) => snaps[c.snapshot].pass !== 'broken' && c.errors > 0).every((c) => c.snapshot > at.snapshot)).toBe(true);
  });

  it('checks a graph output that is an initializer (found by the fuzzer)', () => {
    const b = new GraphBuilder();
    const x = b.input('x', [1, 8]);
    b.output(b.requant(b.node('MatMul', [x, b.init('w', [8, 4])]), 8));
    b.output(b.init('offset', [4]));
    const g = b.build();
    const snaps = runPasses(g, platformFor('siracusa').passes);
    const checks = semanticChecks(snaps, randomInputs(g, 3));
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.filter((c) => c.error || c.errors)).toEqual([]);
    expect(checks.every((c) => c.total === 8)).toBe(true);
  });
});
