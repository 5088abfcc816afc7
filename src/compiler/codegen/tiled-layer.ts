// One tiled layer's C, from the memory plan: per tile, DMA each per-tile input region from its
// home buffer into its L1 buffer, fork the kernel on the tile (one fork body per tile class,
// tiles.ts), DMA the output tile back. Tensors whole in every tile ("staying": weights,
// parameters) are loaded once per layer. Double-buffered, tile i+1's inputs move into the
// other copy while tile i computes and tile i's output moves out during tile i+1's kernel;
// the DMA completes in order, so one wait covers everything queued before.
import { fail } from '../../common/errors';
import { numel } from '../ops/core/tensor';
import type { LayerTiling } from '../tiling/types';
import { append } from './append';
import { BYTES } from './ctypes';
import { cComment, cFormat } from './c-text';
import { asOneRun, boxCommands, type DmaCommand } from './dma-plan';
import { callsIn, emitterFor } from './emit';
import type { EmitSink, LayerSpec } from './emit/types';
import type { MemoryMap } from './memory';
import type { Weights } from './weights';
import type { TensorInfo } from './tensors';
import { layerTiles } from './tiles';

export interface TiledLayerInput {
  /** The plan's tiling of the layer: its tensors, tiles and their regions. */
  tiling: LayerTiling;
  /** The layer on whole tensors (emit/types.ts); its id prefixes every C name. */
  full: LayerSpec;
  mem: MemoryMap;
  /** C pointer (void *) of tensor k's home buffer (its L2 staging buffer when the home is L3). */
  home(k: number): string;
  weights: Weights;
  doubleBuffer: boolean;
  /** Print per-tile cycles (--profileTiling L2). */
  profile: boolean;
  /** Bytes the layer's tile tables may take at most: they sit in L2 with the rest of the program. */
  tableLimit?: number;
}

export interface TiledLayerCode {
  /** Declarations and functions, in Network.c before RunNetwork. */
  lines: string[];
  /** The call in RunNetwork. */
  call: string;
  /** Tensors (positions in the tiling's tensors) the kernels read or write through buffers. */
  used: Set<number>;
  /** Kernel library functions called. */
  calls: string[];
  /** Bytes of its DMA tables (constant data in L2). */
  tableBytes: number;
}

const list = (xs: readonly number[]) => `{${xs.join(', ')}}`;

