// Linking a function's assembly to its C by colour, as Compiler Explorer does: every source line
// with code in the function gets a colour of a small palette, in the order its first instruction
// comes, and its instructions share it; the editor paints those lines with the same colour.
// Colours are CSS classes (code.css: .asm-c0 ...). Pure.
import type { AsmRow } from './asm';

export const PALETTE_SIZE = 10;

export const lineKey = (file: string, line: number) => `${file}:${line}`;

/** Colour index per 'file:line' of the rows that have a source line. */
export function linkColours(rows: readonly AsmRow[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rows) {
    if (r.file === null) continue;
    const k = lineKey(r.file, r.line);
    if (!out.has(k)) out.set(k, out.size % PALETTE_SIZE);
  }
  return out;
}

/** The colours by code pane file and line, for the editor (lines of files the pane shows). */
export function editorColours(rows: readonly AsmRow[], colours: ReadonlyMap<string, number>): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  for (const r of rows) {
    if (r.file === null || !r.inPane) continue;
    let lines = out.get(r.file);
    if (!lines) out.set(r.file, (lines = new Map()));
    lines.set(r.line, colours.get(lineKey(r.file, r.line))!);
  }
  return out;
}

export const colourClass = (i: number | undefined) => (i === undefined ? '' : `asm-c${i}`);
