// Fold ranges of generated C, computed from the text alone: every `{ ... }` block spanning
// lines, and which of them start folded (the long constant initializers of the weights and
// the test data, so a 2 MB weights file opens as a list of declarations). Pure: no Monaco.

/** A `{ ... }` block over several lines (1-based lines of its `{` and its `}`). */
export interface Block {
  open: number;
  close: number;
  /** `= {`: a variable's initializer rather than a function body or a struct. */
  initializer: boolean;
}

/** A range the editor can fold: line `start` stays visible, lines start+1..end hide. */
export interface FoldRange {
  start: number;
  end: number;
}

/** Initializers hiding at least this many lines start folded. */
export const FOLD_MIN_LINES = 8;

const NL = 10, SLASH = 47, STAR = 42, QUOTE = 34, APOS = 39, BACKSLASH = 92;
const OPEN = 123, CLOSE = 125, EQUALS = 61, SPACE = 32, TAB = 9, CR = 13;

/**
 * The multi-line brace blocks of C source, skipping braces in comments, strings and
 * character literals; an unbalanced `}` is ignored. One pass over the characters: the
 * weights file of microLlama is ~2.4 MB.
 */
export function braceBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const stack: { line: number; initializer: boolean }[] = [];
  let line = 1;
  /** The last character that is not blank, outside comments (for `= {`). */
  let prev = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === NL) { line++; continue; }
    if (c === SPACE || c === TAB || c === CR) continue;
    if (c === SLASH && text.charCodeAt(i + 1) === SLASH) {
      while (i + 1 < n && text.charCodeAt(i + 1) !== NL) i++;
      continue;
    }
    if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      i += 2;
      while (i < n && !(text.charCodeAt(i) === STAR && text.charCodeAt(i + 1) === SLASH)) {
        if (text.charCodeAt(i) === NL) line++;
        i++;
      }
      i++; // onto the '/' of '*/'
      continue;
    }
    if (c === QUOTE || c === APOS) {
      // A literal ends at its closing quote or, if unterminated, at the end of the line.
      while (i + 1 < n) {
        const d = text.charCodeAt(++i);
        if (d === BACKSLASH) i++;
        else if (d === c) break;
        else if (d === NL) { line++; break; }
      }
      prev = c;
      continue;
    }
    if (c === OPEN) stack.push({ line, initializer: prev === EQUALS });
    else if (c === CLOSE) {
      const b = stack.pop();
      if (b && line > b.line) blocks.push({ open: b.line, close: line, initializer: b.initializer });
    }
    prev = c;
  }
  return blocks.sort((a, b) => a.open - b.open || b.close - a.close);
}

/** The fold range of a block: its `{` line shows, the lines up to its `}` hide. */
export function foldOf(b: Block): FoldRange | null {
  return b.close - 1 > b.open ? { start: b.open, end: b.close - 1 } : null;
}

/** All blocks as fold ranges (what the editor's folding provider offers). */
export function foldRanges(blocks: readonly Block[]): FoldRange[] {
  return blocks.map(foldOf).filter((r): r is FoldRange => r !== null);
}

/** The outermost initializers that hide at least `minLines` lines: folded when a file opens. */
export function defaultFolds(blocks: readonly Block[], minLines = FOLD_MIN_LINES): FoldRange[] {
  const out: FoldRange[] = [];
  let coveredTo = 0;
  for (const b of blocks) {
    if (b.open <= coveredTo) continue; // nested in a folded initializer: it hides with it
    const r = foldOf(b);
    if (b.initializer && r && r.end - r.start >= minLines) {
      out.push(r);
      coveredTo = b.close;
    }
  }
  return out;
}

/** How many lines the folds hide. */
export function hiddenLines(folds: readonly FoldRange[]): number {
  return folds.reduce((s, f) => s + f.end - f.start, 0);
}
