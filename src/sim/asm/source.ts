// Source text -> statements: comments stripped (`#` to the end of the line), `;` separating
// statements, labels split off, operands split at top-level commas. Each piece keeps its column.
// Preprocessor line markers (`# 12 "file.S"`) move the location diagnostics report.
import type { OperandText } from './insn';

export interface Statement {
  file: string;
  line: number;
  labels: { name: string; col: number }[];
  /** Mnemonic or directive (with its dot), lower case as written; '' for a label-only line. */
  op: string;
  opCol: number;
  /** `sym = expr` assignments are `.set`. */
  operands: OperandText[];
  /** The raw operand text (for directives that read strings). */
  rest: string;
  restCol: number;
}

/** The index of `#` starting a comment, or -1 (string and character literals skipped). */
function commentStart(s: string): number {
  let q = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (q) {
      if (ch === '\\') i++;
      else if (ch === q) q = '';
    } else if (ch === '"') q = '"';
    else if (ch === '#') return i;
  }
  return -1;
}

function splitSemis(s: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  let q = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (q) { if (ch === '\\') i++; else if (ch === '"') q = false; } else if (ch === '"') q = true;
    else if (ch === ';') { out.push({ text: s.slice(start, i), at: start }); start = i + 1; }
  }
  out.push({ text: s.slice(start), at: start });
  return out;
}

/** Splits operand text at commas outside parentheses and strings. */
export function splitOperands(s: string, col: number): OperandText[] {
  const out: OperandText[] = [];
  if (s.trim() === '') return out;
  let depth = 0;
  let q = false;
  let start = 0;
  const push = (end: number) => {
    const raw = s.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    out.push({ text: raw.trim(), col: col + start + lead });
  };
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (q) { if (ch === '\\') i++; else if (ch === '"') q = false; continue; }
    if (ch === '"') q = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) { push(i); start = i + 1; }
  }
  push(s.length);
  return out;
}

const LABEL = /^\s*([A-Za-z_.$][\w.$@]*|[0-9]+|"[^"]*")\s*:(?!=)/;
const OP = /^\s*([A-Za-z_.][\w.]*)/;

/** One statement; its operands are split on demand (string directives read `rest` and never need them). */
class Stmt implements Statement {
  private ops?: OperandText[];
  constructor(
    readonly file: string, readonly line: number, readonly labels: { name: string; col: number }[], readonly op: string,
    readonly opCol: number, readonly rest: string, readonly restCol: number, ops?: OperandText[],
  ) { this.ops = ops; }

  get operands(): OperandText[] { return (this.ops ??= splitOperands(this.rest, this.restCol)); }
}

const NO_LABELS: { name: string; col: number }[] = [];

/** JavaScript's \\s. */
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13) || (c >= 0x80 && /\s/.test(String.fromCharCode(c)));
/** [A-Za-z_.$] (LABEL's first character) and [A-Za-z0-9_.$@] (the rest). */
const isLabelStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 46 || c === 36;
const isLabelChar = (c: number) => isLabelStart(c) || (c >= 48 && c <= 57) || c === 64;
/** [A-Za-z_.] (OP's first character) and [A-Za-z0-9_.] (the rest). */
const isOpStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 46;
const isOpChar = (c: number) => isOpStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number) => c >= 48 && c <= 57;

/** The statements of `text`, in order. */
export function statements(text: string, file: string): Statement[] {
  const out: Statement[] = [];
  let curFile = file;
  let delta = 0;
  let n = 0;
  for (let pos = 0; pos <= text.length; n++) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    let raw = text.slice(pos, end);
    pos = end + 1;
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    // The common line (no comment, string or second statement) is scanned here; others split first.
    let plain = true;
    for (let i = 0; i < raw.length; i++) {
      const c = raw.charCodeAt(i);
      if (c === 35 || c === 34 || c === 59) { plain = false; break; }
    }
    if (plain) {
      scan(raw, 0, curFile, n + 1 + delta, out);
      continue;
    }
    const marker = /^#\s*(?:line\s+)?(\d+)\s+"([^"]*)"/.exec(raw);
    if (marker) {
      curFile = marker[2] || curFile;
      delta = Number(marker[1]) - (n + 2);
      continue;
    }
    const c = commentStart(raw);
    const code = c >= 0 ? raw.slice(0, c) : raw;
    if (code.trim() === '') continue;
    for (const part of splitSemis(code)) scan(part.text, part.at, curFile, n + 1 + delta, out);
  }
  return out;
}

