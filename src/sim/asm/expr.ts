// Expressions of GNU assembly: numbers, symbols, `.`, unary - ~ !, the C binary operators, and the
// RISC-V relocation modifiers %hi %lo %pcrel_hi %pcrel_lo. Parsed into a small tree; evaluated
// later (symbols take values only once the sections are laid out) into a relocatable value.

export type Modifier = 'hi' | 'lo' | 'pcrel_hi' | 'pcrel_lo';

export type Expr =
  | { k: 'num'; v: number }
  | { k: 'sym'; name: string }
  | { k: 'dot' }
  | { k: 'un'; op: string; a: Expr }
  | { k: 'bin'; op: string; a: Expr; b: Expr }
  | { k: 'mod'; mod: Modifier; a: Expr };

/** A value: constant c plus an optional symbol, minus an optional symbol. */
export interface Val { c: number; sym?: string; sub?: string }

const MODS = new Set(['hi', 'lo', 'pcrel_hi', 'pcrel_lo']);

// Binary operators by precedence, loosest first.
const LEVELS: string[][] = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!=', '<>'], ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']]
  .map((ops) => [...ops].sort((a, b) => b.length - a.length));

export class ExprSyntaxError extends Error {
  constructor(msg: string, readonly at: number) { super(msg); }
}

const SYM_START = /[A-Za-z_.$]/;
const SYM_CHAR = /[A-Za-z0-9_.$@]/;

/** Parses a whole expression text; `numLabel` turns `1f` / `1b` into a symbol name. */
export function parseExpr(text: string, numLabel: (n: string, dir: 'f' | 'b') => string): Expr {
  // Plain numbers, the commonest operand, skip the parser.
  if (/^-?(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)$/.test(text)) {
    const neg = text[0] === '-';
    return { k: 'num', v: (neg ? -1 : 1) * parseNumber(neg ? text.slice(1) : text) };
  }
  return new Parser(text, numLabel).whole();
}

/** Recursive descent over one expression text (methods, not closures: cheap to create). */
class Parser {
  private i = 0;
  constructor(private readonly text: string, private readonly numLabel: (n: string, dir: 'f' | 'b') => string) {}

  whole(): Expr {
    const e = this.level(0);
    this.ws();
    if (this.i < this.text.length) throw new ExprSyntaxError(`unexpected '${this.text.slice(this.i)}' after expression`, this.i);
    return e;
  }

  private ws(): void {
    const t = this.text;
    while (this.i < t.length && (t[this.i] === ' ' || t[this.i] === '\t')) this.i++;
  }

  private peekOp(ops: string[]): string | undefined {
    this.ws();
    const t = this.text;
    const i = this.i;
    if (i >= t.length) return undefined;
    // Longest first (LEVELS is sorted so), so that '<<' is not taken for '<'.
    for (const op of ops) {
      if (t.startsWith(op, i)) {
        // '<' must not eat '<<', '|' not '||', '&' not '&&'.
        const next = t[i + op.length];
        if (op.length === 1 && (next === op || (op === '<' && next === '=') || (op === '>' && next === '='))) {
          if (!ops.includes(op + next)) continue;
        }
        return op;
      }
    }
    return undefined;
  }

  private level(n: number): Expr {
    if (n === LEVELS.length) return this.unary();
    let a = this.level(n + 1);
    for (;;) {
      const op = this.peekOp(LEVELS[n]);
      if (!op) return a;
      this.i += op.length;
      a = { k: 'bin', op, a, b: this.level(n + 1) };
    }
  }

  private unary(): Expr {
    this.ws();
    const ch = this.text[this.i];
    if (ch === '-' || ch === '~' || ch === '!' || ch === '+') {
      this.i++;
      const a = this.unary();
      return ch === '+' ? a : { k: 'un', op: ch, a };
    }
    return this.primary();
  }

