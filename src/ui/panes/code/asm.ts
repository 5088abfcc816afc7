// The code pane's assembly view, as plain data: a function of the program disassembled row by
// row, each row with its source line (the line table) and the cycles the profile attributed to
// its address; the functions ranked by those cycles; the functions holding a source line. The
// line table names files as the compiler saw them ('/kernels/gemm.c', a host path for clang);
// sourceResolver maps them onto the code pane's paths. Pure: no Monaco, no React.
import { disassemble } from '../../../sim/disasm';
import { lineAt } from '../../../sim/link/lines';
import type { ProgramSymbol } from '../../../sim/link/link';
import type { ProgramView } from '../../../sim/profile/program';
import type { PcHeat } from '../../../sim/profile/types';

/** One instruction of a function. */
export interface AsmRow {
  pc: number;
  size: 2 | 4;
  word: number;
  /** e.g. 'addi a0, a1, -5'; a jump or branch names its target's function ('jal ra, 0x1c000058 <hal_core_id>'). */
  text: string;
  /** Its source file (a code pane path when `inPane`, else the line table's name) and line; null without one. */
  file: string | null;
  line: number;
  inPane: boolean;
  /** Cycles retired and stalled at this address over the run (all cores), and the stall cycles among them. */
  cycles: number;
  stalls: number;
}

/** A function with the cycles spent in it (0 without a profile). */
export interface RankedFunction {
  fn: ProgramSymbol;
  cycles: number;
  stalls: number;
}

/** Maps a line table file name to a code pane path, or null when the pane has no such file. */
export type Resolve = (name: string) => string | null;

const baseName = (p: string) => p.replace(/^.*[\\/]/, '');

/**
 * The resolver for the code pane's `paths`: an exact match without the leading '/', else the
 * one path with the longest common tail of folders ('/tmp/x/kernels/gemm.c' -> 'kernels/gemm.c'),
 * else null (two candidates equally good, or none with that file name).
 */
export function sourceResolver(paths: readonly string[]): Resolve {
  const known = new Set(paths);
  const byBase = new Map<string, string[]>();
  for (const p of paths) {
    const b = baseName(p);
    byBase.set(b, [...(byBase.get(b) ?? []), p]);
  }
  const memo = new Map<string, string | null>();
  return (name) => {
    let out = memo.get(name);
    if (out !== undefined) return out;
    const bare = name.replace(/\\/g, '/').replace(/^\.?\/+/, '');
    if (known.has(bare)) out = bare;
    else {
      const parts = bare.split('/');
      let best: string | null = null, bestScore = -1, tie = false;
      for (const p of byBase.get(baseName(bare)) ?? []) {
        const q = p.split('/');
        let n = 0;
        while (n < q.length && n < parts.length && q[q.length - 1 - n] === parts[parts.length - 1 - n]) n++;
        // Every folder of the pane's path must be in the name: 'runtime/x.h' is no match for '/kernels/x.h'.
        if (n < q.length) continue;
        if (n > bestScore) { best = p; bestScore = n; tie = false; } else if (n === bestScore) tie = true;
      }
      out = tie ? null : best;
    }
    memo.set(name, out);
    return out;
  };
}

/** Index of the first heat entry at or after `pc`. */
function lowerBound(pcs: Uint32Array, pc: number): number {
  let lo = 0, hi = pcs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pcs[mid]! < pc) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** Cycles and stalls at the pcs of [from, to). */
export function heatIn(heat: PcHeat, from: number, to: number): { cycles: number; stalls: number } {
  let cycles = 0, stalls = 0;
  for (let i = lowerBound(heat.pc, from); i < heat.pc.length && heat.pc[i]! < to; i++) {
    cycles += heat.cycles[i]!;
    stalls += heat.stalls[i]!;
  }
  return { cycles, stalls };
}

const hex = (v: number) => `0x${(v >>> 0).toString(16)}`;

// The functions by address, for a binary search (a program has hundreds; the line table, tens of thousands of rows).
const sortedCache = new WeakMap<readonly ProgramSymbol[], ProgramSymbol[]>();
function sorted(fns: readonly ProgramSymbol[]): ProgramSymbol[] {
  let s = sortedCache.get(fns);
  if (!s) sortedCache.set(fns, (s = [...fns].sort((a, b) => a.addr - b.addr)));
  return s;
}

/** The function holding `pc`, or undefined. */
export function functionAt(fns: readonly ProgramSymbol[], pc: number): ProgramSymbol | undefined {
  const s = sorted(fns);
  let lo = 0, hi = s.length - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid]!.addr <= pc) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  const f = s[found];
  return f && pc < f.addr + f.size ? f : undefined;
}

/** The instruction word at `pc` (the low 16 bits for a compressed one), or undefined outside the code. */
function wordAt(p: ProgramView, pc: number): number | undefined {
  const off = pc - p.addr;
  if (off < 0 || off + 2 > p.bytes.length) return undefined;
  const lo = p.bytes[off]! | (p.bytes[off + 1]! << 8);
  if ((lo & 3) !== 3) return lo;
  if (off + 4 > p.bytes.length) return undefined;
  return (lo | (p.bytes[off + 2]! << 16) | (p.bytes[off + 3]! << 24)) >>> 0;
}

