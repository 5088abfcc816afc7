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

export function* statements(text: string, file: string): Generator<Statement> {
  const lines = text.split('\n');
  let curFile = file;
  let delta = 0;
  for (let n = 0; n < lines.length; n++) {
    let raw = lines[n];
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    const marker = /^#\s*(?:line\s+)?(\d+)\s+"([^"]*)"/.exec(raw);
    if (marker) {
      curFile = marker[2] || curFile;
      delta = Number(marker[1]) - (n + 2);
      continue;
    }
    const c = commentStart(raw);
    const code = c >= 0 ? raw.slice(0, c) : raw;
    if (code.trim() === '') continue;
    for (const part of splitSemis(code)) {
      let s = part.text;
      let col = part.at + 1;
      const labels: { name: string; col: number }[] = [];
      for (let m = LABEL.exec(s); m; m = LABEL.exec(s)) {
        const lead = m[0].length - m[0].trimStart().length;
        labels.push({ name: m[1].replace(/^"|"$/g, ''), col: col + lead });
        col += m[0].length;
        s = s.slice(m[0].length);
      }
      const line = n + 1 + delta;
      const om = OP.exec(s);
      if (!om) {
        if (s.trim() !== '') {
          yield { file: curFile, line, labels, op: '?', opCol: col + s.length - s.trimStart().length, operands: [], rest: s, restCol: col };
        } else if (labels.length) {
          yield { file: curFile, line, labels, op: '', opCol: col, operands: [], rest: '', restCol: col };
        }
        continue;
      }
      const opCol = col + om[0].length - om[1].length;
      const after = s.slice(om[0].length);
      const restCol = col + om[0].length;
      // `sym = expr`
      const assign = /^\s*=(?!=)(.*)$/.exec(after);
      if (assign) {
        const exprCol = restCol + after.indexOf('=') + 1;
        yield { file: curFile, line, labels, op: '.set', opCol, operands: [{ text: om[1], col: opCol }, { text: assign[1].trim(), col: exprCol }], rest: `${om[1]}, ${assign[1]}`, restCol: opCol };
        continue;
      }
      let ops: OperandText[] | undefined;
      // Operands are split on demand: string directives read `rest` and never need them.
      yield { file: curFile, line, labels, op: om[1], opCol, get operands() { return (ops ??= splitOperands(after, restCol)); }, rest: after, restCol };
    }
  }
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
