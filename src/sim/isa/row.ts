// One row per instruction: the single description that the decoder, the executor and the
// disassembler are generated from / driven by (see table.ts for the whole table).
import type { Format } from './formats';

export type Ext =
  | 'I' | 'M' | 'C' | 'Zicsr' | 'Zifencei'
  | 'Xcvalu' | 'Xcvmac' | 'Xcvsimd' | 'Xcvmem' | 'Xcvbi' | 'Xcvbitmanip' | 'Xcvhwlp';

export interface Row {
  /** Unique key, e.g. 'add', 'c.addi', 'cv.lb.ri_inc' (one mnemonic can have several forms). */
  id: string;
  /** The mnemonic the disassembler prints (LLVM's spelling, without aliases). */
  name: string;
  ext: Ext;
  match: number;
  mask: number;
  size: 2 | 4;
  format: Format;
  /**
   * AssemblyScript statements executing the instruction (every row but the compressed ones).
   * Names in scope: A B C D (values of rs1, rs2, rs3/aux register, old rd), rd rs1 rs2 aux imm
   * (fields), pc, len, stall, ld, W(v) (write rd), WX(r, v) (write register r), memory helpers
   * (LB..SW), CHECK (after a memory helper or CSR access: trap, sleep / exit before the
   * instruction, or add its extra memory cycles; see as/mem.ts), TRAP(cause, tval), STOP(reason),
   * HWSYNC (after changing a hardware loop), HWNEXT (apply a loop end before STOP).
   * Unless `jumps` is set, `pc += len` follows it.
   */
  exec?: string;
  /** Compressed rows: the id of the base row this expands to at decode. */
  expands?: string;
  /** The exec sets pc itself (jumps, branches, traps). */
  jumps?: boolean;
  /** Ids of rows whose encoding space contains this row's; this one wins at decode. */
  over?: string[];
  /** Operand text if it differs from the format's. */
  syntax?: string;
  /**
   * The slot holding a distance in words from this instruction (a hardware loop's start or end):
   * the assembler also takes a label of the same section there.
   */
  wordOffset?: 'imm' | 'aux';
}

/**
 * Match and mask from a bit pattern written MSB first as in the manuals, e.g.
 * '0000000 ----- ----- 000 ----- 0110011': 0 and 1 are fixed bits, '-' is operand space.
 */
export function bits(pattern: string): { match: number; mask: number; size: 2 | 4 } {
  const p = pattern.replace(/[\s_]/g, '');
  if (p.length !== 32 && p.length !== 16) throw new Error(`bit pattern '${pattern}' has ${p.length} bits`);
  let match = 0;
  let mask = 0;
  for (const ch of p) {
    if (ch !== '0' && ch !== '1' && ch !== '-') throw new Error(`bad bit '${ch}' in '${pattern}'`);
    match = (match * 2) + (ch === '1' ? 1 : 0);
    mask = (mask * 2) + (ch === '-' ? 0 : 1);
  }
  return { match: match >>> 0, mask: mask >>> 0, size: p.length === 32 ? 4 : 2 };
}

export function row(id: string, ext: Ext, pattern: string, format: Format, exec: string, opts: Partial<Row> = {}): Row {
  return { id, name: opts.name ?? id, ext, ...bits(pattern), format, exec, ...opts };
}
