// Kernel binding: every node of the lowered graph is matched against its platform's kernel
// catalogue, in the catalogue's order (specialised and NPU kernels first). The first kernel
// whose requirements all hold is bound; when none fits, the failure names the node and, for
// each candidate kernel, the first capability it lacks.
import { own, put } from '../../common/own';
import type { Graph, Node } from '../ir/graph';
import { initializerToInt } from '../ops/core/convert';
import { lookupOp } from '../ops';
import { readAttrs, whereNode } from '../ops/types';
import type { Binding, BindingFailure } from '../lower/types';
import { intTypeOf, valueRanges, type Range } from '../passes/ranges';
import type { Platform } from '../platforms/types';
import { dt, type KernelSpec, type NodeView, type Operand } from './catalogue';
import { userOpOf } from '../ops/user/session';
import { kernelName, kernelPath } from '../ops/user/kernel';
import type { UserOpSpec } from '../ops/user/spec';

/** A user op's one kernel: the student's, on the platform's user engine, for the declared dtypes. */
function userKernel(spec: UserOpSpec, engine: KernelSpec['engine']): KernelSpec {
  const dtypes = (v: NodeView) => {
    for (const [i, t] of spec.inputs.entries()) {
      const o = v.inputs[i];
      if (o && o.type !== t.dtype) return `input ${i} ('${o.name}') holds ${o.range[0]}..${o.range[1]} (${o.type ?? 'beyond 32 bits'}); the ${spec.op} spec declares ${t.dtype}`;
    }
    return undefined;
  };
  return { op: spec.op, engine, name: () => kernelName(spec), doc: `your ${spec.op} kernel (${kernelPath(spec)}), forked on every core`, needs: [dtypes] };
}

export interface BindOptions {
  /** Value ranges of the graph inputs as the kernels see them (see input typing). */
  inputRanges: Record<string, Range>;
  cores: number;
  wmem: boolean;
  /** Notes for the nodes reading a graph input, by input name (e.g. Generic's input offset). */
  inputNotes?: Record<string, string>;
}

export interface BindResult {
  bindings: Record<string, Binding>;
  failures: BindingFailure[];
}

export function bindGraph(g: Graph, platform: Platform, opts: BindOptions): BindResult {
  const ranges = valueRanges(g, opts.inputRanges);
  const constants = new Map<string, Float64Array>();
  const operand = (name: string): Operand => {
    const init = own(g.initializers, name);
    const isConst = !!init && !g.inputs.some((v) => v.name === name);
    let values: Float64Array | undefined;
    if (isConst) {
      values = constants.get(name);
      if (!values) {
        try {
          values = initializerToInt(init).data;
          constants.set(name, values);
        } catch { /* a float constant: no values */ }
      }
    }
    const range = ranges.get(name) ?? [-Infinity, Infinity];
    return { name, shape: own(g.types, name)?.shape ?? init?.shape ?? [], range, type: intTypeOf(range), constant: isConst, values };
  };
  const bindings: Record<string, Binding> = {};
  const failures: BindingFailure[] = [];
  for (const node of g.nodes) {
    const r = bindNode(node, platform, (n) => view(n, operand, opts));
    if ('kernel' in r) {
      const extra = node.inputs.map((i) => (opts.inputNotes ? own(opts.inputNotes, i) : undefined)).filter((x): x is string => !!x);
      put(bindings, node.name, extra.length ? { ...r, notes: [...(r.notes ?? []), ...extra] } : r);
    } else failures.push(r);
  }
  return { bindings, failures };
}

function view(node: Node, operand: (name: string) => Operand, opts: BindOptions): NodeView {
  const entry = lookupOp(node.domain, node.op);
  const attrs = entry ? (readAttrs(node, entry.attrs, whereNode(node)) as Record<string, unknown>) : {};
  return {
    node, attrs, cores: opts.cores, wmem: opts.wmem,
    // Omitted optional inputs stay in place (as empty constants) so indices match the op's inputs.
    inputs: node.inputs.map((i) => (i ? operand(i) : { name: '', shape: [], range: [0, 0], type: 'int8', constant: true })),
    outputs: node.outputs.filter(Boolean).map(operand),
  };
}

function bindNode(node: Node, platform: Platform, makeView: (n: Node) => NodeView): Binding | BindingFailure {
  // An empty output: nothing to compute, and the tiler and the tiled code assume at least one
  // element (found by the fuzzer: a Slice to [1, 2, 0, 8]). Empty inputs are fine (Generic's
  // Concat takes an empty KV cache).
  const v0 = makeView(node);
  const empty = v0.outputs.find((o) => o.shape.some((d) => d === 0));
  if (empty)
    return { node: node.name, op: node.op, reason: `its output '${empty.name}' [${empty.shape.join(', ')}] is empty, and no kernel computes an empty tensor` };
  const user = userOpOf(node.domain, node.op);
  const candidates = user ? [userKernel(user.spec, platform.userEngine)] : platform.kernels.filter((k) => k.op === node.op);
  if (candidates.length === 0) {
    const engines = platform.engines.map((e) => e.title).join(' / ');
    return { node: node.name, op: node.op, reason: `the ${platform.title} kernel library has no kernel for ${node.op} (${engines})` };
  }
  const v = v0;
  const missing: { text: string; met: number }[] = [];
  for (const k of candidates) {
    const results = k.needs.map((req) => req(v));
    const lack = results.find((m) => m !== undefined);
    if (lack === undefined) {
      const types = `${v.inputs.filter((o) => !o.constant).map(dt).join(', ') || 'no activations'} -> ${v.outputs.map(dt).join(', ')}`;
      const notes = k.notes?.(v);
      return { node: node.name, engine: k.engine, kernel: k.name(v), reason: `${k.doc} (${types})`, ...(notes ? { notes } : {}) };
    }
    missing.push({ text: `${k.name(v)} (${k.engine}): ${lack}`, met: results.findIndex((m) => m !== undefined) });
  }
  // The kernel that got furthest through its requirements first: its missing capability is the one that matters.
  missing.sort((a, b) => b.met - a.met);
  const [best, ...others] = missing;
  const also = others.length ? ` (also tried ${others.map((m) => m.text).join('; ')})` : '';
  return { node: node.name, op: node.op, reason: `no ${platform.title} kernel fits: ${best.text}${also}` };
}
