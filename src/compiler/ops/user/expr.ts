// The small expression language of user operators' reference semantics: C-like integer
// expressions over named values, parsed into an AST (never `eval`) and compiled to closures.
//
// Values are exact integers. The operators follow C's precedence, with the integer rules the
// Deeploy test generators (numpy) use: `/` and `%` floor (Python), `>>` is arithmetic (floor),
// comparisons and `&&` `||` `!` give 0 or 1. Functions: min, max (any arity), clip(x, lo, hi),
// abs(x). A list attribute is indexed: scale[i]. Integers beyond 2^53 are refused, not rounded.
import { fail } from '../../../common/errors';
import { emptyRecord, own } from '../../../common/own';

export type Expr =
  | { k: 'num'; v: number; at: number }
  | { k: 'name'; name: string; at: number }
  | { k: 'index'; name: string; i: Expr; at: number }
  | { k: 'unary'; op: '-' | '~' | '!' | '+'; a: Expr; at: number }
  | { k: 'binary'; op: string; a: Expr; b: Expr; at: number }
  | { k: 'cond'; c: Expr; a: Expr; b: Expr; at: number }
  | { k: 'call'; fn: string; args: Expr[]; at: number };

/** A parse or name error: the message and the 1-based column it points at. */
export class ExprError extends Error {
  constructor(readonly what: string, readonly column: number) {
    super(`column ${column}: ${what}`);
    this.name = 'ExprError';
  }
}

interface Token { t: 'num' | 'id' | 'op' | 'end'; s: string; at: number }

const OPS = ['<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '+', '-', '*', '/', '%', '<', '>', '&', '|', '^', '~', '!', '?', ':', '(', ')', ',', '[', ']'];

function lex(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) { i++; continue; }
    const at = i + 1;
    const num = /^(0x[0-9a-fA-F]+|\d+)/.exec(src.slice(i));
    if (num) {
      if (/^[A-Za-z_]/.test(src.slice(i + num[0].length))) throw new ExprError(`'${src.slice(i).match(/^\w+/)![0]}' is not a number`, at);
      out.push({ t: 'num', s: num[0], at });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_]\w*/.exec(src.slice(i));
    if (id) { out.push({ t: 'id', s: id[0], at }); i += id[0].length; continue; }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExprError(`unexpected character '${c}'`, at);
    out.push({ t: 'op', s: op, at });
    i += op.length;
  }
  out.push({ t: 'end', s: 'the end', at: src.length + 1 });
  return out;
}

/** Binary operators by precedence level, loosest first (C's table). */
const LEVELS: string[][] = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '<=', '>', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];

export const FUNCTIONS: Readonly<Record<string, { min: number; max: number }>> = Object.assign(emptyRecord<{ min: number; max: number }>(), {
  min: { min: 2, max: Infinity }, max: { min: 2, max: Infinity }, clip: { min: 3, max: 3 }, abs: { min: 1, max: 1 },
});

