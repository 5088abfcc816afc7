// #if expressions (C99 6.10.1): integer constant expressions evaluated in intmax_t / uintmax_t
// (64 bits), after `defined` and macro expansion have been done by the preprocessor; any
// identifier left is 0. BigInt keeps the 64-bit wrap-around exact.
import { errorAt } from './error';
import type { Token } from './token';

/** A value of the expression: 64 bits, signed (intmax_t) or unsigned (uintmax_t). */
interface Val {
  v: bigint;
  unsigned: boolean;
}

const toSigned = (v: bigint) => BigInt.asIntN(64, v);
const toUnsigned = (v: bigint) => BigInt.asUintN(64, v);
const make = (v: bigint, unsigned: boolean): Val => ({ v: unsigned ? toUnsigned(v) : toSigned(v), unsigned });
const bool = (b: boolean): Val => ({ v: b ? 1n : 0n, unsigned: false });

/** Evaluates the tokens of an #if line; `at` is the directive (for "#if with no expression"). */
export function evalIfExpr(toks: Token[], at: Token, charUnsigned = true): bigint {
  if (toks.length === 0) errorAt(at, `#${at.text} with no expression`);
  const p = new ExprParser(toks, at, charUnsigned);
  const r = p.comma(true);
  if (p.pos < toks.length) errorAt(toks[p.pos], `missing binary operator before token '${toks[p.pos].text}' in #${at.text} expression`);
  return r.v;
}

class ExprParser {
  pos = 0;
  constructor(private toks: Token[], private at: Token, private charUnsigned: boolean) {}

  private peek(text: string): boolean {
    const t = this.toks[this.pos];
    return t !== undefined && t.kind === 'punct' && t.text === text;
  }

  private eat(text: string): boolean {
    if (!this.peek(text)) return false;
    this.pos++;
    return true;
  }

  private expect(text: string, what: string): void {
    if (this.eat(text)) return;
    const t = this.toks[this.pos] ?? this.toks[this.toks.length - 1];
    errorAt(t, `expected '${text}' ${what} in #${this.at.text} expression`);
  }

  // comma = cond ("," cond)*
  comma(ev: boolean): Val {
    let v = this.cond(ev);
    while (this.eat(',')) v = this.cond(ev);
    return v;
  }

  // cond = logor ("?" comma ":" cond)?
  cond(ev: boolean): Val {
    const c = this.logor(ev);
    if (!this.eat('?')) return c;
    const taken = c.v !== 0n;
    const a = this.comma(ev && taken);
    this.expect(':', "after '?'");
    const b = this.cond(ev && !taken);
    const unsigned = a.unsigned || b.unsigned;
    return make(taken ? a.v : b.v, unsigned);
  }

  // logor = logand ("||" logand)*
  logor(ev: boolean): Val {
    let l = this.logand(ev);
    while (this.eat('||')) {
      const r = this.logand(ev && l.v === 0n);
      l = bool(l.v !== 0n || r.v !== 0n);
    }
    return l;
  }

  // logand = bitor ("&&" bitor)*
  logand(ev: boolean): Val {
    let l = this.binary(0, ev);
    while (this.eat('&&')) {
      const r = this.binary(0, ev && l.v !== 0n);
      l = bool(l.v !== 0n && r.v !== 0n);
    }
    return l;
  }

