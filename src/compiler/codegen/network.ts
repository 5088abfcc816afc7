// Assembles the network program: Network.h / Network.c (a fork body per layer, RunNetwork
// calling them in order), the constants in Network_weights.{h,c}, and every layer's line
// ranges for the code pane. Layers come from the emitters; this file only lays them out.
import { fail } from '../../common/errors';
import type { Graph } from '../ir/graph';
import type { LowerResult } from '../lower/types';
import { lookupOp } from '../ops';
import { numel } from '../ops/core/tensor';
import { readAttrs, whereNode } from '../ops/types';
import type { IntType } from '../passes/ranges';
import type { Platform } from '../platforms/types';
import { arrayDecl, BYTES, C_TYPE, checkFits, ident } from './ctypes';
import { emitterFor } from './emit';
import type { EmitSink, LayerSpec } from './emit/types';
import type { TensorInfo, TensorTable } from './tensors';
import type { BufferInfo, GeneratedFile, LayerCode, LineRange } from './types';

/** Cores a layer on `engine` is forked on: the configured count, at most what the engine has. */
export function coresFor(platform: Platform, engine: string, configured: number): number {
  const e = platform.engines.find((x) => x.name === engine);
  return Math.max(1, Math.min(configured, e?.cores ?? 1));
}

export const shapeStr = (t: TensorInfo) => `[${t.shape.join(',')}] ${t.type}${t.offset ? ` (shifted by ${t.offset})` : ''}`;

/** The weights: one const array per (constant, element type), in Network_weights.c. */
export class Weights {
  readonly decls: string[] = [];
  readonly externs: string[] = [];
  readonly buffers: BufferInfo[] = [];
  private ids = new Map<string, string>();
  private used = new Set<string>();

  add(values: ArrayLike<number>, type: IntType, name: string, where: string): string {
    const key = `${name}\u0000${type}`;
    const known = this.ids.get(key);
    if (known) return known;
    checkFits(values, type, `constant '${name}'`, where);
    let id = `w_${ident(name)}`;
    if (this.used.has(id)) id = `${id}_${type}`;
    for (let k = 2; this.used.has(id); k++) id = `w_${ident(name)}_${k}`;
    this.used.add(id);
    this.ids.set(key, id);
    this.decls.push(arrayDecl('HAL_L2 const ', C_TYPE[type], id, values));
    this.externs.push(`extern const ${C_TYPE[type]} ${id}[${Math.max(1, values.length)}];`);
    this.buffers.push({ name: id, tensors: [name], ctype: C_TYPE[type], bytes: values.length * BYTES[type], role: 'constant' });
    return id;
  }
}

export interface NetworkCode {
  files: GeneratedFile[];
  layers: LayerCode[];
  buffers: BufferInfo[];
}