/** Parses an expression; throws ExprError with the column of the problem. */
export function parseExpr(src: string): Expr {
  const toks = lex(src);
  let p = 0;
  const peek = () => toks[p];
  const next = () => toks[p++];
  const expect = (s: string) => {
    const t = next();
    if (t.t !== 'op' || t.s !== s) throw new ExprError(`expected '${s}' but found ${t.t === 'end' ? 'the end' : `'${t.s}'`}`, t.at);
  };
  const cond = (): Expr => {
    const c = binary(0);
    if (peek().s !== '?' || peek().t !== 'op') return c;
    const at = next().at;
    const a = cond();
    expect(':');
    const b = cond();
    return { k: 'cond', c, a, b, at };
  };
  const binary = (level: number): Expr => {
    if (level === LEVELS.length) return unary();
    let a = binary(level + 1);
    while (peek().t === 'op' && LEVELS[level].includes(peek().s)) {
      const t = next();
      a = { k: 'binary', op: t.s, a, b: binary(level + 1), at: t.at };
    }
    return a;
  };
  const unary = (): Expr => {
    const t = peek();
    if (t.t === 'op' && ['-', '~', '!', '+'].includes(t.s)) { next(); return { k: 'unary', op: t.s as '-', a: unary(), at: t.at }; }
    return primary();
  };
  const primary = (): Expr => {
    const t = next();
    if (t.t === 'num') {
      const v = Number(t.s);
      if (!Number.isSafeInteger(v)) throw new ExprError(`${t.s} is beyond the exact integer range (2^53)`, t.at);
      return { k: 'num', v, at: t.at };
    }
    if (t.t === 'id') {
      if (peek().s === '(' && peek().t === 'op') {
        next();
        const args: Expr[] = [];
        if (peek().s !== ')') for (;;) { args.push(cond()); if (peek().s !== ',') break; next(); }
        expect(')');
        const f = own(FUNCTIONS, t.s);
        if (!f) throw new ExprError(`unknown function '${t.s}' (there are ${Object.keys(FUNCTIONS).join(', ')})`, t.at);
        if (args.length < f.min || args.length > f.max)
          throw new ExprError(`${t.s} takes ${f.min === f.max ? f.min : `at least ${f.min}`} arguments, got ${args.length}`, t.at);
        return { k: 'call', fn: t.s, args, at: t.at };
      }
      if (peek().s === '[' && peek().t === 'op') {
        next();
        const i = cond();
        expect(']');
        return { k: 'index', name: t.s, i, at: t.at };
      }
      return { k: 'name', name: t.s, at: t.at };
    }
    if (t.s === '(' && t.t === 'op') {
      const e = cond();
      expect(')');
      return e;
    }
    throw new ExprError(t.t === 'end' ? 'the expression ends too early' : `unexpected '${t.s}'`, t.at);
  };
  if (peek().t === 'end') throw new ExprError('the expression is empty', 1);
  const e = cond();
  if (peek().t !== 'end') throw new ExprError(`unexpected '${peek().s}' after a complete expression`, peek().at);
  return e;
}

/** What a name means: a scalar (element, attribute, row aggregate) or a list attribute. */
export type NameKind = 'scalar' | 'list';

/** Checks every name and index against what the op provides; throws ExprError at the first bad one. */
export function checkNames(e: Expr, names: ReadonlyMap<string, NameKind>): void {
  const known = () => [...names.keys()].join(', ') || 'none';
  const walk = (x: Expr): void => {
    switch (x.k) {
      case 'num': return;
      case 'name': {
        const kind = names.get(x.name);
        if (!kind) throw new ExprError(`unknown name '${x.name}' (known: ${known()})`, x.at);
        if (kind === 'list') throw new ExprError(`'${x.name}' is a list attribute: index it, ${x.name}[i]`, x.at);
        return;
      }
      case 'index': {
        const kind = names.get(x.name);
        if (!kind) throw new ExprError(`unknown name '${x.name}' (known: ${known()})`, x.at);
        if (kind !== 'list') throw new ExprError(`'${x.name}' is not a list and cannot be indexed`, x.at);
        return walk(x.i);
      }
      case 'unary': return walk(x.a);
      case 'binary': walk(x.a); return walk(x.b);
      case 'cond': walk(x.c); walk(x.a); return walk(x.b);
      case 'call': x.args.forEach(walk);
    }
  };
  walk(e);
}

/** The values an evaluation reads, by name: numbers, or number lists for list attributes. */
export type Env = Record<string, number | readonly number[]>;

/** Raised while evaluating (division by zero, a value beyond 2^53, an index out of range), with the column. */
export class EvalError extends ExprError {}

type Fn = (env: Env) => number;

const exact = (v: number, at: number): number => {
  if (!Number.isSafeInteger(v)) throw new EvalError(`the result ${v} is beyond the exact integer range (2^53)`, at);
  return v === 0 ? 0 : v; // no -0
};

/** Floor division and modulo on exact integers (BigInt when the operands are large). */
function floorDiv(a: number, b: number, at: number): number {
  if (b === 0) throw new EvalError('division by zero', at);
  if (Math.abs(a) < 2 ** 31 && Math.abs(b) < 2 ** 31) return Math.floor(a / b);
  const A = BigInt(a), B = BigInt(b);
  let q = A / B;
  if ((A % B !== 0n) && ((A < 0n) !== (B < 0n))) q -= 1n;
  return Number(q);
}