/** The function's instructions, from its address to its end, with their source lines and heat. */
export function functionRows(p: ProgramView, fn: ProgramSymbol, heat: PcHeat | undefined, resolve: Resolve): AsmRow[] {
  const rows: AsmRow[] = [];
  let h = heat ? lowerBound(heat.pc, fn.addr) : 0;
  let auipc: { reg: string; base: number } | undefined;
  for (let pc = fn.addr; pc < fn.addr + fn.size;) {
    const word = wordAt(p, pc);
    if (word === undefined) break;
    const d = disassemble(word, pc);
    let text = d.text;
    // A jump, branch or call target: name the function it lands in, as objdump does. A far call
    // is `auipc ra, hi` then `jalr ra, lo(ra)`: its target is the auipc's pc + hi << 12 + lo.
    let to: number | undefined;
    const target = /(0x[0-9a-f]+)$/.exec(text);
    if (target && (d.row?.syntax ?? d.row?.format.syntax ?? '').includes('{target}')) to = Number(target[1]);
    const jalr = /^jalr \w+, (-?\d+)\((\w+)\)$/.exec(text);
    if (jalr && auipc && auipc.reg === jalr[2]) to = (auipc.base + Number(jalr[1])) >>> 0;
    const hi = /^auipc (\w+), (\d+)$/.exec(text);
    auipc = hi ? { reg: hi[1]!, base: (pc + Number(hi[2]) * 4096) >>> 0 } : undefined;
    const callee = to !== undefined ? functionAt(p.functions, to) : undefined;
    if (to !== undefined && callee) text += to === callee.addr ? ` <${callee.name}>` : ` <${callee.name}+${hex(to - callee.addr)}>`;
    const src = lineAt(p.lines, pc);
    const path = src ? resolve(src.file) : null;
    let cycles = 0, stalls = 0;
    if (heat) {
      while (h < heat.pc.length && heat.pc[h]! < pc) h++;
      if (heat.pc[h] === pc) { cycles = heat.cycles[h]!; stalls = heat.stalls[h]!; }
    }
    rows.push({
      pc, size: d.size, word: d.word, text,
      file: src ? path ?? src.file.replace(/^\/+/, '') : null, line: src?.line ?? 0, inPane: path !== null,
      cycles, stalls,
    });
    pc += d.size;
  }
  return rows;
}

/** The functions, hottest first (then by address); by address without a profile. */
export function rankFunctions(p: ProgramView, heat: PcHeat | undefined): RankedFunction[] {
  const out = p.functions.map((fn) => ({ fn, ...(heat ? heatIn(heat, fn.addr, fn.addr + fn.size) : { cycles: 0, stalls: 0 }) }));
  return out.sort((a, b) => b.cycles - a.cycles || a.fn.addr - b.fn.addr);
}

/** The functions with code from `file`:`line` (a code pane path), in the order of `ranked`. */
export function functionsAtLine(p: ProgramView, resolve: Resolve, file: string, line: number, ranked: readonly RankedFunction[]): ProgramSymbol[] {
  const ids = p.lines.files.map((f) => resolve(f) === file);
  const addrs = new Set<number>();
  const rows = p.lines.rows;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.file < 0 || r.line !== line || !ids[r.file]) continue;
    // The row covers [addr, next row): it may be empty (two rows at one address).
    const end = rows[i + 1]?.addr ?? r.addr;
    if (end <= r.addr) continue;
    const f = functionAt(p.functions, r.addr);
    if (f) addrs.add(f.addr);
  }
  return ranked.filter((r) => addrs.has(r.fn.addr)).map((r) => r.fn);
}

/**
 * The function to show: the chosen one when the program has it, else the hottest with code in the
 * file shown, else the hottest (the first by address without a profile).
 */
export function defaultFunction(p: ProgramView, ranked: readonly RankedFunction[], chosen: { name: string; addr: number } | null,
  shown: string, resolve: Resolve): ProgramSymbol | undefined {
  // By name and address; by name alone after a rebuild moved it (the hottest of that name).
  const pick = chosen && (p.functions.find((f) => f.name === chosen.name && f.addr === chosen.addr)
    ?? ranked.find((r) => r.fn.name === chosen.name)?.fn);
  if (pick) return pick;
  const ids = p.lines.files.map((f) => resolve(f) === shown);
  const inShown = new Set<number>();
  for (const r of p.lines.rows) {
    if (r.file < 0 || !ids[r.file]) continue;
    const f = functionAt(p.functions, r.addr);
    if (f) inShown.add(f.addr);
  }
  return ranked.find((r) => inShown.has(r.fn.addr))?.fn ?? ranked[0]?.fn;
}

/** The function of a layer's kernel: the hottest (the first by address without a profile) of the library functions it calls. */
export function kernelFunction(ranked: readonly RankedFunction[], calls: readonly string[]): ProgramSymbol | undefined {
  const wanted = new Set(calls);
  return ranked.find((r) => wanted.has(r.fn.name))?.fn;
}
