// The tokenizer: C source text -> preprocessing tokens (C99 6.4), each with file:line:col and
// its spacing. Comments become spacing, line splices (backslash-newline) are removed first.
// Written for speed on large constant tables (microLlama's 2.3 MB weights file): one pass over
// char codes, no regular expressions in the loop.
import { CcError } from './error';
import { Token } from './token';

// Punctuators by length, longest first (C99 6.4.6, without digraphs).
const PUNCT3 = new Set(['...', '<<=', '>>=']);
const PUNCT2 = new Set(['->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '*=', '/=', '%=', '+=', '-=', '&=', '^=', '|=', '##']);
const PUNCT1 = '[](){}.&*+-~!/%<>^|?:;=,#';
const PUNCT_BY_CODE: (string | undefined)[] = [];
for (const p of PUNCT1) PUNCT_BY_CODE[p.charCodeAt(0)] = p;

const NL = 10, SPACE = 32, TAB = 9, CR = 13, VT = 11, FF = 12;
const SLASH = 47, STAR = 42, BACKSLASH = 92, DQUOTE = 34, SQUOTE = 39, DOT = 46;

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c >= 0x80;
}
function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Removes line splices. The lines a splice joins become one logical line; the newlines it took
 * are put back after that line, so every later line keeps its physical number.
 */
export function removeSplices(text: string): string {
  if (text.indexOf('\r') >= 0) text = text.replace(/\r\n?/g, '\n');
  if (text.indexOf('\\') < 0) return text;
  let out = '';
  let pending = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) {
      // A backslash, optional trailing blanks (a common slip, accepted like GCC), then a newline.
      let j = i + 1;
      while (j < text.length && (text.charCodeAt(j) === SPACE || text.charCodeAt(j) === TAB)) j++;
      if (j < text.length && text.charCodeAt(j) === NL) {
        out += text.slice(from, i);
        from = j + 1;
        i = j;
        pending++;
      }
    } else if (c === NL && pending > 0) {
      out += text.slice(from, i + 1) + '\n'.repeat(pending);
      from = i + 1;
      pending = 0;
    }
  }
  out += text.slice(from);
  return pending > 0 ? out + '\n'.repeat(pending) : out;
}

/** Tokenizes a whole text; the list ends with an 'eof' token. */
export function tokenize(text: string, file: string): Token[] {
  const lx = new Lexer(text, file);
  const toks: Token[] = [];
  for (;;) {
    const t = lx.next();
    toks.push(t);
    if (t.kind === 'eof') return toks;
  }
}

/**
 * A lazy tokenizer over one file: tokens are made when asked for, so a large file never sits in
 * memory as a token list, and a skipped #if group is passed over without making its tokens.
 */
export class Lexer {
  private readonly src: string;
  private i = 0;
  private line = 1;
  private lineStart = 0;
  private atBol = true;
  private hasSpace = false;
  private peeked: Token | undefined = undefined;
  /** #line: added to physical line numbers, and the file name tokens carry. */
  lineDelta = 0;
  presumedName: string;

  constructor(text: string, readonly file: string) {
    this.src = removeSplices(text);
    this.presumedName = file;
  }

  /** #line: lines from the next one on are shifted by `delta`, and named `name` when given. */
  renumber(delta: number, name?: string): void {
    this.lineDelta += delta;
    if (name !== undefined) this.presumedName = name;
    if (this.peeked) {
      this.peeked.line += delta;
      this.peeked.file = this.presumedName;
    }
  }

  peek(): Token {
    return (this.peeked ??= this.lex());
  }

  next(): Token {
    const t = this.peeked ?? this.lex();
    this.peeked = undefined;
    return t;
  }

