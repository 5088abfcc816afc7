// How a C value crosses a call under the RISC-V ilp32 psABI (integer convention), as the IR values
// lower.ts passes and returns; rv/abi.ts then puts those IR values in registers and on the stack.
// Checked against clang-19 (riscv32, -mabi=ilp32), which the ABI test links with our objects:
//   integers narrower than 32 bits: one i32, extended per their type's signedness, by the caller
//     for arguments and by the callee for results (clang's code relies on both);
//   structs and unions of 1..4 bytes: one i32 holding their bytes; of 5..8 bytes: one i64 when
//     8-aligned (so an aligned register pair when variadic, 8-aligned on the stack), else two i32
//     (any two registers, or a7 and the stack, 4-aligned on the stack); results of 5..8 bytes in
//     a0/a1 either way (one i64);
//   larger aggregates: the address of a copy the caller makes (arguments), the address of the
//     caller's result object as a hidden first argument (results, `sret`);
//   empty structs (size 0, a GNU extension): no value at all, not even a register.
import { isRecord, type CType } from './ctype';
import type { IrType } from './ir';

export type Passing =
  /** A scalar as it is. */
  | { k: 'direct'; ty: IrType }
  /** A narrow integer (ty i8 / i16) as an i32, extended. */
  | { k: 'extend'; ty: IrType; signed: boolean }
  /** An aggregate's bytes as integers, in order from its start. */
  | { k: 'coerce'; parts: IrType[] }
  /** An aggregate by address. */
  | { k: 'indirect' }
  | { k: 'ignore' };

/** How an argument (a parameter) of type `t` travels. */
export function argPassing(t: CType): Passing {
  if (t.kind === 'void') return { k: 'ignore' };
  if (isRecord(t)) {
    if (t.size === 0) return { k: 'ignore' };
    if (t.size <= 4) return { k: 'coerce', parts: ['i32'] };
    if (t.size <= 8) return { k: 'coerce', parts: t.align >= 8 ? ['i64'] : ['i32', 'i32'] };
    return { k: 'indirect' };
  }
  const ty = irType(t);
  if (ty === 'i8' || ty === 'i16') return { k: 'extend', ty, signed: t.kind !== 'vector' && t.kind !== 'bool' && !t.unsigned };
  return { k: 'direct', ty };
}

/** How a result of type `t` comes back: like an argument, but 5..8-byte aggregates as one i64 (a0, a1) and larger ones through `sret`. */
export function retPassing(t: CType): Passing {
  const p = argPassing(t);
  return p.k === 'coerce' && p.parts.length === 2 ? { k: 'coerce', parts: ['i64'] } : p;
}

/** The IR values of a passing, in order (an indirect aggregate: its address). */
export function passingTypes(p: Passing): IrType[] {
  switch (p.k) {
    case 'direct': return [p.ty];
    case 'extend': return ['i32'];
    case 'coerce': return p.parts;
    case 'indirect': return ['ptr'];
    case 'ignore': return [];
  }
}

/** Bytes a coerced aggregate's parts cover (its temporaries' size). */
export function coercedBytes(parts: readonly IrType[]): number {
  return parts.reduce((n, p) => n + (p === 'i64' ? 8 : 4), 0);
}

/** The IR type a C scalar is held in. */
export function irType(t: CType): IrType {
  if (t.kind === 'ptr') return 'ptr';
  switch (t.size) {
    case 1: return 'i8';
    case 2: return 'i16';
    case 8: return 'i64';
    default: return 'i32';
  }
}
