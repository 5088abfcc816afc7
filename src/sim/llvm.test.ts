// Cross-check of the ISA table against LLVM 19: for every row (but the hardware loops, which
// LLVM 19 lacks), random words from the row's encoding space are disassembled by
// llvm-objdump-19 and by our disassembler; the texts must agree. (LLVM 19 still spells
// cv.sle / cv.sleu as cv.slet / cv.sletu, the manual's older names.)
import { describe, expect, it } from 'vitest';
import { CSR_NAMES, disassemble } from './disasm';
import { TABLE } from './isa/table';
import type { Row } from './isa/table';
import { assemble, llvmDisassemble } from './testing/toolchain';
import { CLANG_19, OBJDUMP_19, missing } from '../testing/requires';

const WORDS_PER_ROW = 24;

/**
 * Words LLVM reserves although our decoder accepts them (we execute them the obvious way):
 * RVC hints and reserved forms, and CORE-V immediates LLVM range-checks more tightly.
 */
function llvmReserved(r: Row, w: number): boolean {
  const rd = (w >> 7) & 31;
  const lo = (w >> 2) & 31;
  const cImm = ((w >> 7) & 0x20) | lo;
  switch (r.id) {
    case 'c.addi4spn': return ((w >> 5) & 0xff) === 0;
    case 'c.addi': return rd === 0 || cImm === 0;
    case 'c.li': case 'c.lwsp': case 'c.slli': case 'c.mv': case 'c.add': return rd === 0 || (r.id === 'c.slli' && lo === 0);
    case 'c.lui': return rd === 0 || cImm === 0;
    case 'c.addi16sp': return cImm === 0;
    case 'c.srli': case 'c.srai': return lo === 0;
    case 'c.jr': return rd === 0;
    default: break;
  }
  const imm6 = (((w >> 20) & 31) << 1) | ((w >> 25) & 1);
  if (/^cv\.(srl|sra|sll)\.sci\.h$/.test(r.id)) return imm6 > 15;
  if (/^cv\.(srl|sra|sll)\.sci\.b$/.test(r.id)) return imm6 > 7;
  // Post-increment loads with rd == rs1 are rejected by LLVM's decoder.
  if (/^cv\.l.*_inc$/.test(r.id)) return rd === ((w >> 15) & 31);
  return false;
}

describe.skipIf(missing(CLANG_19, OBJDUMP_19))('disassembler agrees with llvm-objdump-19', () => {
  it('on random words of every row', () => {
    let seed = 7;
    const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
    const words: { w: number; row: Row }[] = [];
    const csrs = Object.keys(CSR_NAMES).map(Number);
    for (const r of TABLE) {
      if (r.ext === 'Xcvhwlp') continue;
      const picked = new Set<number>();
      for (let i = 0, tries = 0; i < WORDS_PER_ROW && tries < 400; tries++) {
        const raw = (i === 0 && tries === 0 ? r.match : (r.match | (rand() & ~r.mask))) >>> 0;
        let w = r.size === 2 ? raw & 0xffff : raw;
        // CSR numbers: only those our table names (LLVM names hundreds more).
        if (r.ext === 'Zicsr') w = ((w & 0xfffff) | (csrs[rand() % csrs.length] << 20)) >>> 0;
        if (disassemble(w).row?.id !== r.id || llvmReserved(r, w) || picked.has(w)) continue;
        picked.add(w);
        words.push({ w, row: r });
        i++;
      }
    }
    const src = ['.option norelax', '.text', ...words.map(({ w, row }) => `.insn ${row.size}, 0x${w.toString(16)}`)].join('\n');
    const llvm = llvmDisassemble(assemble(src, 'xcheck'));
    const mismatches: string[] = [];
    const seen = new Set<string>();
    let pc = 0;
    for (const { w, row } of words) {
      const ours = disassemble(w, pc).text;
      const theirs = (llvm.get(pc) ?? '(nothing)').replace(/^cv\.slet(u?) /, 'cv.sle$1 ');
      if (ours !== theirs) mismatches.push(`${row.id} 0x${w.toString(16)}: ours '${ours}', llvm '${theirs}'`);
      seen.add(row.id);
      pc += row.size;
    }
    expect(mismatches.slice(0, 40)).toEqual([]);
    // Every non-hwloop row took part.
    expect(TABLE.filter((r) => r.ext !== 'Xcvhwlp' && !seen.has(r.id)).map((r) => r.id)).toEqual([]);
  });
});