function shift(a: number, s: number, left: boolean, at: number): number {
  if (s < 0 || s > 63) throw new EvalError(`shift by ${s}: shifts take 0..63`, at);
  return left ? exact(a * 2 ** s, at) : Math.floor(a / 2 ** s);
}

function bitwise(op: string, a: number, b: number): number {
  if (a >= -(2 ** 31) && a < 2 ** 31 && b >= -(2 ** 31) && b < 2 ** 31) return op === '&' ? a & b : op === '|' ? a | b : a ^ b;
  const A = BigInt(a), B = BigInt(b);
  return Number(op === '&' ? A & B : op === '|' ? A | B : A ^ B);
}

/** Compiles a checked expression to a function of an environment. */
export function compileExpr(e: Expr): Fn {
  switch (e.k) {
    case 'num': { const v = e.v; return () => v; }
    case 'name': { const n = e.name; return (env) => own(env, n) as number; }
    case 'index': {
      const n = e.name, i = compileExpr(e.i), at = e.at;
      return (env) => {
        const list = own(env, n) as readonly number[], k = i(env);
        if (!(k >= 0 && k < list.length)) throw new EvalError(`${n}[${k}] is out of range (${n} has ${list.length} values)`, at);
        return list[k];
      };
    }
    case 'unary': {
      const a = compileExpr(e.a);
      switch (e.op) {
        case '-': return (env) => 0 - a(env);
        case '+': return a;
        case '!': return (env) => (a(env) === 0 ? 1 : 0);
        case '~': return (env) => -a(env) - 1;
      }
      break;
    }
    case 'cond': {
      const c = compileExpr(e.c), a = compileExpr(e.a), b = compileExpr(e.b);
      return (env) => (c(env) !== 0 ? a(env) : b(env));
    }
    case 'call': {
      const args = e.args.map(compileExpr), at = e.at;
      switch (e.fn) {
        case 'min': return (env) => Math.min(...args.map((f) => f(env)));
        case 'max': return (env) => Math.max(...args.map((f) => f(env)));
        case 'abs': return (env) => Math.abs(args[0](env));
        case 'clip': return (env) => {
          const x = args[0](env), lo = args[1](env), hi = args[2](env);
          if (lo > hi) throw new EvalError(`clip's bounds are reversed (${lo} > ${hi})`, at);
          return Math.min(Math.max(x, lo), hi);
        };
      }
      break;
    }
    case 'binary': {
      const a = compileExpr(e.a), b = compileExpr(e.b), at = e.at;
      switch (e.op) {
        case '+': return (env) => exact(a(env) + b(env), at);
        case '-': return (env) => exact(a(env) - b(env), at);
        case '*': return (env) => {
          const x = a(env), y = b(env), r = x * y;
          if (Number.isSafeInteger(r)) return r === 0 ? 0 : r;
          return exact(Number(BigInt(x) * BigInt(y)), at);
        };
        case '/': return (env) => floorDiv(a(env), b(env), at);
        case '%': return (env) => { const x = a(env), y = b(env); return exact(x - floorDiv(x, y, at) * y, at); };
        case '<<': return (env) => shift(a(env), b(env), true, at);
        case '>>': return (env) => shift(a(env), b(env), false, at);
        case '&': case '|': case '^': { const op = e.op; return (env) => bitwise(op, a(env), b(env)); }
        case '<': return (env) => +(a(env) < b(env));
        case '<=': return (env) => +(a(env) <= b(env));
        case '>': return (env) => +(a(env) > b(env));
        case '>=': return (env) => +(a(env) >= b(env));
        case '==': return (env) => +(a(env) === b(env));
        case '!=': return (env) => +(a(env) !== b(env));
        case '&&': return (env) => (a(env) !== 0 && b(env) !== 0 ? 1 : 0);
        case '||': return (env) => (a(env) !== 0 || b(env) !== 0 ? 1 : 0);
      }
    }
  }
  return fail('internal', `expression node ${JSON.stringify(e)} has no evaluator`, 'user op semantics');
}