  // The binary operators from | down to * / %, one precedence level per row.
  private static LEVELS = [['|'], ['^'], ['&'], ['==', '!='], ['<', '<=', '>', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];

  binary(level: number, ev: boolean): Val {
    if (level === ExprParser.LEVELS.length) return this.unary(ev);
    let l = this.binary(level + 1, ev);
    for (;;) {
      const t = this.toks[this.pos];
      if (!t || t.kind !== 'punct' || !ExprParser.LEVELS[level].includes(t.text)) return l;
      this.pos++;
      const r = this.binary(level + 1, ev);
      l = this.apply(t, l, r, ev);
    }
  }

  private apply(op: Token, l: Val, r: Val, ev: boolean): Val {
    // Shifts keep the left operand's type; the others use the usual arithmetic conversions.
    // A shift by a negative amount or by 64 or more is undefined: we do what clang does (the
    // amount's low 32 bits, at most 63; a signed << that far gives 0), so that we agree with it.
    if (op.text === '<<' || op.text === '>>') {
      let k = BigInt.asUintN(32, r.v);
      if (k >= 64n) {
        if (op.text === '<<' && !l.unsigned) return make(0n, false);
        k = 63n;
      }
      return make(op.text === '<<' ? l.v << k : l.v >> k, l.unsigned);
    }
    const u = l.unsigned || r.unsigned;
    const a = u ? toUnsigned(l.v) : l.v;
    const b = u ? toUnsigned(r.v) : r.v;
    switch (op.text) {
      case '|': return make(a | b, u);
      case '^': return make(a ^ b, u);
      case '&': return make(a & b, u);
      case '==': return bool(a === b);
      case '!=': return bool(a !== b);
      case '<': return bool(a < b);
      case '<=': return bool(a <= b);
      case '>': return bool(a > b);
      case '>=': return bool(a >= b);
      case '+': return make(a + b, u);
      case '-': return make(a - b, u);
      case '*': return make(a * b, u);
      default: {
        if (b === 0n) {
          if (ev) errorAt(op, `division by zero in #${this.at.text}`);
          return make(0n, u);
        }
        return make(op.text === '/' ? a / b : a % b, u); // BigInt division truncates toward zero, as C
      }
    }
  }

  // unary = ("+" | "-" | "~" | "!") unary | primary
  unary(ev: boolean): Val {
    if (this.eat('+')) return this.unary(ev);
    if (this.eat('-')) {
      const v = this.unary(ev);
      return make(-v.v, v.unsigned);
    }
    if (this.eat('~')) {
      const v = this.unary(ev);
      return make(~v.v, v.unsigned);
    }
    if (this.eat('!')) return bool(this.unary(ev).v === 0n);
    return this.primary(ev);
  }

  // primary = "(" comma ")" | number | char | identifier (= 0)
  primary(ev: boolean): Val {
    const t = this.toks[this.pos];
    if (!t) errorAt(this.toks[this.toks.length - 1] ?? this.at, `#${this.at.text} expression ends early`);
    if (this.eat('(')) {
      const v = this.comma(ev);
      this.expect(')', 'to close the parenthesis');
      return v;
    }
    this.pos++;
    if (t.kind === 'number') return numberValue(t);
    if (t.kind === 'char') return charValue(t, this.charUnsigned);
    if (t.kind === 'ident') return bool(false);
    if (t.kind === 'string') return errorAt(t, `string literal is not valid in #${this.at.text} expression`);
    return errorAt(t, `token '${t.text}' is not valid in #${this.at.text} expression`);
  }
}

/** The value of an integer constant (decimal, octal, hex, binary; suffixes u, l, ll). */
export function numberValue(t: Token): Val {
  const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([uUlL]*)$/.exec(t.text);
  if (!m) {
    if (/^(0[xX][0-9a-fA-F.]*[pP]|[0-9.]*[.eE])/.test(t.text)) errorAt(t, `floating constant '${t.text}' in preprocessor expression`);
    errorAt(t, `invalid integer constant '${t.text}' in preprocessor expression`);
  }
  const [, digits, suffix] = m;
  if (!/^(|[uU]|[lL]|ll|LL|[uU](l|L|ll|LL)|(l|L|ll|LL)[uU])$/.test(suffix)) errorAt(t, `invalid suffix '${suffix}' on integer constant '${t.text}'`);
  let v: bigint;
  if (/^0[bB]/.test(digits)) v = BigInt(digits);
  else if (/^0[xX]/.test(digits)) v = BigInt(digits);
  else if (digits.length > 1 && digits[0] === '0') {
    if (/[89]/.test(digits)) errorAt(t, `invalid digit in octal constant '${t.text}'`);
    v = BigInt(`0o${digits.slice(1)}`);
  } else v = BigInt(digits);
  if (v >= 1n << 64n) errorAt(t, `integer constant '${t.text}' is too large`);
  // A constant too big for intmax_t is uintmax_t (GCC and clang warn; the value is the same).
  return make(v, /[uU]/.test(suffix) || v >= 1n << 63n);
}

/** The value of a character constant: int, of (unsigned on RISC-V) char for a plain one. */
export function charValue(t: Token, charUnsigned: boolean): Val {
  const q = t.text.indexOf("'");
  const prefix = t.text.slice(0, q);
  const chars = decodeEscapes(t.text.slice(q + 1, -1), t);
  if (chars.length === 0) errorAt(t, 'empty character constant');
  if (prefix === '') {
    // Multi-character constants: the chars' bytes, big-endian, as an int (GCC and clang).
    // Where char is unsigned, clang computes with a plain character constant as unsigned
    // (so '\0' - 1 > 0 in #if); we follow clang, the reference compiler.
    let v = 0n;
    for (const c of chars) v = (v << 8n) | BigInt(c & 0xff);
    if (chars.length === 1) return make(charUnsigned ? v : BigInt.asIntN(8, v), charUnsigned);
    return make(BigInt.asIntN(32, v), charUnsigned);
  }
  const c = BigInt(chars[chars.length - 1]);
  if (prefix === 'L') return make(BigInt.asIntN(32, c), false); // wchar_t is int
  return make(prefix === 'u' ? BigInt.asUintN(16, c) : BigInt.asUintN(32, c), false);
}

/** The code units of a literal's body: escapes decoded, other characters as UTF-8 bytes or code points. */
export function decodeEscapes(body: string, t: Token): number[] {
  const out: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\') {
      const cp = body.codePointAt(i)!;
      if (cp > 0xffff) i++;
      if (cp < 0x80) out.push(cp);
      else out.push(...new TextEncoder().encode(String.fromCodePoint(cp)));
      continue;
    }
    const e = body[++i];
    const simple: Record<string, number> = { n: 10, t: 9, v: 11, b: 8, r: 13, f: 12, a: 7, e: 27, '\\': 92, "'": 39, '"': 34, '?': 63 };
    if (e in simple) out.push(simple[e]);
    else if (e >= '0' && e <= '7') {
      let k = 0;
      let v = 0;
      while (k < 3 && body[i] >= '0' && body[i] <= '7') v = v * 8 + Number(body[i++]) , k++;
      i--;
      out.push(v);
    } else if (e === 'x') {
      let v = 0;
      let k = 0;
      while (/[0-9a-fA-F]/.test(body[i + 1] ?? '')) v = (v * 16 + parseInt(body[++i], 16)) >>> 0, k++;
      if (k === 0) errorAt(t, '\\x used with no following hex digits');
      out.push(v);
    } else if (e === 'u' || e === 'U') {
      const len = e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + len);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) errorAt(t, `incomplete universal character name \\${e}${hex}`);
      out.push(parseInt(hex, 16));
      i += len;
    } else {
      errorAt(t, `unknown escape sequence '\\${e}'`);
    }
  }
  return out;
}