  /**
   * Passes over the rest of the line of the last token read or peeked, without making tokens
   * (a skipped #if group: comments still end where they end; a stray quote ends at the line).
   */
  skipLine(): void {
    if (this.peeked?.kind === 'eof') return;
    this.peeked = undefined;
    const src = this.src;
    const n = src.length;
    let i = this.i;
    while (i < n) {
      const c = src.charCodeAt(i);
      if (c === NL) break;
      if (c === SLASH && src.charCodeAt(i + 1) === STAR) {
        const e = src.indexOf('*/', i + 2);
        if (e < 0) this.fail(i, 'unterminated comment');
        this.countLines(i, e);
        i = e + 2;
      } else if (c === SLASH && src.charCodeAt(i + 1) === SLASH) {
        const e = src.indexOf('\n', i);
        i = e < 0 ? n : e;
      } else if (c === DQUOTE || c === SQUOTE) {
        const e = literalEnd(src, i, c);
        i = e < 0 ? i + 1 : e;
      } else i++;
    }
    this.i = i;
    this.hasSpace = false;
  }

  /**
   * Big constant tables without tokens: reads up to `max` elements `[-]digits ,` (decimal, no
   * suffix, at most 2^31 - 1; blanks and newlines between them) and gives each value to `put`.
   * Stops before anything else (a comment, a directive, the last element before '}', a suffix,
   * hex) and leaves the lexer as lex() would have left it there; returns the count.
   * Only while nothing is peeked.
   */
  readInts(max: number, put: (v: number) => void): number {
    if (this.peeked) return 0;
    const src = this.src;
    const n = src.length;
    let i = this.i;
    let count = 0;
    while (count < max) {
      // Blanks and newlines before the element, as lex() passes over them.
      for (; i < n; i++) {
        const c = src.charCodeAt(i);
        if (c === NL) { this.line++; this.lineStart = i + 1; this.atBol = true; this.hasSpace = false; }
        else if (c === SPACE || c === TAB || c === CR || c === VT || c === FF) this.hasSpace = true;
        else break;
      }
      this.i = i;
      let k = i;
      const neg = src.charCodeAt(k) === 45;
      if (neg) k++;
      const d0 = src.charCodeAt(k);
      // (a '#' first on a line, a directive, is not a digit either: the lexer reads it)
      if (!isDigit(d0) || (d0 === 48 && isDigit(src.charCodeAt(k + 1)))) break;
      let v = 0;
      for (; k < n; k++) {
        const c = src.charCodeAt(k);
        if (!isDigit(c)) break;
        v = v * 10 + (c - 48);
      }
      const after = src.charCodeAt(k);
      if (v > 0x7fffffff || isIdentChar(after) || after === DOT) break;
      while (k < n && (src.charCodeAt(k) === SPACE || src.charCodeAt(k) === TAB)) k++;
      if (src.charCodeAt(k) !== 44) break;
      put(neg ? -v : v);
      count++;
      i = k + 1;
      this.i = i;
      this.atBol = false;
      this.hasSpace = false;
    }
    return count;
  }

  private countLines(from: number, to: number): void {
    for (let k = from; k < to; k++) {
      if (this.src.charCodeAt(k) === NL) {
        this.line++;
        this.lineStart = k + 1;
      }
    }
  }

  private fail(at: number, msg: string): never {
    throw new CcError({ file: this.presumedName, line: this.line + this.lineDelta, col: at - this.lineStart + 1 }, msg);
  }

