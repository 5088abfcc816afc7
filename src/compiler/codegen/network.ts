// Network.c, Network.h and Network_weights.{h,c} from the memory plan (tiling/types.ts TilePlan),
// the one writer of the network program: every tensor lives in its level's arena at the plan's
// offset (memory.ts), so the allocator's reuse is real. A tiled layer runs its tile loop
// (tiled-layer.ts); an untiled layer (every layer of an untiled plan) runs in place on its home
// buffers. With the home level in L3, each layer first copies its operands L3 -> L2 into its
// staging buffers (blocking) and writes its output back after. Every layer's line ranges are
// kept for the code pane.
import { own } from '../../common/own';
import { fail } from '../../common/errors';
import type { Graph } from '../ir/graph';
import type { LowerResult } from '../lower/types';
import { lookupOp, opFor } from '../ops';
import { numel } from '../ops/core/tensor';
import { readAttrs, whereNode } from '../ops/types';
import type { Platform } from '../platforms/types';
import type { Buffer, TilePlan } from '../tiling/types';
import { append } from './append';
import { BYTES } from './ctypes';
import { cComment, cFormat } from './c-text';
import { callsIn, emitterFor } from './emit';
import type { EmitSink, LayerSpec } from './emit/types';
import { MemoryMap } from './memory';
import { ioTables, networkHeader } from './network-interface';
import type { TensorInfo, TensorTable } from './tensors';
import { tiledLayer } from './tiled-layer';
import type { BufferInfo, GeneratedFile, LayerCode, LineRange } from './types';
import { Weights } from './weights';
import { userOpOf } from '../ops/user/session';
import { kernelPath } from '../ops/user/kernel';
import type { UserOp } from '../ops/user/spec';

/** Cores a layer on `engine` is forked on: the configured count, at most what the engine has. */
export function coresFor(platform: Platform, engine: string, configured: number): number {
  const e = platform.engines.find((x) => x.name === engine);
  return Math.max(1, Math.min(configured, e?.cores ?? 1));
}

const shapeStr = (t: TensorInfo) => `[${t.shape.join(',')}] ${t.type}${t.offset ? ` (shifted by ${t.offset})` : ''}`;

export interface NetworkCode {
  files: GeneratedFile[];
  layers: LayerCode[];
  buffers: BufferInfo[];
}

const isAlias = (kernel: string) => kernel.endsWith('_alias');

