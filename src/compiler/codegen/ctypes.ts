// C spellings of the integer types tensors are stored in, and of constant arrays.
import { fail } from '../../common/errors';
import { DTYPES } from '../ir/dtype';
import { intTypeOf, type IntType, type Range } from '../passes/ranges';

export const C_TYPE: Record<IntType, string> = {
  int8: 'int8_t', uint8: 'uint8_t', int16: 'int16_t', uint16: 'uint16_t', int32: 'int32_t', uint32: 'uint32_t',
};

/** The kernel library's dpg_type_t tag of a storage type. */
export const DPG_TYPE: Record<IntType, string> = {
  int8: 'DPG_S8', uint8: 'DPG_U8', int16: 'DPG_S16', uint16: 'DPG_U16', int32: 'DPG_S32', uint32: 'DPG_U32',
};

export const BYTES: Record<IntType, number> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4 };

export const is8bit = (t: IntType) => t === 'int8' || t === 'uint8';

/** The narrowest type holding a range (signed first), or a 'limit' error naming `what`. */
export function storageType(r: Range, what: string, where: string): IntType {
  const t = intTypeOf(r);
  if (!t) fail('limit', `${what} holds values ${r[0]}..${r[1]}, which no integer type of at most 32 bits holds`, where,
    'the kernels store tensors in 8-, 16- or 32-bit integers');
  return t;
}

/** Checks every value fits `t` (weights, parameters). */
export function checkFits(values: ArrayLike<number>, t: IntType, what: string, where: string): void {
  const d = DTYPES[t];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!(v >= d.min! && v <= d.max!))
      fail('dtype-mismatch', `${what} holds ${v}, which does not fit ${t}`, where, `the kernel takes ${t} ${what}`);
  }
}

/** A C integer literal; INT32_MIN needs the expression form. */
export function lit(v: number): string {
  if (v === -2147483648) return '(-2147483647 - 1)';
  return String(v);
}

/** `type name[n] = {...};` with 16 values a line. */
export function arrayDecl(prefix: string, ctype: string, name: string, values: ArrayLike<number>): string {
  const n = values.length;
  const lines: string[] = [];
  for (let i = 0; i < n; i += 16) {
    const row: string[] = [];
    for (let j = i; j < Math.min(n, i + 16); j++) row.push(lit(values[j]));
    lines.push('  ' + row.join(', ') + ',');
  }
  return `${prefix}${ctype} ${name}[${Math.max(1, n)}] = {\n${n ? lines.join('\n') : '  0'}\n};`;
}

/** A C identifier from a tensor or node name (names are sanitised by the front passes, but be safe). */
export function ident(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[0-9]/.test(s) ? `_${s}` : s;
}