  private lex(): Token {
    const src = this.src;
    const n = src.length;
    let i = this.i;
    for (;;) {
      if (i >= n) {
        this.i = i;
        return new Token('eof', '', this.presumedName, this.line + this.lineDelta, i - this.lineStart + 1, this.hasSpace, true);
      }
      const c = src.charCodeAt(i);
      if (c === NL) {
        i++;
        this.line++;
        this.lineStart = i;
        this.atBol = true;
        this.hasSpace = false;
        continue;
      }
      if (c === SPACE || c === TAB || c === CR || c === VT || c === FF) {
        i++;
        this.hasSpace = true;
        continue;
      }
      if (c === SLASH) {
        const d = src.charCodeAt(i + 1);
        if (d === SLASH) {
          const e = src.indexOf('\n', i);
          i = e < 0 ? n : e;
          this.hasSpace = true;
          continue;
        }
        if (d === STAR) {
          const e = src.indexOf('*/', i + 2);
          if (e < 0) this.fail(i, 'unterminated comment');
          this.countLines(i, e);
          i = e + 2;
          this.hasSpace = true;
          continue;
        }
      }
      break;
    }

    const start = i;
    const c = src.charCodeAt(i);
    let kind: Token['kind'];
    let text: string;
    if (isDigit(c) || (c === DOT && isDigit(src.charCodeAt(i + 1)))) {
      kind = 'number';
      i = ppNumberEnd(src, i);
      text = numberText(src, start, i);
    } else if (isIdentStart(c)) {
      i++;
      while (i < n && isIdentChar(src.charCodeAt(i))) i++;
      const q = src.charCodeAt(i);
      const end = (q === DQUOTE || q === SQUOTE) && isLiteralPrefix(src.slice(start, i), q) ? literalEnd(src, i, q) : -1;
      if (end > 0) {
        kind = q === DQUOTE ? 'string' : 'char';
        i = end;
      } else {
        kind = 'ident';
      }
      text = src.slice(start, i);
    } else if (c === DQUOTE || c === SQUOTE) {
      const end = literalEnd(src, i, c);
      // A stray quote stays a token of its own: an error only if it reaches the parser.
      kind = end < 0 ? 'other' : c === DQUOTE ? 'string' : 'char';
      i = end < 0 ? i + 1 : end;
      text = src.slice(start, i);
    } else {
      const p = punctAt(src, i);
      kind = p ? 'punct' : 'other';
      text = p || src[i];
      i += text.length;
    }
    const t = new Token(kind, text, this.presumedName, this.line + this.lineDelta, start - this.lineStart + 1, this.hasSpace, this.atBol);
    this.i = i;
    this.atBol = false;
    this.hasSpace = false;
    return t;
  }
}

// Short decimal numbers are shared strings: a weights file is mostly them.
const SMALL_NUMBERS: string[] = [];
for (let k = 0; k < 1000; k++) SMALL_NUMBERS.push(String(k));

function numberText(src: string, start: number, end: number): string {
  const len = end - start;
  if (len <= 3 && (len === 1 || src.charCodeAt(start) !== 48)) {
    let v = 0;
    for (let k = start; k < end; k++) {
      const c = src.charCodeAt(k);
      if (c < 48 || c > 57) return src.slice(start, end);
      v = v * 10 + (c - 48);
    }
    return SMALL_NUMBERS[v];
  }
  return src.slice(start, end);
}

/** The punctuator at src[i] (longest match), or '' when there is none. */
function punctAt(src: string, i: number): string {
  const c = src.charCodeAt(i);
  const p1 = PUNCT_BY_CODE[c];
  if (p1 === undefined) return '';
  if (p1 === ',' || p1 === ';' || p1 === '(' || p1 === ')' || p1 === '{' || p1 === '}' || p1 === '[' || p1 === ']') return p1;
  const p3 = src.slice(i, i + 3);
  if (PUNCT3.has(p3)) return p3;
  const p2 = p3.slice(0, 2);
  if (PUNCT2.has(p2)) return p2;
  return p1;
}

/** pp-number: digit or .digit, then digits, identifier characters, '.', and e+ e- p+ p- (C99 6.4.8). */
function ppNumberEnd(src: string, i: number): number {
  const n = src.length;
  i++;
  while (i < n) {
    const c = src.charCodeAt(i);
    if ((c === 43 || c === 45) && /[eEpP]/.test(src[i - 1])) i++;
    else if (isIdentChar(c) || c === DOT) i++;
    else break;
  }
  return i;
}

function isLiteralPrefix(p: string, quote: number): boolean {
  return p === 'L' || p === 'u' || p === 'U' || (p === 'u8' && quote === DQUOTE);
}

/** Index after the closing quote of the literal opening at `i`, or -1 when the line ends first. */
function literalEnd(src: string, i: number, quote: number): number {
  for (let k = i + 1; k < src.length; k++) {
    const c = src.charCodeAt(k);
    if (c === quote) return k + 1;
    if (c === NL) return -1;
    if (c === BACKSLASH) k++;
  }
  return -1;
}