export function networkFiles(lower: LowerResult, graph: Graph, table: TensorTable, platform: Platform, plan: TilePlan): NetworkCode {
  const mem = new MemoryMap(plan);
  const weights = new Weights();
  const staged = plan.homeLevel === 'L3';
  const tilings = new Map(plan.tilings.map((t) => [t.node, t]));
  const bytesIn = (t: TensorInfo) => numel(t.shape) * BYTES[t.type];

  interface Block { node: string; lines: string[]; run: string[]; layer: Omit<LayerCode, 'ranges'> }
  const blocks: Block[] = [];
  const scratchDecls: string[] = [];
  let maxCores = 1;
  // The tiled layers' DMA tables are constant data in L2 beside the code: all of them must fit there.
  const l2Bytes = platform.memory.find((m) => m.name === 'L2')?.bytes;
  let tableBytes = 0;
  graph.nodes.forEach((node, n) => {
    const binding = own(lower.bindings, node.name);
    const where = whereNode(node);
    if (!binding) fail('internal', 'the node has no kernel binding', where);
    const entry = lookupOp(node.domain, node.op);
    const attrs = entry ? (readAttrs(node, entry.attrs, where) as Record<string, unknown>) : {};
    const cores = coresFor(platform, binding.engine, plan.cores);
    const id = `L${n}`;
    const spec: LayerSpec = {
      node, binding, attrs, where, id, index: n, cores,
      ins: node.inputs.map((i) => (i ? table.get(i) : undefined)),
      outs: node.outputs.filter(Boolean).map((x) => table.get(x)!),
    };
    const est = plan.tiled ? tilings.get(node.name)?.estCycles : undefined;
    const layer = { node: node.name, op: node.op, kernel: binding.kernel, engine: binding.engine, ...(est !== undefined ? { estimate: est } : {}) };
    if (isAlias(binding.kernel)) {
      const src = spec.ins[0];
      const b = src && mem.homeOf(src.name);
      blocks.push({ node: node.name, lines: [], layer: { ...layer, calls: [] },
        run: [`  /* ${cComment(node.name)}: no code, ${spec.outs.map((x) => cComment(x.name)).join(', ')} ${b ? `shares ${mem.at(b)}` : 'is a constant'} */`] });
      return;
    }

    // Where the layer reads and writes a tensor: its staging buffer (home L3), its home, or
    // (a constant the plan does not hold, e.g. a derived one) a constant array in L2.
    const bufferOf = (t: TensorInfo): Buffer | undefined => (staged ? mem.stagingOf(node.name, t.name) : undefined) ?? mem.homeOf(t.name);
    const home = (t: TensorInfo): string => {
      const b = bufferOf(t);
      if (b && b.level !== 'L3') {
        if (bytesIn(t) > b.bytes) fail('internal', `tensor '${t.name}' needs ${bytesIn(t)} B; its ${b.level} buffer has ${b.bytes}`, where);
        return mem.at(b);
      }
      if (!t.constant || !t.values) fail('internal', `tensor '${t.name}' has no ${staged ? 'L2 staging' : 'home'} buffer in the plan`, where);
      return `(void *)${weights.add(t.values, t.type, t.name, where)}`;
    };

    const tiling = plan.tiled ? tilings.get(node.name) : undefined;
    const header = layerHeader(spec, platform, cores);
    const lines: string[] = [], run: string[] = [];
    let calls: string[] = [];
    const usedTensors = new Set<string>();
    if (tiling) {
      if (tiling.tensors.filter((t) => t.role === 'output').length !== 1 || spec.outs.length !== 1)
        fail('not-implemented', 'a tiled layer with more than one output', where);
      const homeOfK = (k: number) => {
        const t = tiling.tensors[k];
        return home((t.role === 'output' ? spec.outs[0] : spec.ins[t.index])!);
      };
      const code = tiledLayer({ tiling, full: spec, mem, home: homeOfK, weights, doubleBuffer: plan.doubleBuffer, profile: plan.profileTiling === 'L2',
        tableLimit: l2Bytes });
      tableBytes += code.tableBytes;
      if (l2Bytes !== undefined && tableBytes > l2Bytes)
        fail('does-not-fit', `the DMA tables of the tiled layers up to this one take ${tableBytes} B, more than the ${l2Bytes} B of L2`, where,
          'use a larger L1: fewer, larger tiles');
      for (const k of code.used) usedTensors.add(tiling.tensors[k].tensor);
      append(lines, header.slice(0, -1), code.lines);
      run.push(`  ${code.call} /* ${cComment(node.name)} */`);
      calls = code.calls;
    } else {
      // In place on the home buffers: the layer's forks, as untiled.
      const decls: string[] = [], steps: string[] = [];
      const sink: EmitSink = {
        data: (t) => { usedTensors.add(t.name); return home(t); },
        constant: (values, type, name, w) => weights.add(values, type, name, w),
        decl: (c) => decls.push(c),
        step: (c) => steps.push(c),
        scratch: (bytes) => {
          const s = `${id}_scratch${scratchDecls.length}`;
          scratchDecls.push(`HAL_L2 static uint8_t ${s}[${bytes}]; /* ${cComment(node.name)}: im2col rows */`);
          return s;
        },
      };
      emitterFor(binding, node).emit(spec, sink);
      append(lines, header, decls.flatMap((d) => d.split('\n')));
      steps.forEach((body, s) => {
        const fn = `${id}_${s}`;
        append(lines, [`static void ${fn}(void *arg) {`, '  (void)arg;'], body.split('\n').map((x) => `  ${x}`), ['}']);
        run.push(`  hal_fork(${cores}, ${fn}, NULL);${s === 0 ? ` /* ${cComment(node.name)} */` : ''}`);
      });
      calls = callsIn(steps.join('\n'));
    }
    maxCores = Math.max(maxCores, cores);

    if (staged) {
      // L3 -> L2 before the layer, L2 -> L3 after (blocking uDMA copies).
      const ins = spec.ins.filter((t): t is TensorInfo => !!t && usedTensors.has(t.name) && mem.homeOf(t.name)?.level === 'L3');
      const outs = spec.outs.filter((t) => mem.homeOf(t.name)?.level === 'L3');
      const copy = (t: TensorInfo, write: boolean) => {
        const s = mem.stagingOf(node.name, t.name), h = mem.homeOf(t.name)!;
        if (!s) fail('internal', `tensor '${t.name}' has no L2 staging buffer for the layer`, where);
        return write ? `hal_l3_write(${mem.at(h)}, ${mem.at(s)}, ${bytesIn(t)});` : `hal_l3_read(${mem.at(s)}, ${mem.at(h)}, ${bytesIn(t)});`;
      };
      const prof = plan.profileTiling === 'L3';
      const ops = opFor(node).work?.({ inputs: spec.ins.map((t) => (t ? { dtype: 'int8', shape: t.shape } : undefined)), outputs: spec.outs.map((t) => ({ dtype: 'int8', shape: t.shape })), attrs: attrs as never }) ?? numel(spec.outs[0]?.shape ?? []);
      const line = (what: string, from: string, to: string) =>
        `    printf("[${cFormat(node.name)}_L3][SB][${ops} ops][Tile 0] ${what} took %u cycles\\n", (unsigned)(${to} - ${from}));`;
      const body = run.splice(0).map((l) => `  ${l}`);
      run.push(
        '  {',
        `    /* ${cComment(node.name)}: its operands L3 -> L2 staging, the layer, its output back to L3 */`,
        ...(prof ? ['    uint32_t t0 = hal_cycles();'] : []),
        ...ins.map((t) => `    ${copy(t, false)}`),
        ...(prof ? ['    uint32_t t1 = hal_cycles();'] : []),
        ...body,
        ...(prof ? ['    uint32_t t2 = hal_cycles();'] : []),
        ...outs.map((t) => `    ${copy(t, true)}`),
        // t3 before printing: the prints themselves take thousands of cycles.
        ...(prof ? ['    uint32_t t3 = hal_cycles();', line('Input DMA', 't0', 't1'), line('Kernel', 't1', 't2'), line('Output DMA', 't2', 't3')] : []),
        '  }',
      );
    }
    blocks.push({ node: node.name, lines, run, layer: { ...layer, calls } });
  });

  const arenas = mem.arenas(table);
  const c: string[] = [
    '/*',
    ` * Network.c: ${cComment(graph.name || 'network')} for ${cComment(platform.title)}, generated by Deeploy Playground.`,
    ` * From the memory plan: ${plan.tiled ? `tiled for L1 = ${plan.l1} B${plan.doubleBuffer ? ', double-buffered' : ''}` : 'untiled'}, ` +
    `home level ${plan.homeLevel}${staged ? ' (each layer staged through L2)' : ''}.`,
    ' * Every buffer sits in its level\'s arena at the plan\'s offset (Network_weights.h):',
    ...plan.levels.map((l) => ` *   ${MemoryMap.arena(l.name)}: ${l.name}, ${l.used} B, ${l.buffers.length} buffers`),
    ' */',
    '#include "Network.h"',
    '#include "Network_weights.h"',
    '',
    ...(scratchDecls.length ? ['/* ---- scratch of untiled layers ---- */', ...scratchDecls, ''] : []),
  ];
  const ranges = new Map<string, LineRange[]>();
  const addRange = (node: string, from: number, to: number) => ranges.set(node, [...(ranges.get(node) ?? []), { file: 'Network.c', from, to }]);
  for (const b of blocks) {
    if (!b.lines.length) continue;
    const from = c.length + 1;
    append(c, b.lines, ['']);
    addRange(b.node, from, c.length - 1);
  }
  const ptr = (name: string) => {
    const b = mem.homeOf(name);
    if (b) return mem.at(b);
    const t = table.get(name)!;
    if (!t.values) fail('internal', `graph input/output '${name}' has no home buffer in the plan`, 'codegen');
    return `(void *)${weights.add(t.values, t.type, t.name, name)}`;
  };
  c.push('/* ---- inputs and outputs, for the harness ---- */', ...ioTables(graph, table, ptr), '',
    '/* The arenas are static and initialised; nothing to set up before a run. */',
    'void InitNetwork(void) {}', '', 'void RunNetwork(void) {');
  for (const b of blocks) {
    const from = c.length + 1;
    append(c, b.run);
    addRange(b.node, from, c.length);
  }
  c.push('}', '');

  const ioLevel = [...graph.inputs, ...graph.outputs].map((v) => mem.homeOf(v.name)?.level).find((l) => l) ?? plan.homeLevel;
  const ioBytes = Math.max(4, ...[...graph.inputs, ...graph.outputs].map((v) => bytesIn(table.get(v.name)!)));
  const h = networkHeader(graph, maxCores, [
    '/* Where the graph inputs and outputs live: in L3 the harness moves them through an L2 buffer. */',
    `#define DPG_IO_L3 ${ioLevel === 'L3' ? 1 : 0}`,
    `#define DPG_IO_BYTES ${ioBytes}`,
    '',
  ]);
  const wh = ['/* Network_weights.h: the memory arenas of the plan, the constants at their offsets, and the requantization parameters. */',
    '#ifndef DPG_NETWORK_WEIGHTS_H', '#define DPG_NETWORK_WEIGHTS_H', '#include <stdint.h>', '#include "hal.h"', '',
    '/** A buffer `off` bytes into an arena. */', '#define DPG_AT(arena, off) ((void *)((uint8_t *)&(arena) + (off)))', '',
    ...arenas.header, ...weights.externs, '', '#endif', ''];
  const wc = ['/* Network_weights.c: the arenas (constants at their planned offsets) and the kernels\' parameter arrays (L2). */',
    '#include "Network_weights.h"', '', ...arenas.source, ...weights.decls, ''];
  return {
    files: [
      { path: 'Network.h', content: h.join('\n'), kind: 'network' },
      { path: 'Network.c', content: c.join('\n'), kind: 'network' },
      { path: 'Network_weights.h', content: wh.join('\n'), kind: 'weights' },
      { path: 'Network_weights.c', content: wc.join('\n'), kind: 'weights' },
      ...userKernelFiles(graph),
    ],
    layers: blocks.map((b) => ({ ...b.layer, ranges: ranges.get(b.node) ?? [] })),
    buffers: [
      ...plan.levels.map((l) => ({ name: MemoryMap.arena(l.name), tensors: l.buffers.map((b) => b.tensor), ctype: 'uint8_t', bytes: l.used, role: 'activation' as const })),
      ...weights.buffers,
    ],
  };
}