  private closeParen(): void {
    this.ws();
    if (this.text[this.i] !== ')') throw new ExprSyntaxError("expected ')'", this.i);
    this.i++;
  }

  private primary(): Expr {
    this.ws();
    const text = this.text;
    const i = this.i;
    const ch = text[i];
    if (ch === undefined) throw new ExprSyntaxError('expected an expression', i);
    if (ch === '(') {
      this.i++;
      const e = this.level(0);
      this.closeParen();
      return e;
    }
    if (ch === '%') {
      const m = /^%([a-z_]+)\s*\(/.exec(text.slice(i));
      if (!m || !MODS.has(m[1])) throw new ExprSyntaxError(`unknown relocation modifier '${text.slice(i).split(/[\s(]/)[0]}'`, i);
      this.i += m[0].length;
      const a = this.level(0);
      this.closeParen();
      return { k: 'mod', mod: m[1] as Modifier, a };
    }
    if (ch === "'") {
      // A character constant: 'a or 'a' or '\n'.
      let j = i + 1;
      let v: number;
      if (text[j] === '\\') { const r = unescape(text, j); v = r.code; j = r.next; } else { v = text.charCodeAt(j); j++; }
      if (text[j] === "'") j++;
      this.i = j;
      return { k: 'num', v };
    }
    if (ch >= '0' && ch <= '9') {
      const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([fb])?(?![A-Za-z0-9_])/.exec(text.slice(i));
      if (!m) throw new ExprSyntaxError(`bad number '${text.slice(i).split(/[\s,()]/)[0]}'`, i);
      this.i += m[0].length;
      if (m[2]) return { k: 'sym', name: this.numLabel(m[1], m[2] as 'f' | 'b') };
      return { k: 'num', v: parseNumber(m[1]) };
    }
    if (ch === '.' && !SYM_CHAR.test(text[i + 1] ?? '')) { this.i++; return { k: 'dot' }; }
    if (SYM_START.test(ch)) {
      let j = i + 1;
      while (j < text.length && SYM_CHAR.test(text[j])) j++;
      this.i = j;
      return { k: 'sym', name: text.slice(i, j) };
    }
    if (ch === '"') {
      // A quoted symbol name.
      const j = text.indexOf('"', i + 1);
      if (j < 0) throw new ExprSyntaxError('unterminated quoted name', i);
      this.i = j + 1;
      return { k: 'sym', name: text.slice(i + 1, j) };
    }
    throw new ExprSyntaxError(`unexpected '${ch}' in expression`, i);
  }
}

export function parseNumber(s: string): number {
  if (s.charCodeAt(0) === 48 && s.length > 1) {
    const c = s.charCodeAt(1);
    if (c === 120 || c === 88) return parseInt(s.slice(2), 16); // 0x
    if (c === 98 || c === 66) return parseInt(s.slice(2), 2); // 0b
    if (/^0[0-7]+$/.test(s)) return parseInt(s, 8);
  }
  return parseInt(s, 10);
}

/** One escape sequence starting at the backslash at `j`. */
export function unescape(s: string, j: number): { code: number; next: number } {
  const c = s[j + 1];
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, v: 11, a: 7, '\\': 92, '"': 34, "'": 39, e: 27 };
  if (c in simple) return { code: simple[c], next: j + 2 };
  if (c === 'x' || c === 'X') {
    let k = j + 2;
    let v = 0;
    while (k < s.length && /[0-9a-fA-F]/.test(s[k])) { v = (v * 16 + parseInt(s[k], 16)) & 0xff; k++; }
    return { code: v, next: k };
  }
  if (/[0-7]/.test(c)) {
    let k = j + 1;
    let v = 0;
    while (k < s.length && k < j + 4 && /[0-7]/.test(s[k])) { v = v * 8 + parseInt(s[k], 8); k++; }
    return { code: v & 0xff, next: k };
  }
  return { code: s.charCodeAt(j + 1), next: j + 2 };
}

