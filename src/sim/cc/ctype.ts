// C types for the ilp32 ABI (RISC-V RV32): char is signed 8 bits, short 16, int, long and
// pointers 32, long long 64. Struct and union layout (offsets, size, alignment, bit-fields) is
// computed here, as are the integer promotions and the usual arithmetic conversions (C99 6.3.1).

export type TypeKind =
  | 'void' | 'bool' | 'char' | 'short' | 'int' | 'long' | 'llong'
  | 'float' | 'double'
  | 'ptr' | 'array' | 'func' | 'struct' | 'union' | 'vector';

export interface Member {
  name: string;
  type: CType;
  offset: number;
  /** Bit-fields: width and the bit offset inside the storage unit at `offset` (of `type`'s size). */
  bitWidth?: number;
  bitOffset?: number;
  /**
   * A bit-field of a packed record: its storage unit may run past the record's end (a 2-byte
   * packed struct with an `int f : 16`), so it is read and written a byte at a time, only the
   * bytes its bits occupy.
   */
  packed?: boolean;
}

export interface CType {
  kind: TypeKind;
  size: number;
  align: number;
  unsigned?: boolean;
  /** Pointer / array / vector: the element type; func: the return type. */
  base?: CType;
  /** Arrays: element count (-1: incomplete, e.g. `int a[]`). */
  len?: number;
  /** Functions. */
  params?: CType[];
  variadic?: boolean;
  /** Declared `f()` without a prototype. */
  oldStyle?: boolean;
  /** Structs and unions. */
  members?: Member[];
  complete?: boolean;
  tag?: string;
  /** An enum type (an int with a name, for messages). */
  isEnum?: boolean;
  isConst?: boolean;
  /** volatile-qualified: every load and store of it happens, in order (device registers). */
  isVolatile?: boolean;
}

function scalar(kind: TypeKind, size: number, unsigned = false): CType {
  return { kind, size, align: size, unsigned };
}

export const VOID: CType = { kind: 'void', size: 1, align: 1 };
export const BOOL = scalar('bool', 1, true);
// Plain char is unsigned on RISC-V (the psABI; clang defines __CHAR_UNSIGNED__ for riscv32 too).
export const CHAR = scalar('char', 1, true);
export const SCHAR = scalar('char', 1);
export const UCHAR = scalar('char', 1, true);
export const SHORT = scalar('short', 2);
export const USHORT = scalar('short', 2, true);
export const INT = scalar('int', 4);
export const UINT = scalar('int', 4, true);
export const LONG = scalar('long', 4);
export const ULONG = scalar('long', 4, true);
export const LLONG = scalar('llong', 8);
export const ULLONG = scalar('llong', 8, true);

export function pointerTo(base: CType): CType {
  return { kind: 'ptr', size: 4, align: 4, unsigned: true, base };
}

export function arrayOf(base: CType, len: number): CType {
  return { kind: 'array', size: len < 0 ? 0 : base.size * len, align: base.align, base, len };
}

export function funcType(ret: CType, params: CType[], variadic: boolean, oldStyle = false): CType {
  return { kind: 'func', size: 1, align: 1, base: ret, params, variadic, oldStyle };
}

export function vectorOf(elem: CType, bytes: number): CType {
  return { kind: 'vector', size: bytes, align: bytes, base: elem, len: bytes / elem.size };
}

export function withConst(t: CType): CType {
  return t.isConst ? t : { ...t, isConst: true };
}

export function withVolatile(t: CType): CType {
  return t.isVolatile ? t : { ...t, isVolatile: true };
}

export const isInteger = (t: CType): boolean =>
  t.kind === 'bool' || t.kind === 'char' || t.kind === 'short' || t.kind === 'int' || t.kind === 'long' || t.kind === 'llong';
export const isFloat = (t: CType): boolean => t.kind === 'float' || t.kind === 'double';
export const isArith = (t: CType): boolean => isInteger(t) || isFloat(t);
export const isPointer = (t: CType): boolean => t.kind === 'ptr';
export const isScalar = (t: CType): boolean => isArith(t) || t.kind === 'ptr';
export const isAggregate = (t: CType): boolean => t.kind === 'struct' || t.kind === 'union' || t.kind === 'array';
export const isRecord = (t: CType): boolean => t.kind === 'struct' || t.kind === 'union';

/** Integer conversion rank (C99 6.3.1.1). */
function rank(t: CType): number {
  switch (t.kind) {
    case 'bool': return 0;
    case 'char': return 1;
    case 'short': return 2;
    case 'int': return 3;
    case 'long': return 4;
    case 'llong': return 5;
    default: return 3;
  }
}

/** The integer promotions: anything narrower than int becomes int (all their values fit). */
export function promote(t: CType): CType {
  if (isInteger(t) && rank(t) < 3) return INT;
  return t;
}

/**
 * The integer promotion of a bit-field's value (C99 6.3.1.1p2, by its width, not its declared
 * type; clang-19's rule for the widths C leaves open): narrower than int -> int, as wide as int
 * -> int or unsigned int by its signedness, wider -> its type (no promotion).
 */
export function promoteBitField(t: CType, width: number): CType {
  if (width < 32) return INT;
  if (width === 32) return t.unsigned ? UINT : INT;
  return promote(t);
}

