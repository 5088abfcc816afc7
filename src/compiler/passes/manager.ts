// Runs a platform's pass list and records a snapshot after every pass, with provenance.
import { own, put } from '../../common/own';
import { fail } from '../../common/errors';
import type { Graph } from '../ir/graph';
import type { TensorValue } from '../interpret/interpret';
import type { Pass, PassContext, Snapshot } from './types';

export interface RunOptions {
  /** inputs.npz values for the input graph (see PassContext.inputs). */
  inputs?: readonly TensorValue[];
}

export function runPasses(input: Graph, passes: readonly Pass[],
  onPass?: (done: number, total: number, name: string) => void, opts: RunOptions = {}): Snapshot[] {
  const snaps: Snapshot[] = [{
    pass: 'input', doc: 'The graph as parsed from the ONNX file.', graph: input, changed: false,
    origin: Object.fromEntries(input.nodes.map((n) => [n.name, [n.name]])), removed: [], ms: 0,
  }];
  let g = input;
  passes.forEach((pass, i) => {
    onPass?.(i, passes.length, pass.name);
    const t0 = performance.now();
    const derived: Record<string, string[]> = {};
    const ctx = makeContext(g, derived, opts.inputs);
    const out = pass.run(g, ctx);
    const ms = performance.now() - t0;
    snaps.push({ pass: pass.name, doc: pass.doc, graph: out, changed: out !== g && !sameGraph(g, out), ...provenance(g, out, derived, pass.name), ms });
    g = out;
  });
  return snaps;
}

function makeContext(g: Graph, derived: Record<string, string[]>, inputs?: readonly TensorValue[]): PassContext {
  const used = new Set<string>([...g.nodes.map((n) => n.name), ...Object.keys(g.initializers), ...Object.keys(g.types),
    ...g.inputs.map((v) => v.name), ...g.outputs.map((v) => v.name), ...g.nodes.flatMap((n) => n.outputs)]);
  return {
    inputs,
    fresh(base) {
      let name = base;
      for (let k = 1; used.has(name); k++) name = `${base}_${k}`;
      used.add(name);
      return name;
    },
    derive(name, sources) {
      put(derived, name, [...new Set([...(own(derived, name) ?? []), ...sources])]);
    },
  };
}

function provenance(before: Graph, after: Graph, derived: Record<string, string[]>, pass: string) {
  const old = new Set(before.nodes.map((n) => n.name));
  const origin: Record<string, string[]> = {};
  for (const n of after.nodes) {
    const from = own(derived, n.name) ?? (old.has(n.name) ? [n.name] : undefined);
    if (!from) fail('internal', `pass '${pass}' created node '${n.name}' without declaring what it came from`, `pass ${pass}`);
    for (const s of from) if (!old.has(s)) fail('internal', `pass '${pass}' derived '${n.name}' from unknown node '${s}'`, `pass ${pass}`);
    put(origin, n.name, from);
  }
  const used = new Set(Object.values(origin).flat());
  return { origin, removed: before.nodes.filter((n) => !used.has(n.name)).map((n) => n.name) };
}

/** Structural equality: same nodes (op, I/O, attributes), same constants (by identity or bytes), same I/O. */
export function sameGraph(a: Graph, b: Graph): boolean {
  if (a === b) return true;
  if (a.nodes.length !== b.nodes.length) return false;
  const key = (g: Graph) => JSON.stringify({
    n: g.nodes.map((n) => [n.name, n.op, n.domain, n.inputs, n.outputs, attrKey(n.attrs)]),
    i: g.inputs, o: g.outputs,
    c: Object.values(g.initializers).map((t) => [t.name, t.dtype, t.shape]).sort(),
  });
  if (key(a) !== key(b)) return false;
  for (const [name, t] of Object.entries(a.initializers)) {
    const u = own(b.initializers, name)!;
    if (t.data === u.data) continue;
    const x = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    const y = new Uint8Array(u.data.buffer, u.data.byteOffset, u.data.byteLength);
    if (x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
  }
  return true;
}

function attrKey(attrs: Graph['nodes'][number]['attrs']): unknown {
  return Object.entries(attrs).sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([k, a]) => [k, a.kind, a.kind === 'tensor' ? [a.value.dtype, a.value.shape, Array.from(a.value.data as ArrayLike<number>, Number)] : a.value]);
}