/** Whether an expression mentions a relocation modifier at its top. */
export function topModifier(e: Expr): { mod?: Modifier; a: Expr } {
  return e.k === 'mod' ? { mod: e.mod, a: e.a } : { a: e };
}

export class EvalError extends Error {}

/**
 * Evaluates `e`. `lookup` gives a symbol's value (a defined label as {c: offset, sym: name} is
 * up to the caller, an equate its value, undefined for an unknown symbol: kept symbolic).
 * `fold(sym, sub)` may cancel a difference of two labels of one section (returns their distance).
 */
export function evaluate(e: Expr, env: {
  lookup: (name: string) => Val | undefined;
  dot: () => Val;
  fold: (a: string, b: string) => number | undefined;
}): Val {
  const ev = (x: Expr): Val => {
    switch (x.k) {
      case 'num': return { c: x.v };
      case 'dot': return env.dot();
      case 'sym': return env.lookup(x.name) ?? { c: 0, sym: x.name };
      case 'mod': throw new EvalError(`%${x.mod} is only allowed as a whole instruction operand`);
      case 'un': {
        const a = ev(x.a);
        if (a.sym || a.sub) throw new EvalError(`unary '${x.op}' of a symbol`);
        return { c: x.op === '-' ? -a.c : x.op === '~' ? ~a.c : a.c ? 0 : 1 };
      }
      case 'bin': {
        const a = ev(x.a);
        const b = ev(x.b);
        if (x.op === '+') return add(a, b);
        if (x.op === '-') return add(a, neg(b));
        if (a.sym || a.sub || b.sym || b.sub) throw new EvalError(`operator '${x.op}' on a symbol`);
        return { c: binop(x.op, a.c, b.c) };
      }
    }
  };
  const neg = (v: Val): Val => {
    if (v.sym && v.sub) return { c: -v.c, sym: v.sub, sub: v.sym };
    if (v.sub) return { c: -v.c, sym: v.sub };
    if (v.sym) return { c: -v.c, sub: v.sym };
    return { c: -v.c };
  };
  const add = (a: Val, b: Val): Val => {
    const syms = [a.sym, b.sym].filter((s): s is string => !!s);
    const subs = [a.sub, b.sub].filter((s): s is string => !!s);
    let c = a.c + b.c;
    // Cancel pairs of the same symbol, then foldable pairs (labels of one laid-out section).
    for (let i = 0; i < syms.length; i++) {
      for (let j = 0; j < subs.length; j++) {
        const d = syms[i] === subs[j] ? 0 : env.fold(syms[i], subs[j]);
        if (d !== undefined) { c += d; syms.splice(i, 1); subs.splice(j, 1); i--; break; }
      }
    }
    if (syms.length > 1 || subs.length > 1) throw new EvalError('expression is not a symbol plus a constant');
    return { c, sym: syms[0], sub: subs[0] };
  };
  return ev(e);
}

function binop(op: string, a: number, b: number): number {
  switch (op) {
    case '*': return Math.imul(a, b);
    case '/': if (b === 0) throw new EvalError('division by zero'); return Math.trunc(a / b);
    case '%': if (b === 0) throw new EvalError('division by zero'); return a % b;
    case '<<': return a * 2 ** b;
    case '>>': return Math.floor(a / 2 ** b);
    case '&': return Number(BigInt(a) & BigInt(b));
    case '|': return Number(BigInt(a) | BigInt(b));
    case '^': return Number(BigInt(a) ^ BigInt(b));
    case '==': return a === b ? -1 : 0;
    case '!=': case '<>': return a !== b ? -1 : 0;
    case '<': return a < b ? -1 : 0;
    case '>': return a > b ? -1 : 0;
    case '<=': return a <= b ? -1 : 0;
    case '>=': return a >= b ? -1 : 0;
    case '&&': return a && b ? 1 : 0;
    case '||': return a || b ? 1 : 0;
    default: throw new EvalError(`unknown operator '${op}'`);
  }
}
