// Comparing two objects section by section (contents byte for byte, relocations as type, offset,
// symbol, addend): the differential test's yardstick against clang-19's integrated assembler.
// Pure data in, differences out; the tests supply the objects.
import { RELOC_NAMES } from './types';
import type { AsmObject } from './types';

/** Sections one side makes and the other need not: clang's address-significance table, .comment. */
export const NOT_COMPARED = /^(\.llvm_addrsig|\.comment|\.debug_.*|\.note\.GNU-stack)$/;

export interface Comparison { sections: number; bytes: number; relocs: number; differences: string[] }

export function compareObjects(ours: AsmObject, ref: AsmObject, ignore = NOT_COMPARED): Comparison {
  const out: Comparison = { sections: 0, bytes: 0, relocs: 0, differences: [] };
  const diff = (s: string) => { if (out.differences.length < 200) out.differences.push(s); };
  const names = new Set([...ours.sections, ...ref.sections].map((s) => s.name).filter((n) => !ignore.test(n)));
  for (const name of names) {
    const a = ours.sections.find((s) => s.name === name);
    const b = ref.sections.find((s) => s.name === name);
    if (!a || !b) {
      if ((a ?? b)!.size === 0) continue;
      diff(`${name}: only in ${a ? 'ours' : 'clang'}`);
      continue;
    }
    out.sections++;
    if (a.size !== b.size) diff(`${name}: size ${a.size}, clang ${b.size}`);
    if (a.type !== b.type || a.flags !== b.flags) diff(`${name}: type/flags ${a.type}/${a.flags}, clang ${b.type}/${b.flags}`);
    const n = Math.min(a.data.length, b.data.length);
    out.bytes += n;
    for (let i = 0; i < n; i++) {
      if (a.data[i] !== b.data[i]) { diff(`${name}+0x${i.toString(16)}: byte ${a.data[i]}, clang ${b.data[i]}`); break; }
    }
    const key = (r: { offset: number; type: number; symbol: string; addend: number }) =>
      `0x${r.offset.toString(16)} ${RELOC_NAMES[r.type] ?? r.type} ${r.symbol}${r.addend ? `+${r.addend}` : ''}`;
    // Relocations at one offset may come in any order; R_RISCV_RELAX never comes from -mno-relax.
    const ra = a.relocs.map(key).sort();
    const rb = b.relocs.map(key).sort();
    out.relocs += rb.length;
    const sa = new Set(ra);
    const sb = new Set(rb);
    for (const r of rb) if (!sa.has(r)) diff(`${name}: clang has relocation ${r}, ours not`);
    for (const r of ra) if (!sb.has(r)) diff(`${name}: ours has relocation ${r}, clang not`);
  }
  return out;
}
