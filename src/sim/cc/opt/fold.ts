// Constant folding: the value of one instruction whose operands are constants, computed by the
// interpreter's own arithmetic (interp.ts defines the IR), so folding is bit-exact by construction.
import type { Inst } from '../ir';
import { isVecOp } from '../ir';
import { bin32, bin64, convert, vec32 } from '../interp';
import { isBinary } from './util';

export type Val = number | bigint;

/** The folded value, or undefined when the instruction is not foldable (or would trap). */
export function foldInst(x: Inst, arg: (i: number) => Val): Val | undefined {
  try {
    switch (x.op) {
      case 'const': return x.imm;
      case 'copy': return arg(0);
      case 'sext': case 'zext': case 'trunc': return convert(x.op, x.from!, x.ty, arg(0));
      case 'clz': { const v = arg(0) as number; return Math.clz32(v); }
      case 'ctz': { const v = arg(0) as number; return v === 0 ? 32 : 31 - Math.clz32(v & -v); }
      case 'popcount': { let v = (arg(0) as number) >>> 0, c = 0; while (v) { v &= v - 1; c++; } return c; }
      case 'bswap': { const v = arg(0) as number; return ((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >>> 8) & 0xff00) | (v >>> 24); }
      default:
        if (isVecOp(x.op)) return vec32(x.op, x.lane!, arg(0) as number, x.op === 'vsplat' ? 0 : arg(1) as number);
        if (!isBinary(x.op)) return undefined;
        return x.ty === 'i64' ? bin64(x, arg(0) as bigint, arg(1) as bigint) : bin32(x, arg(0) as number, arg(1) as number);
    }
  } catch {
    return undefined; // division by zero: left for the program to reach (or not)
  }
}

/** Is a branch condition true? */
export function truthy(v: Val): boolean {
  return v !== 0 && v !== 0n;
}

/** The index in a switch's targets that value v takes. */
export function switchTarget(x: Inst, v: Val): number {
  const bv = typeof v === 'bigint' ? v : BigInt(v);
  return x.cases!.indexOf(bv) + 1;
}
