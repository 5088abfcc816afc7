// Constant expressions (C99 6.6): integer constants for array sizes, case labels, enum values
// and #-free static assertions, and address constants (a symbol plus an offset) for static
// initialisers, folded over the typed tree.
import type { BinOp, Expr } from './ast';
import type { CType } from './ctype';

/** Wraps a value to an integer type's width and signedness. */
export function truncTo(v: bigint, ty: CType): bigint {
  if (ty.kind === 'bool') return v !== 0n ? 1n : 0n;
  const bits = ty.size * 8;
  return ty.unsigned || ty.kind === 'ptr' ? BigInt.asUintN(bits, v) : BigInt.asIntN(bits, v);
}

/** Folds a constant expression: an integer, or an address (a symbol plus an offset). */
export function evalConst(e: Expr): { val: bigint; sym?: string } | undefined {
  const int = (x: Expr): bigint | undefined => { const r = evalConst(x); return r && r.sym === undefined ? r.val : undefined; };
  switch (e.k) {
    case 'num': return { val: e.val };
    case 'cast': {
      if (e.ty.kind === 'void' || e.ty.kind === 'vector' || e.a.ty.kind === 'vector') return undefined;
      const r = evalConst(e.a);
      if (!r) return undefined;
      if (r.sym !== undefined) return e.ty.size === 4 ? r : undefined;
      return { val: truncTo(r.val, e.ty) };
    }
    case 'neg': { const v = int(e.a); return v === undefined ? undefined : { val: truncTo(-v, e.ty) }; }
    case 'bitnot': { const v = int(e.a); return v === undefined ? undefined : { val: truncTo(~v, e.ty) }; }
    case 'lnot': { const v = int(e.a); return v === undefined ? undefined : { val: v === 0n ? 1n : 0n }; }
    case 'land': case 'lor': {
      const a = int(e.a);
      if (a === undefined) return undefined;
      if (e.k === 'land' && a === 0n) return { val: 0n };
      if (e.k === 'lor' && a !== 0n) return { val: 1n };
      const b = int(e.b);
      return b === undefined ? undefined : { val: b !== 0n ? 1n : 0n };
    }
    case 'comma': return evalConst(e.b);
    case 'cond': {
      const c = int(e.c);
      if (c === undefined) return undefined;
      return evalConst(c !== 0n ? e.a : e.b);
    }
    case 'bin': {
      if (e.ty.kind === 'vector') return undefined;
      const a = evalConst(e.a), b = evalConst(e.b);
      if (!a || !b) return undefined;
      if (a.sym !== undefined || b.sym !== undefined) {
        if (e.op === '-' && a.sym !== undefined && a.sym === b.sym) return { val: a.val - b.val };
        if (e.op === '+' && (a.sym === undefined || b.sym === undefined)) return { val: truncTo(a.val + b.val, e.ty), sym: a.sym ?? b.sym };
        if (e.op === '-' && b.sym === undefined) return { val: truncTo(a.val - b.val, e.ty), sym: a.sym };
        return undefined;
      }
      const v = foldBin(e.op, a.val, b.val, e.a.ty);
      return v === undefined ? undefined : { val: truncTo(v, e.ty) };
    }
    case 'ptradd': {
      const a = evalConst(e.a), b = int(e.b);
      if (!a || b === undefined) return undefined;
      return { val: BigInt.asIntN(32, a.val + b * BigInt(e.scale)), sym: a.sym };
    }
    case 'ptrdiff': {
      const a = evalConst(e.a), b = evalConst(e.b);
      if (!a || !b || a.sym !== b.sym) return undefined;
      return { val: (a.val - b.val) / BigInt(e.scale) };
    }
    case 'addr': return addrConst(e.a);
    case 'var': return undefined;
    default: return undefined;
  }
}

/** The address of an lvalue as symbol + offset, when it is a link-time constant. */
function addrConst(e: Expr): { val: bigint; sym?: string } | undefined {
  switch (e.k) {
    case 'var': case 'str':
      if (e.obj.isLocal) return undefined;
      return { val: 0n, sym: e.obj.symbol };
    case 'member': {
      const b = addrConst(e.a);
      return b && { val: b.val + BigInt(e.m.offset), sym: b.sym };
    }
    case 'deref': return evalConst(e.a);
    default: return undefined;
  }
}

export function foldBin(op: BinOp, a: bigint, b: bigint, ty: CType): bigint | undefined {
  const bits = BigInt(ty.size * 8);
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return b === 0n ? undefined : a / b;
    case '%': return b === 0n ? undefined : a % b;
    case '<<': return b < 0n || b >= bits ? undefined : a << b;
    case '>>': return b < 0n || b >= bits ? undefined : a >> b;
    case '&': return a & b;
    case '|': return a | b;
    case '^': return a ^ b;
    case '==': return a === b ? 1n : 0n;
    case '!=': return a !== b ? 1n : 0n;
    case '<': return a < b ? 1n : 0n;
    case '<=': return a <= b ? 1n : 0n;
    case '>': return a > b ? 1n : 0n;
    case '>=': return a >= b ? 1n : 0n;
  }
}
