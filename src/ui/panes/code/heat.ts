// Cycle heat per source line, for the editor's gutter: the profile's per-pc cycles summed over
// the pcs the line table maps to each line of each code pane file (the profile's own `lines` name
// files without their folder; the pane needs its paths: 'kernels/elementwise.c' and
// 'runtime/...' can share a name). And how hot is hot: levels for the gutter, numbers as
// the pane prints them. Pure.
import { lineAt } from '../../../sim/link/lines';
import type { ProgramView } from '../../../sim/profile/program';
import type { PcHeat } from '../../../sim/profile/types';
import type { Resolve } from './asm';

export interface LineCycles {
  cycles: number;
  stalls: number;
}

/** Per code pane path, per line: the cycles at its pcs. */
export interface FileHeat {
  files: Map<string, Map<number, LineCycles>>;
  /** Cycles of all pcs (the share's denominator), and those the pane's files hold. */
  total: number;
  placed: number;
}

export function lineHeat(p: ProgramView, heat: PcHeat, resolve: Resolve): FileHeat {
  const files = new Map<string, Map<number, LineCycles>>();
  let total = 0, placed = 0;
  for (let i = 0; i < heat.pc.length; i++) {
    const cycles = heat.cycles[i]!;
    total += cycles;
    const src = lineAt(p.lines, heat.pc[i]!);
    const path = src ? resolve(src.file) : null;
    if (!src || !path) continue;
    let lines = files.get(path);
    if (!lines) files.set(path, (lines = new Map()));
    const c = lines.get(src.line) ?? { cycles: 0, stalls: 0 };
    c.cycles += cycles;
    c.stalls += heat.stalls[i]!;
    lines.set(src.line, c);
    placed += cycles;
  }
  return { files, total, placed };
}

/** Gutter intensity levels: 1 the coolest line with cycles, HEAT_LEVELS the hottest. */
export const HEAT_LEVELS = 8;

/**
 * The level of `cycles` against the hottest line `max`: square-root scaled, so a line with a
 * hundredth of the hottest's cycles still shows (level 1 or more whenever cycles > 0).
 */
export function heatLevel(cycles: number, max: number): number {
  if (cycles <= 0 || max <= 0) return 0;
  return Math.max(1, Math.min(HEAT_LEVELS, Math.ceil(HEAT_LEVELS * Math.sqrt(cycles / max))));
}

/** The hottest line's cycles in a file's heat. */
export const maxCycles = (lines: ReadonlyMap<number, LineCycles> | undefined) => {
  let m = 0;
  for (const c of lines?.values() ?? []) if (c.cycles > m) m = c.cycles;
  return m;
};

/** 1234 -> '1,234'; 123456 -> '123 k'; 12345678 -> '12.3 M'. */
export function fmtCycles(n: number): string {
  if (n < 10_000) return n.toLocaleString('en-US');
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 100_000 ? 1 : 0)} k`;
  return `${(n / 1_000_000).toFixed(n < 100_000_000 ? 1 : 0)} M`;
}

/** A share in percent, to one decimal below 10 %. */
export function fmtShare(part: number, whole: number): string {
  if (whole <= 0) return '0 %';
  const p = (100 * part) / whole;
  if (p > 0 && p < 0.05) return '< 0.1 %';
  return `${p < 10 ? p.toFixed(1) : p.toFixed(0)} %`;
}