/** One statement's text `s` (at index `at` of its line): labels, then a mnemonic or directive and its operands. */
function scan(s: string, at: number, file: string, line: number, out: Statement[]): void {
  let i = 0;
  const len = s.length;
  let labels = NO_LABELS;
  /** Where the text after the last label starts. */
  let from = 0;
  for (;;) {
    while (i < len && isSpace(s.charCodeAt(i))) i++;
    const c = i < len ? s.charCodeAt(i) : -1;
    if (c === 34) { scanSlow(s, from, at, file, line, labels, out); return; }
    let j = i;
    if (isLabelStart(c)) { j++; while (j < len && isLabelChar(s.charCodeAt(j))) j++; }
    else if (isDigit(c)) { j++; while (j < len && isDigit(s.charCodeAt(j))) j++; }
    if (j === i) break;
    let k = j;
    while (k < len && isSpace(s.charCodeAt(k))) k++;
    if (k < len && s.charCodeAt(k) === 58 && s.charCodeAt(k + 1) !== 61) {
      if (labels === NO_LABELS) labels = [];
      labels.push({ name: s.slice(i, j), col: at + i + 1 });
      i = from = k + 1;
      continue;
    }
    break;
  }
  if (i < len && isOpStart(s.charCodeAt(i))) {
    let j = i + 1;
    while (j < len && isOpChar(s.charCodeAt(j))) j++;
    const after = s.slice(j);
    let k = 0;
    while (k < after.length && isSpace(after.charCodeAt(k))) k++;
    // `sym = expr`
    if (after.charCodeAt(k) === 61 && after.charCodeAt(k + 1) !== 61) { scanSlow(s, from, at, file, line, labels, out); return; }
    out.push(new Stmt(file, line, labels, s.slice(i, j), at + i + 1, after, at + j + 1));
    return;
  }
  const rest = s.slice(from);
  const col = at + from + 1;
  if (i < len) out.push(new Stmt(file, line, labels, '?', col + rest.length - rest.trimStart().length, rest, col, []));
  else if (labels.length) out.push(new Stmt(file, line, labels, '', col, '', col, []));
}

/** The general reading (quoted labels, `sym = expr`), from index `from` of `s` with `labels` read so far. */
function scanSlow(s: string, from: number, at: number, file: string, line: number, labels0: { name: string; col: number }[], out: Statement[]): void {
  const labels = [...labels0];
  let col = at + from + 1;
  s = s.slice(from);
  for (let m = LABEL.exec(s); m; m = LABEL.exec(s)) {
    const lead = m[0].length - m[0].trimStart().length;
    labels.push({ name: m[1].replace(/^"|"$/g, ''), col: col + lead });
    col += m[0].length;
    s = s.slice(m[0].length);
  }
  const om = OP.exec(s);
  if (!om) {
    if (s.trim() !== '') out.push(new Stmt(file, line, labels, '?', col + s.length - s.trimStart().length, s, col, []));
    else if (labels.length) out.push(new Stmt(file, line, labels, '', col, '', col, []));
    return;
  }
  const opCol = col + om[0].length - om[1].length;
  const after = s.slice(om[0].length);
  const restCol = col + om[0].length;
  // `sym = expr`
  const assign = /^\s*=(?!=)(.*)$/.exec(after);
  if (assign) {
    const exprCol = restCol + after.indexOf('=') + 1;
    out.push(new Stmt(file, line, labels, '.set', opCol, `${om[1]}, ${assign[1]}`, opCol, [{ text: om[1], col: opCol }, { text: assign[1].trim(), col: exprCol }]));
    return;
  }
  out.push(new Stmt(file, line, labels, om[1], opCol, after, restCol));
}

const SIMPLE_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, v: 11, '\\': 92, '"': 34, "'": 39 };
const isOctal = (c: number) => c >= 48 && c <= 55;
const hexValue = (c: number) => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1);

/** Reads a string literal at the start of `s`: its bytes and the text after it. */
export function readString(s: string): { bytes: number[]; rest: string } | undefined {
  let i = 0;
  while (s.charCodeAt(i) === 32 || s.charCodeAt(i) === 9) i++;
  if (s.charCodeAt(i) !== 34) return undefined;
  const bytes: number[] = [];
  for (i++; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34) return { bytes, rest: s.slice(i + 1) };
    if (c !== 92) {
      if (c < 0x80) bytes.push(c);
      else {
        const cp = s.codePointAt(i)!;
        bytes.push(...new TextEncoder().encode(String.fromCodePoint(cp)));
        if (cp > 0xffff) i++;
      }
      continue;
    }
    const e = s[i + 1];
    const ec = s.charCodeAt(i + 1);
    if (e in SIMPLE_ESCAPES) { bytes.push(SIMPLE_ESCAPES[e]); i++; continue; }
    if (e === 'x' || e === 'X') {
      let k = i + 2;
      let v = 0;
      while (k < s.length && hexValue(s.charCodeAt(k)) >= 0) { v = (v * 16 + hexValue(s.charCodeAt(k))) & 0xff; k++; }
      bytes.push(v);
      i = k - 1;
      continue;
    }
    if (isOctal(ec)) {
      let k = i + 1;
      let v = 0;
      while (k < s.length && k < i + 4 && isOctal(s.charCodeAt(k))) { v = v * 8 + s.charCodeAt(k) - 48; k++; }
      bytes.push(v & 0xff);
      i = k - 1;
      continue;
    }
    bytes.push(ec);
    i++;
  }
  return undefined;
}
