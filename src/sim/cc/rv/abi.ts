// The ilp32 calling convention (RISC-V psABI): where each 32-bit part of each argument goes. The
// IR values are already the psABI's (../callconv.ts: narrow integers extended, aggregates of up
// to 8 bytes as i32 / i64 / two i32, larger ones by address), so only their types matter here.
// Arguments take a0..a7 in order; a 64-bit scalar takes two registers (low word first), its low
// half in a7 and high half on the stack when only a7 is left; a variadic 64-bit argument starts at
// an even register (an aligned pair) or goes to the stack 8-aligned; once one argument is on the
// stack every later one is. Stack arguments sit at sp + 0, 4, ... of the caller (its CFA for the
// callee). Results come back in a0 (and a1).
import type { IrType } from '../ir';

export type ArgPart = { reg: number } | { stack: number };

export interface ArgLayout {
  /** Per argument, its parts (one, or two for i64: low then high). */
  parts: ArgPart[][];
  /** Argument registers used (0..8). */
  regs: number;
  /** Bytes of stack arguments. */
  stack: number;
}

export function argLayout(tys: readonly IrType[], nfixed: number): ArgLayout {
  let next = 0;
  let stack = 0;
  const parts = tys.map((ty, i): ArgPart[] => {
    if (ty !== 'i64') {
      if (next < 8) return [{ reg: 10 + next++ }];
      const s = stack; stack += 4;
      return [{ stack: s }];
    }
    const variadic = i >= nfixed;
    if (variadic && next % 2 === 1 && next < 8) next++;
    if (next <= 6) { const r = 10 + next; next += 2; return [{ reg: r }, { reg: r + 1 }]; }
    if (next === 7 && !variadic) { next = 8; const s = stack; stack += 4; return [{ reg: 17 }, { stack: s }]; }
    next = 8;
    stack = Math.ceil(stack / 8) * 8;
    const s = stack; stack += 8;
    return [{ stack: s }, { stack: s + 4 }];
  });
  return { parts, regs: next, stack };
}
