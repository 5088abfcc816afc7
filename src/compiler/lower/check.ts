// The semantic check: the reference interpreter runs every changed snapshot on the same inputs
// as the parsed graph and counts the output elements that differ (by position, like
// "Errors: E out of T"). Snapshots may have fewer inputs (empty ones dropped) and renamed ones;
// inputPositions() follows each input back to its position in the parsed graph.
//
// Running a 500-node network once per pass is slow, and a pass changes a few nodes. So each
// snapshot is evaluated incrementally against the previous one: a node identical to the
// previous snapshot's node of the same name (op, attributes, inputs, outputs), whose inputs
// hold the same values there, takes its outputs from the previous run; everything else is
// computed with the reference semantics. Reused values are exactly what the node would compute,
// so the result is the same as a full run (src/compiler/lower/check.test.ts checks that).
import { own } from '../../common/own';
import { fail } from '../../common/errors';
import { mulberry32 } from '../fuzz/prng';
import { checkOutputs } from '../interpret/compare';
import type { TensorValue } from '../interpret/interpret';
import { DTYPES } from '../ir/dtype';
import type { Graph, Initializer, Node } from '../ir/graph';
import { initializerToInt, toIntTensor } from '../ops/core/convert';
import { numel, sameShape, type IntTensor } from '../ops/core/tensor';
import { opFor } from '../ops';
import { readAttrs, whereNode } from '../ops/types';
import type { Snapshot } from '../passes/types';
import { analyze } from '../shapes/infer';
import type { InputTyping, SemanticCheck } from './types';

/**
 * For every snapshot, the parsed-graph position of each of its inputs. Passes keep input
 * order: a pass that keeps the count may rename inputs (positions carry over); a pass that
 * drops inputs must not rename the others (they are matched by name).
 */
export function inputPositions(snapshots: readonly Snapshot[]): number[][] {
  const out: number[][] = [snapshots[0].graph.inputs.map((_, i) => i)];
  for (let s = 1; s < snapshots.length; s++) {
    const prev = snapshots[s - 1].graph.inputs, cur = snapshots[s].graph.inputs, pos = out[s - 1];
    if (cur.length === prev.length) out.push([...pos]);
    else out.push(cur.map((v) => {
      const j = prev.findIndex((p) => p.name === v.name);
      if (j < 0) fail('internal', `pass '${snapshots[s].pass}' dropped graph inputs and renamed '${v.name}'`, `pass ${snapshots[s].pass}`);
      return pos[j];
    }));
  }
  return out;
}

/** Seeded random values over each input's integer type (from input typing). */
export function randomInputs(snapshot0: Snapshot, types: readonly InputTyping[], seed = 1): TensorValue[] {
  const rng = mulberry32(seed);
  return snapshot0.graph.inputs.map((v, i) => {
    const t = types.find((x) => x.index === i);
    const d = DTYPES[(t?.dtype ?? 'int8') as keyof typeof DTYPES];
    const lo = d.min ?? -128, hi = d.max ?? 127;
    const data = new Float64Array(numel(v.shape));
    for (let k = 0; k < data.length; k++) data[k] = lo + Math.floor(rng() * (hi - lo + 1));
    return { dtype: 'float64', shape: [...v.shape], data };
  });
}

// ---- incremental evaluation -------------------------------------------------------------------

interface Run {
  graph: Graph;
  nodes: Map<string, Node>;
  values: Map<string, IntTensor>;
}

function sameInit(a: Initializer | undefined, b: Initializer | undefined): boolean {
  if (!a || !b) return false;
  if (a === b || (a.data === b.data && sameShape(a.shape, b.shape))) return true;
  if (!sameShape(a.shape, b.shape) || a.data.byteLength !== b.data.byteLength || a.data.constructor !== b.data.constructor) return false;
  const x = new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength);
  const y = new Uint8Array(b.data.buffer, b.data.byteOffset, b.data.byteLength);
  return x.every((v, i) => v === y[i]);
}

function sameNode(a: Node, b: Node): boolean {
  return a.op === b.op && a.domain === b.domain && a.inputs.length === b.inputs.length
    && a.outputs.join('\u0000') === b.outputs.join('\u0000') && JSON.stringify(a.attrs) === JSON.stringify(b.attrs);
}

function sameValues(a: IntTensor, b: IntTensor): boolean {
  if (a === b) return true;
  if (!sameShape(a.shape, b.shape) || a.data.length !== b.data.length) return false;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) return false;
  return true;
}

/**
 * Evaluates `g` on `inputs`, reusing `prev`'s values for unchanged nodes. Returns the run and
 * the first tensor (in evaluation order) whose value differs from prev's tensor of that name.
 */
