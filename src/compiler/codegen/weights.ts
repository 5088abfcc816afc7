// The kernels' constant arrays (requantization parameters, sliced tile constants, constants the
// plan does not hold) in Network_weights.c: one const array per (constant, element type).
import type { IntType } from '../passes/ranges';
import { arrayDecl, BYTES, C_TYPE, checkFits, ident } from './ctypes';
import type { BufferInfo } from './types';

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
