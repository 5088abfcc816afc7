// The front end's IR: what lower.ts produces, interp.ts runs, and the optimiser and RV32 back end
// will consume.
//
//   Module   = globals (bytes + relocations, section, alignment) and functions.
//   Function = stack slots (size, alignment: every C local and temporary object lives in one)
//              + basic blocks; block 0 is the entry. Parameters arrive in vregs 0..n-1 (a
//              function returning an aggregate over 8 bytes gets the result's address as an
//              extra vreg 0, `sret`). C values cross calls as callconv.ts says (ilp32 psABI).
//   Block    = three-address instructions; the last one is the terminator (br, jmp, switch,
//              ret, unreachable). Nothing falls through.
//   Inst     = op, type (i8 i16 i32 i64 ptr), destination vreg (-1 if none), argument vregs,
//              plus per-op fields below, and `loc` (file:line) for the line table.
//
// Every vreg is assigned exactly once in the instruction stream (the front end never reuses
// one), so the IR is SSA over vregs already; C variables are memory (slot + load/store), and
// a later mem2reg pass promotes the slots whose address is not taken into vregs with phis.
// Values: i8/i16 vregs only exist between a load and an extension, or a truncation and a
// store; arithmetic and comparisons are done at i32, i64 or ptr.
//
//   const   dst = imm                          addr  dst = &sym (a global or function)
//   slot    dst = &slot[n]                     vastart dst = address of the first anonymous argument
//   add sub mul sdiv udiv srem urem and or xor shl lshr ashr    dst = a op b
//   eq ne slt sle sgt sge ult ule ugt uge      dst:i32 = a cmp b (operands of type `ty`)
//   sext zext trunc                            dst:ty = conv a:from
//   load    dst:ty = [a]                       store [a] = b:ty
//   memcpy  [a] <- [b], c bytes                memset [a] <- b (byte), c bytes
//   clz ctz popcount bswap                     dst = op a
//   call    dst = callee(args)  (`callee` a symbol, or args[0] when `indirect`; `nfixed`
//           fixed arguments, the rest variadic; `argTys` the argument types)
//   asm     outputs (dst vregs of outConstraints) = template(inputs), clobbers
//   br a ? t : f   jmp t   switch a: cases[i] -> targets[i+1], else targets[0]   ret a?   unreachable
//   phi     dst = args[i] when control came from block targets[i]  (only at the start of a block,
//           before any other instruction; one entry per predecessor edge; made by mem2reg)
//   copy    dst = a  (a plain move: out-of-SSA and the optimiser's value forwarding)
//
// Packed vectors (GCC vector_size(4) of 8- or 16-bit elements) are i32 values whose lanes are
// `lane` bits wide (lane 0 the least significant). Lane-wise ops, all i32 (see vec32 in interp.ts):
//   vsplat  dst = a's low `lane` bits in every lane
//   vadd vsub                                  lane = a.lane op b.lane, wrapping
//   vshl vlshr vashr                           lane = a.lane shifted by (b.lane mod `lane`)
//   veq vne vslt vsle vsgt vsge vult vule vugt vuge   lane = -1 when a.lane cmp b.lane, else 0
// Bitwise and/or/xor of packed vectors are the plain i32 ops; lane reads are shifts and masks.
export type IrType = 'i8' | 'i16' | 'i32' | 'i64' | 'ptr';

export type Op =
  | 'const' | 'addr' | 'slot' | 'vastart'
  | 'add' | 'sub' | 'mul' | 'sdiv' | 'udiv' | 'srem' | 'urem' | 'and' | 'or' | 'xor' | 'shl' | 'lshr' | 'ashr'
  | 'eq' | 'ne' | 'slt' | 'sle' | 'sgt' | 'sge' | 'ult' | 'ule' | 'ugt' | 'uge'
  | 'sext' | 'zext' | 'trunc'
  | 'load' | 'store' | 'memcpy' | 'memset'
  | 'clz' | 'ctz' | 'popcount' | 'bswap'
  | VecOp
  | 'call' | 'asm' | 'phi' | 'copy'
  | 'br' | 'jmp' | 'switch' | 'ret' | 'unreachable';

/** The lane-wise ops on packed vectors (an i32 of 8- or 16-bit lanes). */
export type VecOp =
  | 'vsplat' | 'vadd' | 'vsub' | 'vshl' | 'vlshr' | 'vashr'
  | 'veq' | 'vne' | 'vslt' | 'vsle' | 'vsgt' | 'vsge' | 'vult' | 'vule' | 'vugt' | 'vuge';