export function networkFiles(lower: LowerResult, graph: Graph, table: TensorTable, platform: Platform, configuredCores: number): NetworkCode {
  const weights = new Weights();
  const buffers: BufferInfo[] = [];
  const isIn = new Set(graph.inputs.map((v) => v.name)), isOut = new Set(graph.outputs.map((v) => v.name));

  // Activation buffers: every computed tensor that is not an alias or a constant.
  const bufferDecls: string[] = [];
  const owners = new Map<string, string[]>();
  for (const t of table.values()) {
    if (t.constant) continue;
    const own = t.aliasOf ?? t.name;
    owners.set(own, [...(owners.get(own) ?? []), t.name]);
  }
  for (const [own, tensors] of owners) {
    const t = table.get(own)!;
    const n = numel(t.shape);
    const role = isIn.has(own) ? 'input' : tensors.some((x) => isOut.has(x)) ? 'output' : 'activation';
    bufferDecls.push(`HAL_L2 static ${C_TYPE[t.type]} buf_${t.buffer}[${Math.max(1, n)}]; /* ${tensors.join(', ')}: ${shapeStr(t)} */`);
    buffers.push({ name: `buf_${t.buffer}`, tensors, ctype: C_TYPE[t.type], bytes: n * BYTES[t.type], role });
  }

  const dataOf = (t: TensorInfo, where: string) => (t.constant ? weights.add(t.values!, t.type, t.name, where) : `buf_${t.buffer}`);

  // Layers.
  interface Block { node: string; lines: string[]; run: string[]; layer: Omit<LayerCode, 'ranges'> }
  const blocks: Block[] = [];
  let maxCores = 1;
  graph.nodes.forEach((node, k) => {
    const binding = lower.bindings[node.name];
    const where = whereNode(node);
    if (!binding) fail('internal', 'the node has no kernel binding', where);
    const entry = lookupOp(node.domain, node.op);
    const attrs = entry ? (readAttrs(node, entry.attrs, where) as Record<string, unknown>) : {};
    const cores = coresFor(platform, binding.engine, configuredCores);
    const id = `L${k}`;
    const spec: LayerSpec = {
      node, binding, attrs, where, id, cores,
      ins: node.inputs.map((i) => (i ? table.get(i) : undefined)),
      outs: node.outputs.filter(Boolean).map((o) => table.get(o)!),
    };
    const decls: string[] = [], steps: string[] = [], scratch: string[] = [];
    const sink: EmitSink = {
      data: (t) => dataOf(t, where),
      constant: (values, type, name, w) => weights.add(values, type, name, w),
      decl: (c) => decls.push(c),
      step: (c) => steps.push(c),
      scratch: (bytes) => {
        const s = `${id}_scratch${scratch.length}`;
        scratch.push(`HAL_L2 static uint8_t ${s}[${bytes}];`);
        buffers.push({ name: s, tensors: [], ctype: 'uint8_t', bytes, role: 'activation' });
        return s;
      },
    };
    emitterFor(binding, node).emit(spec, sink);

    const ins = spec.ins.filter((t): t is TensorInfo => !!t && !t.constant).map(shapeStr).join(', ') || 'constants';
    const engine = platform.engines.find((e) => e.name === binding.engine)?.title ?? binding.engine;
    const header = [
      `/* ---- ${id}: ${node.name} ----`,
      ` * ${node.op}: ${ins} -> ${spec.outs.map(shapeStr).join(', ')}`,
      ` * kernel ${binding.kernel} on the ${engine}${steps.length ? `, ${cores} core${cores > 1 ? 's' : ''}` : ''}: ${binding.reason.replace(/\*\//g, '* /')}`,
      ...(binding.notes ?? []).map((n) => ` * note: ${n.replace(/\*\//g, '* /')}`),
      ' */',
    ];
    const lines = [...header, ...scratch, ...decls.flatMap((d) => d.split('\n'))];
    const run: string[] = [];
    steps.forEach((body, s) => {
      const fn = `${id}_${s}`;
      lines.push(`static void ${fn}(void *arg) {`, '  (void)arg;', ...body.split('\n').map((x) => `  ${x}`), '}');
      run.push(`  hal_fork(${cores}, ${fn}, NULL);${s === 0 ? ` /* ${node.name} */` : ''}`);
    });
    if (!steps.length) {
      const src = spec.ins[0];
      run.push(`  /* ${node.name}: no code, ${spec.outs.map((o) => o.name).join(', ')} ${src && !src.constant ? `shares buf_${src.buffer}` : 'is a constant'} */`);
    }
    if (steps.length) maxCores = Math.max(maxCores, cores);
    const calls = [...new Set(steps.join('\n').match(/\bdpg_[a-z0-9_]+(?=\()/g) ?? [])];
    blocks.push({ node: node.name, lines, run, layer: { node: node.name, op: node.op, kernel: binding.kernel, engine: binding.engine, calls } });
  });

  // Network.c, line by line, remembering each layer's ranges.
  const c: string[] = [
    '/*',
    ` * Network.c: ${graph.name || 'network'} for ${platform.title}, generated by Deeploy Playground.`,
    ' * Untiled: every tensor lives in a static L2 buffer; each layer is one or more forks of a',
    ' * kernel of the library (kernels/dpg_kernels.h) on the cores.',
    ' */',
    '#include "Network.h"',
    '#include "Network_weights.h"',
    '',
    '/* ---- activation buffers ---- */',
    ...bufferDecls,
    '',
  ];
  const ranges = new Map<string, LineRange[]>();
  const addRange = (node: string, from: number, to: number) => ranges.set(node, [...(ranges.get(node) ?? []), { file: 'Network.c', from, to }]);
  for (const b of blocks) {
    const from = c.length + 1;
    c.push(...b.lines, '');
    addRange(b.node, from, c.length - 1);
  }
  c.push('/* ---- inputs and outputs, for the harness ---- */');
  const ptr = (name: string) => {
    const t = table.get(name)!;
    return t.constant ? `(void *)${dataOf(t, name)}` : `buf_${t.buffer}`;
  };
  c.push(...ioTables(graph, table, ptr),
    '',
    '/* Untiled: the buffers are static and the weights constant; nothing to set up before a run. */',
    'void InitNetwork(void) {}',
    '',
    'void RunNetwork(void) {',
  );
  for (const b of blocks) {
    const from = c.length + 1;
    c.push(...b.run);
    addRange(b.node, from, c.length);
  }
  c.push('}', '');

  const h = networkHeader(graph, maxCores);
  const wh = ['/* Network_weights.h: the constants (weights, requantization parameters). */', '#ifndef DPG_NETWORK_WEIGHTS_H', '#define DPG_NETWORK_WEIGHTS_H',
    '#include <stdint.h>', '#include "hal.h"', '', ...weights.externs, '', '#endif', ''];
  const wc = ['/* Network_weights.c: the constants, placed in L2. */', '#include "Network_weights.h"', '', ...weights.decls, ''];

  return {
    files: [
      { path: 'Network.h', content: h.join('\n'), kind: 'network' },
      { path: 'Network.c', content: c.join('\n'), kind: 'network' },
      { path: 'Network_weights.h', content: wh.join('\n'), kind: 'weights' },
      { path: 'Network_weights.c', content: wc.join('\n'), kind: 'weights' },
    ],
    layers: blocks.map((b) => ({ ...b.layer, ranges: ranges.get(b.node) ?? [] })),
    buffers: [...buffers, ...weights.buffers],
  };
}

/** The harness's view of the graph inputs and outputs: buffer pointers, element types and counts. */
export function ioTables(graph: Graph, table: TensorTable, ptr: (name: string) => string): string[] {
  const typeTag = (name: string) => `DPG_${{ int8: 'S8', uint8: 'U8', int16: 'S16', uint16: 'U16', int32: 'S32', uint32: 'U32' }[table.get(name)!.type]}`;
  const list = (xs: string[]) => (xs.length ? xs.join(', ') : '0');
  return [
    `void *const dpg_inputs[DPG_NUM_INPUTS + 1] = {${list(graph.inputs.map((v) => ptr(v.name)))}};`,
    `const dpg_type_t dpg_input_types[DPG_NUM_INPUTS + 1] = {${list(graph.inputs.map((v) => typeTag(v.name)))}};`,
    `const uint32_t dpg_input_elems[DPG_NUM_INPUTS + 1] = {${list(graph.inputs.map((v) => String(numel(table.get(v.name)!.shape))))}};`,
    `void *const dpg_outputs[DPG_NUM_OUTPUTS + 1] = {${list(graph.outputs.map((v) => ptr(v.name)))}};`,
    `const dpg_type_t dpg_output_types[DPG_NUM_OUTPUTS + 1] = {${list(graph.outputs.map((v) => typeTag(v.name)))}};`,
    `const uint32_t dpg_output_elems[DPG_NUM_OUTPUTS + 1] = {${list(graph.outputs.map((v) => String(numel(table.get(v.name)!.shape))))}};`,
  ];
}

/** Network.h: the interface main.c uses; `extra` lines go before the function declarations. */
export function networkHeader(graph: Graph, maxCores: number, extra: string[] = []): string[] {
  return [
    '/* Network.h: the generated network\'s interface (Deeploy Playground). */',
    '#ifndef DPG_NETWORK_H',
    '#define DPG_NETWORK_H',
    '#include "hal.h"',
    '#include "dpg_kernels.h"',
    '',
    `#define DPG_NUM_INPUTS ${graph.inputs.length}`,
    `#define DPG_NUM_OUTPUTS ${graph.outputs.length}`,
    `/** Cores the layers are forked on (at most). */`,
    `#define DPG_CORES ${maxCores}`,
    '',
    '/* Buffers of the graph inputs and outputs, their element types and counts (one spare entry: C has no empty arrays). */',
    'extern void *const dpg_inputs[DPG_NUM_INPUTS + 1];',
    'extern const dpg_type_t dpg_input_types[DPG_NUM_INPUTS + 1];',
    'extern const uint32_t dpg_input_elems[DPG_NUM_INPUTS + 1];',
    'extern void *const dpg_outputs[DPG_NUM_OUTPUTS + 1];',
    'extern const dpg_type_t dpg_output_types[DPG_NUM_OUTPUTS + 1];',
    'extern const uint32_t dpg_output_elems[DPG_NUM_OUTPUTS + 1];',
    '',
    ...extra,
    'void InitNetwork(void);',
    'void RunNetwork(void);',
    '',
    '#endif',
    '',
  ];
}