/** The kernels of the user ops the graph uses, one file each (the student's source, built with the program). */
function userKernelFiles(graph: Graph): GeneratedFile[] {
  const used = new Map<string, UserOp>();
  for (const n of graph.nodes) {
    const op = userOpOf(n.domain, n.op);
    if (op) used.set(kernelPath(op.spec), op);
  }
  return [...used].map(([path, op]) => ({ path, content: op.kernel, kind: 'kernel' as const }));
}

/** Longest binding reason or note kept in a layer's header comment. */
const REASON = 1000;

/** The comment opening a layer's code (its last line closes it). */
function layerHeader(spec: LayerSpec, platform: Platform, cores: number): string[] {
  const { node, binding } = spec;
  const ins = spec.ins.filter((t): t is TensorInfo => !!t && !t.constant).map(shapeStr).join(', ') || 'constants';
  const engine = platform.engines.find((e) => e.name === binding.engine)?.title ?? binding.engine;
  return [
    `/* ---- ${spec.id}: ${cComment(node.name)} ----`,
    ` * ${cComment(node.op)}: ${ins} -> ${spec.outs.map(shapeStr).join(', ')}`,
    ` * kernel ${cComment(binding.kernel)} on the ${cComment(engine)}, ${cores} core${cores > 1 ? 's' : ''}: ${cComment(binding.reason, REASON)}`,
    ...(binding.notes ?? []).map((x) => ` * note: ${cComment(x, REASON)}`),
    ' */',
  ];
}