/** The usual arithmetic conversions of two integer operands (C99 6.3.1.8). */
export function commonType(a: CType, b: CType): CType {
  a = promote(a);
  b = promote(b);
  if (a.kind === b.kind && !!a.unsigned === !!b.unsigned) return a;
  if (!!a.unsigned === !!b.unsigned) return rank(a) >= rank(b) ? a : b;
  const [u, s] = a.unsigned ? [a, b] : [b, a];
  if (rank(u) >= rank(s)) return u;
  if (s.size > u.size) return s;
  // The signed type cannot hold every value of the unsigned one: its unsigned counterpart.
  return { ...s, unsigned: true, isConst: false };
}

export function sameType(a: CType, b: CType): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'ptr': return sameType(a.base!, b.base!);
    case 'array': return sameType(a.base!, b.base!) && (a.len === b.len || a.len! < 0 || b.len! < 0);
    case 'func':
      return sameType(a.base!, b.base!) && (!!a.oldStyle || !!b.oldStyle ||
        (a.params!.length === b.params!.length && a.params!.every((p, i) => sameType(p, b.params![i]))));
    case 'struct': case 'union': return a.members === b.members || a === b;
    default: return !!a.unsigned === !!b.unsigned && a.size === b.size;
  }
}

/** Type names as C writes them, for diagnostics. */
export function typeName(t: CType): string {
  const q = t.isConst ? 'const ' : '';
  switch (t.kind) {
    case 'ptr': return `${typeName(t.base!)} *`;
    case 'array': return `${typeName(t.base!)}[${t.len! >= 0 ? t.len : ''}]`;
    case 'func': return `${typeName(t.base!)}(${t.params!.map(typeName).join(', ')}${t.variadic ? ', ...' : ''})`;
    case 'struct': case 'union': return `${q}${t.kind} ${t.tag ?? '<anonymous>'}`;
    case 'vector': return `${typeName(t.base!)} __attribute__((vector_size(${t.size})))`;
    case 'llong': return `${q}${t.unsigned ? 'unsigned ' : ''}long long`;
    case 'char': return `${q}${t.unsigned ? 'unsigned ' : ''}char`;
    case 'bool': return `${q}_Bool`;
    default: return `${q}${t.unsigned ? 'unsigned ' : ''}${t.kind}`;
  }
}

/**
 * Lays out a struct (or union) in place: members at increasing offsets aligned to their type,
 * bit-fields packed into storage units of their declared type as GCC/clang do for RISC-V.
 * `maxAlign` caps member alignment (1: `packed`; n: `#pragma pack(n)`; 0: no cap); `alignAttr`
 * raises the struct's alignment.
 */
export function layoutRecord(t: CType, members: { name: string; type: CType; bitWidth?: number; align?: number }[], maxAlign: number, alignAttr = 0): void {
  const packed = maxAlign === 1;
  const out: Member[] = [];
  let align = 1;
  let bits = 0; // struct size so far, in bits
  for (const m of members) {
    const natural = Math.max(m.type.align, m.align ?? 1);
    const ma = maxAlign ? Math.min(natural, maxAlign) : natural;
    if (m.bitWidth !== undefined) {
      const unit = m.type.size * 8;
      if (m.bitWidth === 0) {
        bits = Math.ceil(bits / unit) * unit;
        continue;
      }
      if (t.kind === 'union') bits = 0;
      // Start a new storage unit when the field would straddle one of its type's alignment.
      if (!packed && Math.floor(bits / unit) !== Math.floor((bits + m.bitWidth - 1) / unit)) bits = Math.ceil(bits / unit) * unit;
      const unitStart = packed ? Math.floor(bits / 8) : Math.floor(bits / unit) * (unit / 8);
      out.push({ name: m.name, type: m.type, offset: unitStart, bitWidth: m.bitWidth, bitOffset: bits - unitStart * 8, ...(packed ? { packed } : {}) });
      align = Math.max(align, ma);
      if (t.kind === 'union') { bits = 0; align = Math.max(align, ma); t.size = Math.max(t.size, m.type.size); continue; }
      bits += m.bitWidth;
      continue;
    }
    align = Math.max(align, ma);
    if (t.kind === 'union') {
      out.push({ name: m.name, type: m.type, offset: 0 });
      t.size = Math.max(t.size, m.type.size);
      continue;
    }
    const off = Math.ceil(Math.ceil(bits / 8) / ma) * ma;
    out.push({ name: m.name, type: m.type, offset: off });
    bits = (off + m.type.size) * 8;
  }
  if (alignAttr) align = Math.max(align, alignAttr);
  const bytes = t.kind === 'union' ? t.size : Math.ceil(bits / 8);
  t.members = out;
  t.align = align;
  t.size = Math.ceil(bytes / align) * align;
  t.complete = true;
}

/** Finds a member, looking inside anonymous struct/union members; returns it with its full offset. */
export function findMember(t: CType, name: string): Member | undefined {
  for (const m of t.members ?? []) {
    if (m.name === name) return m;
    if (m.name === '' && isRecord(m.type)) {
      const inner = findMember(m.type, name);
      if (inner) return { ...inner, offset: inner.offset + m.offset };
    }
  }
  return undefined;
}