export const VEC_OPS: ReadonlySet<Op> = new Set<Op>([
  'vsplat', 'vadd', 'vsub', 'vshl', 'vlshr', 'vashr', 'veq', 'vne', 'vslt', 'vsle', 'vsgt', 'vsge', 'vult', 'vule', 'vugt', 'vuge',
]);

export function isVecOp(op: Op): op is VecOp {
  return VEC_OPS.has(op);
}

export interface Inst {
  op: Op;
  ty: IrType;
  dst: number;
  args: number[];
  /** file:line of the C that produced it. */
  loc: string;
  /** const: the value (i64 as bigint, others as a number). slot: the slot's index. */
  imm?: number | bigint;
  /** addr, call: the symbol. */
  sym?: string;
  /** sext/zext/trunc: the source type. */
  from?: IrType;
  /** br, jmp, switch: block indices; phi: the predecessor block of each argument. */
  targets?: number[];
  /** switch: case values (compared at `ty`). */
  cases?: bigint[];
  /** call */
  indirect?: boolean;
  nfixed?: number;
  argTys?: IrType[];
  /** asm */
  asm?: AsmInfo;
  /** load, store: of a volatile object (kept, in order, however unused). */
  volatile?: boolean;
  /** Vector ops: the lane width in bits. */
  lane?: 8 | 16;
  /** Loops: the `#pragma`s written before the loop, on the loop header's first instruction. */
  pragmas?: string[];
}

export interface AsmInfo {
  template: string;
  /** Output constraints ("=r", "+r"); their results are the instruction's `outs` vregs. */
  outputs: string[];
  outs: number[];
  /** Input constraints ("r", "i", "0"); the inputs are the instruction's args. */
  inputs: string[];
  clobbers: string[];
  volatile: boolean;
  /** Operands that are register variables (`register long x __asm__("a0")`): their register, per output and per input. */
  outRegs?: (string | undefined)[];
  inRegs?: (string | undefined)[];
}

export interface Block {
  insts: Inst[];
}

export interface Slot {
  size: number;
  align: number;
  /** The C name, for dumps and the debugger ('' for temporaries). */
  name: string;
}

export interface IrFunction {
  name: string;
  /** Parameter types, in vregs 0.. (the sret pointer first when `sret`). */
  params: IrType[];
  /** The return type, or undefined for void (and for sret functions). */
  ret: IrType | undefined;
  sret: boolean;
  variadic: boolean;
  isStatic: boolean;
  slots: Slot[];
  blocks: Block[];
  /** Vreg count. */
  nregs: number;
  attrs: { alwaysInline?: boolean; noinline?: boolean; noreturn?: boolean; section?: string; /** declared `inline`: a larger inlining budget */ inlineHint?: boolean };
  loc: string;
}

export interface IrGlobal {
  name: string;
  size: number;
  align: number;
  /** Undefined for zero-initialised data (.bss). */
  bytes: Uint8Array | undefined;
  relocs: { offset: number; symbol: string; addend: number }[];
  section?: string;
  isStatic: boolean;
  readonly: boolean;
}

export interface IrModule {
  globals: IrGlobal[];
  functions: IrFunction[];
  /** Symbols used but not defined here (functions and data from other files). */
  externs: string[];
}

/** The IR as text, for tests and dumps. */
export function printFunction(f: IrFunction): string {
  const out = [`function ${f.name}(${f.params.join(', ')})${f.ret ? ` -> ${f.ret}` : ''}`];
  f.slots.forEach((s, i) => out.push(`  slot${i}: ${s.size} align ${s.align}${s.name ? ` ; ${s.name}` : ''}`));
  f.blocks.forEach((b, i) => {
    out.push(`b${i}:`);
    for (const x of b.insts) out.push(`  ${printInst(x)}`);
  });
  return out.join('\n');
}

export function printInst(x: Inst): string {
  const d = x.dst >= 0 ? `%${x.dst} = ` : '';
  const a = x.args.map((r) => `%${r}`).join(', ');
  const extra = [
    x.imm !== undefined ? String(x.imm) : '', x.lane ? `lane ${x.lane}` : '', x.sym ?? '', x.from ? `from ${x.from}` : '',
    x.targets ? x.targets.map((t, i) => (x.cases && i > 0 ? `${x.cases[i - 1]}: b${t}` : `b${t}`)).join(' ') : '',
    x.asm ? JSON.stringify(x.asm.template) : '',
  ].filter(Boolean).join(' ');
  return `${d}${x.op} ${x.ty} ${[a, extra].filter(Boolean).join(', ')}`;
}