export function tiledLayer(x: TiledLayerInput): TiledLayerCode {
  const { full, tiling, mem } = x;
  const id = full.id, node = full.node.name, where = full.where;
  const lt = layerTiles(tiling, full);
  const T = lt.tiles.length;
  const db = x.doubleBuffer && T > 1;

  // Fork bodies per class; the kernels see the current tile's L1 buffers through pointers.
  const used = new Set<number>(), direct = new Set<number>();
  const varOf = (k: number) => `${id}_${tiling.tensors[k].role}${k}`;
  const classLines: string[] = [];
  const forks: string[][] = [];
  const scratchBuf = mem.scratchOf(node);
  for (const [c, cls] of lt.classes.entries()) {
    const decls: string[] = [], steps: string[] = [];
    const sink: EmitSink = {
      data: (t: TensorInfo) => {
        const k = cls.tensorOf.get(t);
        if (k === undefined) fail('internal', `tensor '${t.name}' is not one of the tiled layer's tensors`, where);
        // Read by the engine where it lives (N-EUREKA weights in WMEM): a pointer to the tile's slice, no L1 buffer.
        (tiling.tensors[k].direct ? direct : used).add(k);
        return varOf(k);
      },
      constant: (values, type, name, w) => x.weights.add(values, type, name, w),
      decl: (code) => decls.push(code),
      step: (code) => steps.push(code),
      scratch: (bytes) => {
        if (scratchBuf && bytes <= scratchBuf.bytes) return `(uint8_t *)${mem.at(scratchBuf)}`;
        fail('internal', `the kernel needs ${bytes} B of scratch; the plan gives ${scratchBuf?.bytes ?? 0} B in L1`, where);
      },
    };
    emitterFor(full.binding, full.node).emit(cls.spec, sink);
    append(classLines, [`/* class ${c}: ${cls.label}, ${cls.ops} ops */`], decls.flatMap((d) => d.split('\n')));
    forks.push(steps.map((body, s) => {
      const fn = `${cls.spec.id}_${s}`;
      append(classLines, [`static void ${fn}(void *arg) {`, '  (void)arg;'], body.split('\n').map((l) => `  ${l}`), ['}']);
      return fn;
    }));
  }

  // The DMA tables (a box or a command per tile per tensor moved, an offset per tile per tensor
  // read in place, the tile classes) are constant data in L2: a layer cut into more tiles than L2
  // can list cannot link, and its tables would be megabytes of C (found by the fuzzer: 51,200
  // tiles). Checked before any table is written out.
  // Per tile and tensor at most a box (2 x rank words) or a command (4 words): the larger.
  const moveBytes = [...used].reduce((sum, k) => {
    const t = tiling.tensors[k];
    return sum + (t.stays && t.role !== 'output' ? 1 : T) * Math.max(2 * Math.max(1, t.shape.length), 4) * 4;
  }, 0);
  let tableBytes = direct.size * T * 4 + (lt.classes.length > 1 ? 2 * T : 0);
  if (x.tableLimit !== undefined && tableBytes + moveBytes > x.tableLimit)
    fail('does-not-fit', `its ${T} tiles need ${tableBytes + moveBytes} B of DMA tables, more than the ${x.tableLimit} B of L2`, where,
      'use a larger L1: fewer, larger tiles');
  /** How tensor k's tile moves: one constant command, a table of commands, or dpg_dma_box. */
  const moves = new Map<number, { one?: DmaCommand; table?: string; box?: true }>();

  // L1 buffers and DMA tables of the tensors the kernels use.
  const lines: string[] = [];
  const perTile: number[] = [], staying: number[] = [];
  const bufLines: string[] = [];
  for (const k of [...used].sort((a, b) => a - b)) {
    const t = tiling.tensors[k];
    const b = mem.tileBufferOf(node, k);
    if (!b) fail('not-implemented', `tensor '${t.tensor}' has no L1 buffer in the plan (read from ${t.direct ?? 'elsewhere'})`, where);
    const info = (t.role === 'output' ? full.outs[0] : full.ins[t.index])!;
    const elem = BYTES[info.type];
    if (elem !== t.elemBytes) fail('internal', `tensor '${t.tensor}' is stored in ${elem} B per element; the plan assumed ${t.elemBytes}`, where);
    // The plan sized the buffer for the largest tile region; every tile must fit it.
    const copy = lt.tiles.reduce((m, tl) => Math.max(m, numel(tl.regions[k].size)), 0) * elem;
    if (copy * b.copies > b.bytes) fail('internal', `tensor '${t.tensor}' needs ${copy} B in some tile; its L1 buffer holds ${b.bytes / b.copies} B per copy`, where);
    const stays = t.stays && t.role !== 'output';
    if (db && !stays && b.copies !== 2) fail('internal', `tensor '${t.tensor}' is double-buffered but has one L1 copy`, where);
    (stays ? staying : perTile).push(k);
    const v = varOf(k);
    const shape = t.shape.length ? t.shape : [1];
    bufLines.push(`/* ${t.role} ${cComment(t.tensor)}: [${t.shape.join(',')}] ${info.type}, home ${x.home(k)}; ` +
      `L1 @${b.offset}, ${b.copies > 1 ? `2 x ${b.bytes / 2}` : b.bytes} B, ${stays ? 'whole, loaded once' : `tile [${t.tile.join(',')}]`} */`);
    bufLines.push(`static void *${v};`);
    bufLines.push(`static void *const ${v}_l1[2] = {${mem.at(b)}, ${mem.at(b, b.copies > 1 ? b.bytes / 2 : 0)}};`);
    const boxes = stays ? [{ start: shape.map(() => 0), size: shape }]
      : lt.tiles.map((tl) => (t.shape.length ? tl.regions[k] : { start: [0], size: [1] }));
    // A box that is one DMA command in every tile is issued as that command (one constant, or a
    // row of four words per tile); others go through dpg_dma_box and its dims and box tables.
    const commands = boxes.map((r) => boxCommands(shape, elem, r.start, r.size));
    if (commands.every((c) => c.length === 1)) {
      const cs = commands.map((c) => asOneRun(c[0]));
      if (cs.length === 1) {
        moves.set(k, { one: cs[0] });
      } else {
        moves.set(k, { table: `${v}_dma` });
        append(bufLines, [`static const uint32_t ${v}_dma[${cs.length}][4] = { /* per tile: home offset, rows, bytes per row, home stride */`],
          cs.map((c, i) => `  {${c.home}, ${c.rows}, ${c.run}, ${c.stride}}, /* tile ${i} */`), ['};']);
        tableBytes += cs.length * 16;
      }
      continue;
    }
    moves.set(k, { box: true });
    bufLines.push(`static const dpg_tensor_dims_t ${v}_dims = {${shape.length}, ${list(shape)}, ${elem}};`);
    append(bufLines, [`static const uint32_t ${v}_box[${boxes.length}][2][${shape.length}] = {`],
      boxes.map((r, i) => `  {${list(r.start)}, ${list(r.size)}},${stays ? '' : ` /* tile ${i} */`}`), ['};']);
    tableBytes += boxes.length * 2 * shape.length * 4;
  }
  // Direct tensors: one pointer into the home buffer per tile; the slice must be contiguous there.
  const directSet: string[] = [];
  for (const k of [...direct].sort((a, b) => a - b)) {
    const t = tiling.tensors[k], v = varOf(k), info = full.ins[t.index]!;
    const offsets = lt.tiles.map((tl, i) => {
      const r = tl.regions[k];
      if (r.start.some((s0, d) => d > 0 && (s0 !== 0 || r.size[d] !== t.shape[d])))
        fail('not-implemented', `tile ${i} reads a non-contiguous slice of '${t.tensor}' from ${t.direct}`, where, 'compile it untiled');
      return r.start.length ? r.start[0] * numel(t.shape.slice(1)) * BYTES[info.type] : 0;
    });
    append(bufLines, [`/* ${cComment(t.tensor)}: read from ${cComment(t.direct ?? '')} by the engine, ${x.home(k)}; per tile the byte offset of its slice */`,
      `static void *${v};`, `static const uint32_t ${v}_at[${T}] = {`], chunks(offsets), ['};']);
    directSet.push(`  ${v} = (uint8_t *)${x.home(k)} + ${v}_at[i];`);
  }
  const outK = tiling.tensors.findIndex((t) => t.role === 'output');
  if (!used.has(outK)) fail('internal', 'the kernel never writes the output', where);
  const dma = (k: number, i: string, b: string, out: 0 | 1) => {
    const v = varOf(k), m = moves.get(k)!, l1 = `${v}_l1[${b}]`;
    if (m.box) return `dpg_dma_box(${l1}, ${x.home(k)}, &${v}_dims, ${v}_box[${i}][0], ${v}_box[${i}][1], ${out})`;
    const [at, rows, run, stride] = m.one ? [`${m.one.home}`, `${m.one.rows}`, `${m.one.run}`, `${m.one.stride}`]
      : [0, 1, 2, 3].map((j) => `${m.table}[${i}][${j}]`);
    const home = at === '0' ? `${x.home(k)}` : `(uint8_t *)${x.home(k)} + ${at}`;
    if (m.one?.rows === 1) return out ? `hal_dma_out(${home}, ${l1}, ${run})` : `hal_dma_in(${l1}, ${home}, ${run})`;
    return out ? `hal_dma_out_2d(${home}, ${l1}, ${rows}, ${run}, ${stride})` : `hal_dma_in_2d(${l1}, ${home}, ${rows}, ${run}, ${stride})`;
  };

  const cores = full.cores;
  const classTable = lt.classes.length > 1;
  append(lines, [
    ` * tiled: output [${tiling.output.join(',')}] in ${T} tile${T > 1 ? 's' : ''} of [${tiling.tile.join(',')}] (${tiling.rule}), ` +
    `${lt.classes.length} tile class${lt.classes.length > 1 ? 'es' : ''}, ${db ? 'double-buffered' : 'single-buffered'}`,
    ' */',
  ], bufLines, [
  ], classTable ? [`static const uint16_t ${id}_class[${T}] = {`, ...chunks(lt.tiles.map((t) => t.cls)), '};'] : [], [
    ...(x.profile ? [`static const uint32_t ${id}_ops[${lt.classes.length}] = ${list(lt.classes.map((c) => c.ops))};`] : []),
  ], classLines, [
    '',
    `/* Runs the kernel of tile class cls on ${cores} core${cores > 1 ? 's' : ''}. */`,
    `static void ${id}_kernel(uint32_t cls) {`,
    ...(classTable
      ? ['  switch (cls) {', ...forks.map((fs, c) => `    case ${c}: ${fs.map((f) => `hal_fork(${cores}, ${f}, NULL);`).join(' ')} break;`), '    default: break;', '  }']
      : ['  (void)cls;', ...forks[0].map((f) => `  hal_fork(${cores}, ${f}, NULL);`)]),
    '}',
    '',
    `/* Queues tile i's per-tile inputs into L1 copy b; returns the last transfer (0: none). */`,
    `static hal_dma_t ${id}_load(uint32_t i, uint32_t b) {`,
    ...(perTile.some((k) => k !== outK) ? ['  hal_dma_t id = 0;', ...perTile.filter((k) => k !== outK).map((k) => `  id = ${dma(k, 'i', 'b', 0)};`), '  return id;']
      : ['  (void)i; (void)b;', '  return 0;']),
    '}',
    '',
    `/* Points the kernels at tile i's data: L1 copy b${directSet.length ? ', and the slices read in place' : ''}. */`,
    `static void ${id}_use(uint32_t i, uint32_t b) {`,
    ...(directSet.length ? [] : ['  (void)i;']),
    ...perTile.map((k) => `  ${varOf(k)} = ${varOf(k)}_l1[b];`),
    ...directSet,
    '}',
    '',
  ]);

  // The tile loop.
  // The label is the configuration's (a one-tile layer has nothing to overlap either way).
  const level = `${cFormat(node)}_L2`, mode = x.doubleBuffer ? 'DB' : 'SB';
  const prof = (what: string, from: string, to: string) =>
    x.profile ? [`    printf("[${level}][${mode}][%u ops][Tile %u] ${what} took %u cycles\\n", (unsigned)${id}_ops[cls], (unsigned)i, (unsigned)(${to} - ${from}));`] : [];
  const stamp = (v: string) => (x.profile ? [`    ${v} = hal_cycles();`] : []);
  const store = `${dma(outK, 'i', 'b', 1)}`;
  // After a tile's output DMA: t3 before printing (the prints themselves take thousands of
  // cycles), then the next tile's clock starts.
  const report = [...stamp('t3'), ...prof('Input DMA', 't0', 't1'), ...prof('Kernel', 't1', 't2'), ...prof('Output DMA', 't2', 't3'), ...stamp('t0')];
  const run = [
    `/* ${cComment(node)}: ${T} tile${T > 1 ? 's' : ''}${db ? ', double-buffered' : ''}. */`,
    `static void ${id}_run(void) {`,
    ...(x.profile ? ['  uint32_t t0 = hal_cycles(), t1 = t0, t2 = t0, t3 = t0;'] : []),
    ...(staying.length ? ['  /* whole in every tile: loaded once for the layer */', '  hal_dma_t once = 0;',
      ...staying.map((k) => `  ${varOf(k)} = ${varOf(k)}_l1[0];\n  once = ${dma(k, '0', '0', 0)};`), '  dpg_dma_wait(once);'] : []),
  ];
  if (db) {
    run.push(
      `  hal_dma_t in = ${id}_load(0, 0), out[2] = {0, 0};`,
      `  for (uint32_t i = 0; i < ${T}; i++) {`,
      '    const uint32_t b = i & 1;',
      `    const uint32_t cls = ${classTable ? `${id}_class[i]` : '0'};`,
      '    dpg_dma_wait(in);                                /* tile i\'s inputs are in copy b */',
      `    if (i + 1 < ${T}) in = ${id}_load(i + 1, b ^ 1);  /* prefetch tile i + 1 while tile i computes */`,
      '    dpg_dma_wait(out[b]);                            /* tile i - 2\'s output has left copy b */',
      ...stamp('t1'),
      `    ${id}_use(i, b);`,
      `    ${id}_kernel(cls);`,
      ...stamp('t2'),
      `    out[b] = ${store};  /* leaves during tile i + 1's kernel */`,
      ...report,
      '  }',
      `  dpg_dma_wait(out[${(T - 1) & 1}]); /* the last output, and with it every transfer before */`,
      '}',
    );
  } else {
    run.push(
      `  for (uint32_t i = 0; i < ${T}; i++) {`,
      '    const uint32_t b = 0;',
      `    const uint32_t cls = ${classTable ? `${id}_class[i]` : '0'};`,
      `    dpg_dma_wait(${id}_load(i, b));`,
      ...stamp('t1'),
      `    ${id}_use(i, b);`,
      `    ${id}_kernel(cls);`,
      ...stamp('t2'),
      `    dpg_dma_wait(${store});`,
      ...report,
      '  }',
      '}',
    );
  }
  append(lines, run.flatMap((l) => l.split('\n')));
  const calls = callsIn(classLines.join('\n'));
  return { lines, call: `${id}_run();`, used, calls, tableBytes };
}

/** Numbers 32 a line. */
function chunks(xs: number[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < xs.length; i += 32) out.push(`  ${xs.slice(i, i + 32).join(', ')},`);
  return out;
}
