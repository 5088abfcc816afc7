// Where every buffer of the memory plan lives in the generated C: one arena per memory level
// (dpg_l1, dpg_l2, dpg_l3, ...), every buffer at the plan's offset inside it. A home level
// holding constants is a struct whose fields are the constants at their offsets (initialised
// data, checked with offsetof) with gaps where activations and staging buffers come and go;
// L1 and levels without constants are plain byte arrays. Generated code reaches a buffer as
// DPG_AT(arena, offset).
import { fail } from '../../common/errors';
import { numel } from '../ops/core/tensor';
import type { Buffer, TilePlan } from '../tiling/types';
import { append } from './append';
import { cComment, cString } from './c-text';
import { BYTES, C_TYPE, checkFits, ident, lit } from './ctypes';
import type { TensorTable } from './tensors';

/** The section macro of hal.h for a level (a level hal.h does not know is ordinary memory). */
const SECTION: Record<string, string> = { L1: 'HAL_L1 ', L2: 'HAL_L2 ', L3: 'HAL_L3 ', WMEM: 'HAL_WMEM ' };

export class MemoryMap {
  private home = new Map<string, Buffer>();
  /** Per layer: its staging buffers by tensor, its tile buffers by tensor position, its scratch. */
  private layers = new Map<string, { staged: Map<string, Buffer>; tiles: Map<number, Buffer>; scratch?: Buffer }>();

  constructor(readonly plan: TilePlan) {
    for (const level of plan.levels) for (const b of level.buffers) {
      if (b.role === 'activation' || b.role === 'constant') {
        this.home.set(b.tensor, b);
        for (const a of b.aliases ?? []) this.home.set(a, b);
        continue;
      }
      const l = this.layer(b.node ?? '');
      if (b.role === 'staging') l.staged.set(b.tensor, b);
      else if (b.role === 'scratch') l.scratch = b;
      else if (b.k !== undefined) l.tiles.set(b.k, b);
    }
  }

  private layer(node: string) {
    let l = this.layers.get(node);
    if (!l) this.layers.set(node, (l = { staged: new Map(), tiles: new Map() }));
    return l;
  }

  /** The C name of a level's arena. */
  static arena(level: string): string {
    return `dpg_${ident(level.toLowerCase())}`;
  }

  /** Home buffer of a tensor (an alias gives its root's buffer). */
  homeOf(tensor: string): Buffer | undefined {
    return this.home.get(tensor);
  }

  /** L2 staging buffer of a tensor for a layer (home level L3). */
  stagingOf(node: string, tensor: string): Buffer | undefined {
    return this.layers.get(node)?.staged.get(tensor);
  }

  /** A tiled layer's L1 buffer of tensor k (its position in the layer's LayerTiling.tensors). */
  tileBufferOf(node: string, k: number): Buffer | undefined {
    return this.layers.get(node)?.tiles.get(k);
  }

  /** A tiled layer's L1 scratch buffer. */
  scratchOf(node: string): Buffer | undefined {
    return this.layers.get(node)?.scratch;
  }

  /** C pointer expression (void *) of a buffer, `extra` bytes in. */
  at(b: Buffer, extra = 0): string {
    return `DPG_AT(${MemoryMap.arena(b.level)}, ${b.offset + extra})`;
  }

  /** The arenas: declarations for Network_weights.h, definitions for Network_weights.c. */
  arenas(table: TensorTable): { header: string[]; source: string[] } {
    const header: string[] = [], source: string[] = [];
    for (const level of this.plan.levels) {
      const size = Math.max(4, level.used);
      const name = MemoryMap.arena(level.name), section = SECTION[level.name] ?? '';
      // Empty constants (a prefill's empty KV cache) take no bytes and are never read.
      const consts = level.buffers.filter((b) => b.role === 'constant' && table.get(b.tensor)?.values && numel(table.get(b.tensor)!.shape) > 0)
        .sort((a, b) => a.offset - b.offset);
      const summary = `/* ${cComment(level.name)}: ${level.used} of ${level.capacity} B used, ${level.buffers.length} buffers (${cComment(level.allocator)}) */`;
      if (!consts.length) {
        header.push(summary, `extern uint8_t ${name}[${size}];`, '');
        source.push(`${section}uint8_t ${name}[${size}];`, '');
        continue;
      }
      // A struct: each constant a field at its offset, byte gaps between them.
      const fields: string[] = [], inits: string[] = [], asserts: string[] = [];
      let at = 0, gap = 0;
      const names = new Set<string>();
      for (const b of consts) {
        const t = table.get(b.tensor)!;
        const bytes = numel(t.shape) * BYTES[t.type];
        if (bytes > b.bytes) fail('internal', `constant '${t.name}' needs ${bytes} B as ${t.type}; the plan gives it ${b.bytes} B`, `memory level ${level.name}`);
        if (b.offset > at) fields.push(`  uint8_t gap${gap++}[${b.offset - at}];`);
        let field = `c_${ident(t.name)}`;
        for (let k = 2; names.has(field); k++) field = `c_${ident(t.name)}_${k}`;
        names.add(field);
        fields.push(`  ${C_TYPE[t.type]} ${field}[${numel(t.shape)}]; /* @${b.offset}: [${t.shape.join(',')}] ${t.type} */`);
        checkFits(t.values!, t.type, `constant '${t.name}'`, `memory level ${level.name}`);
        append(inits, [`  .${field} = {`], valueLines(t.values!), ['  },']);
        asserts.push(`_Static_assert(offsetof(struct ${name}_layout, ${field}) == ${b.offset}, "${cString(t.name)} at its planned offset");`);
        at = b.offset + bytes;
      }
      if (size > at) fields.push(`  uint8_t gap${gap++}[${size - at}];`);
      append(header, [summary, `struct ${name}_layout {`], fields, ['};', `extern struct ${name}_layout ${name};`], asserts, ['']);
      append(source, [`${section}struct ${name}_layout ${name} = {`], inits, ['};', '']);
    }
    return { header, source };
  }
}

/** An initialiser's values, 16 a line. */
function valueLines(values: ArrayLike<number>): string[] {
  const lines: string[] = [];
  for (let i = 0; i < values.length; i += 16) lines.push('    ' + Array.from({ length: Math.min(16, values.length - i) }, (_, j) => lit(values[i + j])).join(', ') + ',');
  return lines.length ? lines : ['    0'];
}
