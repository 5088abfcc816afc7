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

/** Tokenizes one file; the list ends with an 'eof' token. */
export function tokenize(text: string, file: string): Token[] {
  const src = removeSplices(text);
  const n = src.length;
  const toks: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let atBol = true;
  let hasSpace = false;

  const fail = (at: number, msg: string): never => {
    throw new CcError({ file, line, col: at - lineStart + 1 }, msg);
  };

  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === NL) {
      i++;
      line++;
      lineStart = i;
      atBol = true;
      hasSpace = false;
      continue;
    }
    if (c === SPACE || c === TAB || c === CR || c === VT || c === FF) {
      i++;
      hasSpace = true;
      continue;
    }
    if (c === SLASH) {
      const d = src.charCodeAt(i + 1);
      if (d === SLASH) {
        const e = src.indexOf('\n', i);
        i = e < 0 ? n : e;
        hasSpace = true;
        continue;
      }
      if (d === STAR) {
        const e = src.indexOf('*/', i + 2);
        if (e < 0) fail(i, 'unterminated comment');
        for (let k = i; k < e; k++) {
          if (src.charCodeAt(k) === NL) {
            line++;
            lineStart = k + 1;
          }
        }
        i = e + 2;
        hasSpace = true;
        continue;
      }
    }

    const start = i;
    const col = i - lineStart + 1;
    let kind: Token['kind'];
    if (isDigit(c) || (c === DOT && isDigit(src.charCodeAt(i + 1)))) {
      kind = 'number';
      i = ppNumberEnd(src, i);
    } else if (isIdentStart(c)) {
      i++;
      while (i < n && isIdentChar(src.charCodeAt(i))) i++;
      const q = src.charCodeAt(i);
      if ((q === DQUOTE || q === SQUOTE) && isLiteralPrefix(src.slice(start, i), q)) {
        const end = literalEnd(src, i, q);
        if (end < 0) fail(start, q === DQUOTE ? 'missing terminating " character' : "missing terminating ' character");
        kind = q === DQUOTE ? 'string' : 'char';
        i = end;
      } else {
        kind = 'ident';
      }
    } else if (c === DQUOTE || c === SQUOTE) {
      const end = literalEnd(src, i, c);
      if (end < 0) {
        // Left as a stray quote: legal in a skipped #if group, an error if it is ever used.
        kind = 'other';
        i++;
      } else {
        kind = c === DQUOTE ? 'string' : 'char';
        i = end;
      }
    } else if (PUNCT3.has(src.slice(i, i + 3))) {
      kind = 'punct';
      i += 3;
    } else if (PUNCT2.has(src.slice(i, i + 2))) {
      kind = 'punct';
      i += 2;
    } else {
      kind = PUNCT1.indexOf(src[i]) >= 0 ? 'punct' : 'other';
      i++;
    }
    toks.push(new Token(kind, src.slice(start, i), file, line, col, hasSpace, atBol));
    atBol = false;
    hasSpace = false;
  }
  toks.push(new Token('eof', '', file, line, i - lineStart + 1, hasSpace, true));
  return toks;
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
