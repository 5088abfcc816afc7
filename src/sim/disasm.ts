// The disassembler: decodes with the ISA table and prints each row's format syntax, in LLVM's
// no-aliases spelling (what `llvm-objdump -M no-aliases --no-print-imm-hex` prints).
import { decodeRow, operands } from './isa/table';
import type { Row } from './isa/table';

export const REG_NAMES = [
  'zero', 'ra', 'sp', 'gp', 'tp', 't0', 't1', 't2', 's0', 's1', 'a0', 'a1', 'a2', 'a3', 'a4', 'a5',
  'a6', 'a7', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9', 's10', 's11', 't3', 't4', 't5', 't6',
] as const;

/** CSR names the disassembler prints (others print as a number, as LLVM does). */
export const CSR_NAMES: Readonly<Record<number, string>> = {
  0x300: 'mstatus', 0x301: 'misa', 0x304: 'mie', 0x305: 'mtvec', 0x306: 'mcounteren', 0x320: 'mcountinhibit',
  0x340: 'mscratch', 0x341: 'mepc', 0x342: 'mcause', 0x343: 'mtval', 0x344: 'mip',
  0xb00: 'mcycle', 0xb02: 'minstret', 0xb80: 'mcycleh', 0xb82: 'minstreth',
  0xc00: 'cycle', 0xc01: 'time', 0xc02: 'instret', 0xc80: 'cycleh', 0xc81: 'timeh', 0xc82: 'instreth',
  0xf11: 'mvendorid', 0xf12: 'marchid', 0xf13: 'mimpid', 0xf14: 'mhartid',
};

export interface Disassembled {
  pc: number;
  /** The instruction word (the low 16 bits for a compressed one). */
  word: number;
  size: 2 | 4;
  /** e.g. 'addi a0, a1, -5'; 'unknown' for an illegal word. */
  text: string;
  row?: Row;
}

const hex = (v: number) => `0x${(v >>> 0).toString(16)}`;

function fenceSet(bits: number): string {
  const s = ['i', 'o', 'r', 'w'].filter((_, i) => bits & (8 >> i)).join('');
  return s || '0';
}

/** Disassembles one instruction word found at `pc`. */
export function disassemble(word: number, pc = 0): Disassembled {
  const size: 2 | 4 = (word & 3) === 3 ? 4 : 2;
  const w = size === 2 ? word & 0xffff : word >>> 0;
  const row = decodeRow(w);
  if (!row) return { pc, word: w, size, text: 'unknown' };
  const o = operands(row.format, w);
  const syntax = row.syntax ?? row.format.syntax;
  const ops = syntax.replace(/\{(\w+)(#?)\}/g, (_, tok: string, num: string) => {
    if (num) return String(o[tok as keyof typeof o]);
    switch (tok) {
      case 'rd': return REG_NAMES[o.rd];
      case 'rs1': return REG_NAMES[o.rs1];
      case 'rs2': return REG_NAMES[o.rs2];
      case 'rs3': return REG_NAMES[o.aux];
      case 'imm': return String(o.imm);
      case 'aux': return String(o.aux);
      case 'uimm': return String(o.imm >>> 0);
      case 'hi20': return String(o.imm >>> 12);
      case 'target': return hex(pc + o.imm);
      case 'csr': return CSR_NAMES[o.imm] ?? String(o.imm);
      case 'pred': return fenceSet(o.aux);
      case 'succ': return fenceSet(o.imm);
      default: throw new Error(`unknown syntax token {${tok}} in row ${row.id}`);
    }
  });
  return { pc, word: w, size, text: ops ? `${row.name} ${ops}` : row.name, row };
}

/** Disassembles a little-endian code buffer loaded at `base`. */
export function disassembleBytes(bytes: Uint8Array, base = 0): Disassembled[] {
  const out: Disassembled[] = [];
  for (let off = 0; off + 2 <= bytes.length;) {
    const lo = bytes[off] | (bytes[off + 1] << 8);
    const word = (lo & 3) === 3 && off + 4 <= bytes.length ? (lo | (bytes[off + 2] << 16) | (bytes[off + 3] << 24)) >>> 0 : lo;
    const d = disassemble(word, base + off);
    out.push(d);
    off += d.size;
  }
  return out;
}
