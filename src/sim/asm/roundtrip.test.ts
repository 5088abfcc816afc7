// Every row of the ISA table, both ways: random operands encoded with the table's encode,
// printed by the disassembler, assembled again: the same word. The table is the one source of
// the operand syntax, so this checks the assembler reads exactly what the disassembler writes.
import { describe, expect, it } from 'vitest';
import { disassemble } from '../disasm';
import { encode } from '../isa/encode';
import { TABLE, decodeRow, operands } from '../isa/table';
import { assemble } from './assembler';

const PER_ROW = 16;

describe('assembler round trip over the ISA table', () => {
  it('assembles what the disassembler prints, for every row', () => {
    let seed = 99;
    const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
    const failures: string[] = [];
    let checked = 0;
    const covered = new Set<string>();
    for (const r of TABLE) {
      for (let i = 0, tries = 0; i < PER_ROW && tries < 200; tries++) {
        const raw = ((tries === 0 ? r.match : r.match | (rand() & ~r.mask)) >>> 0) & (r.size === 2 ? 0xffff : 0xffffffff);
        if (decodeRow(raw)?.id !== r.id) continue;
        const word = encode(r.id, operands(r.format, raw));
        i++;
        const text = disassemble(word, 0).text;
        // Compressed rows are written explicitly; base rows must not be compressed behind our back.
        const src = `${r.size === 2 ? '.option rvc' : '.option norvc'}\n${text}\n`;
        let got: number | string;
        try {
          const obj = assemble(src, { arch: '' });
          const d = obj.sections[0].data;
          got = r.size === 2 ? d[0] | (d[1] << 8) : (d[0] | (d[1] << 8) | (d[2] << 16) | (d[3] << 24)) >>> 0;
          if (d.length !== r.size) got = `${d.length} bytes`;
        } catch (e) {
          got = (e as Error).message;
        }
        checked++;
        covered.add(r.id);
        if (got !== word) failures.push(`${r.id}: '${text}' (0x${word.toString(16)}) -> ${typeof got === 'number' ? `0x${got.toString(16)}` : got}`);
      }
    }
    expect(failures.slice(0, 30)).toEqual([]);
    expect(TABLE.filter((r) => !covered.has(r.id)).map((r) => r.id)).toEqual([]);
    expect(checked).toBeGreaterThan(TABLE.length * 4);
  });
});