function evaluate(g: Graph, inputs: readonly IntTensor[], prev?: Run): { run: Run; firstDifferent?: string } {
  const { graph, constant } = analyze(g);
  const values = new Map<string, IntTensor>();
  const same = new Set<string>(); // tensors holding the same value as prev's tensor of that name
  graph.inputs.forEach((v, i) => {
    values.set(v.name, inputs[i]);
    if (prev?.values.get(v.name) === inputs[i]) same.add(v.name);
  });
  let firstDifferent: string | undefined;
  const valueOf = (name: string, where: string): IntTensor => {
    const v = values.get(name) ?? constant(name) ?? (own(graph.initializers, name) ? initializerToInt(own(graph.initializers, name)!, where) : undefined);
    if (!v) fail('internal', `tensor '${name}' has no value when it is needed`, where);
    return v;
  };
  const inputSame = (name: string): boolean =>
    !name || same.has(name) || (!values.has(name) && sameInit(own(graph.initializers, name), (prev ? own(prev.graph.initializers, name) : undefined)));
  for (const node of graph.nodes) {
    const old = prev?.nodes.get(node.name);
    if (old && sameNode(old, node) && node.inputs.every((t, i) => t === old.inputs[i] && inputSame(t))) {
      for (const o of node.outputs) {
        if (!o) continue;
        values.set(o, prev!.values.get(o)!);
        same.add(o);
      }
      continue;
    }
    const entry = opFor(node);
    const where = whereNode(node);
    const ins = node.inputs.map((n) => (n ? valueOf(n, where) : undefined));
    const outTypes = node.outputs.map((o) => own(graph.types, o)!);
    const opset = graph.opsets.find((o) => (o.domain === 'ai.onnx' ? '' : o.domain) === node.domain)?.version ?? 1;
    const outs = entry.eval({ node, where, attrs: readAttrs(node, entry.attrs, where), inputs: ins, outputs: outTypes, opset });
    node.outputs.forEach((o, i) => {
      if (!o) return;
      values.set(o, outs[i]);
      const was = prev?.values.get(o);
      if (was && sameValues(was, outs[i])) same.add(o);
      else if (was && firstDifferent === undefined) firstDifferent = o;
    });
  }
  // A graph output no node writes (an initializer, found by the fuzzer) has its value too.
  for (const o of graph.outputs) if (!values.has(o.name)) values.set(o.name, valueOf(o.name, `graph output '${o.name}'`));
  return { run: { graph, nodes: new Map(graph.nodes.map((n) => [n.name, n])), values }, firstDifferent };
}

export interface CheckOptions {
  /** Which snapshots to check (default: every changed one). */
  select?: (snapshot: Snapshot, index: number) => boolean;
  onCheck?: (done: number, total: number, pass: string) => void;
  /** Input positions per snapshot, when not derivable from consecutive snapshots (see inputPositions). */
  positions?: number[][];
}

/**
 * One check per selected snapshot: its outputs against the parsed graph's on `inputs`
 * (throws when the parsed graph itself does not run on them).
 * Unselected snapshots between selected ones are evaluated too (incrementally), so every
 * selected one can reuse its predecessor's values.
 */
export function semanticChecks(snapshots: readonly Snapshot[], inputs: readonly TensorValue[], opts: CheckOptions = {}): SemanticCheck[] {
  const select = opts.select ?? ((s: Snapshot) => s.changed);
  const chosen = new Set(snapshots.map((s, i) => (i > 0 && select(s, i) ? i : -1)).filter((i) => i > 0));
  const last = Math.max(0, ...chosen);
  const positions = opts.positions ?? inputPositions(snapshots);
  const ints = inputs.map((t, i) => toIntTensor(t.data, t.shape, `input ${i}`, 'the check inputs', 'bad-inputs'));
  const checks: SemanticCheck[] = [];
  // When the input graph itself does not run on these inputs, this throws: nothing to compare with.
  let prev = evaluate(snapshots[0].graph, ints).run;
  const reference = prev.graph.outputs.map((o) => prev.values.get(o.name)!);
  let done = 0;
  for (let i = 1; i <= last; i++) {
    const s = snapshots[i];
    if (!s.changed && !chosen.has(i)) continue; // an unchanged snapshot is the previous graph
    if (chosen.has(i)) opts.onCheck?.(done++, chosen.size, s.pass);
    try {
      const { run, firstDifferent } = evaluate(s.graph, positions[i].map((p) => ints[p]), prev);
      prev = run;
      if (!chosen.has(i)) continue;
      const got = run.graph.outputs.map((o) => ({ name: o.name, ...run.values.get(o.name)! }));
      const c = checkOutputs(got, reference.map((r, k) => ({ name: snapshots[0].graph.outputs[k]?.name, ...r })), 'the input graph\'s outputs');
      checks.push({ snapshot: i, errors: c.errors, total: c.total, ...(c.errors && firstDifferent ? { firstDifferent } : {}) });
    } catch (e) {
      if (chosen.has(i)) checks.push({ snapshot: i, errors: 0, total: 0, error: (e as Error).message });
      // The next snapshot cannot reuse a failed run: start it from the input graph's values.
      prev = evaluate(snapshots[0].graph, ints).run;
    }
  }
  return checks;
}
