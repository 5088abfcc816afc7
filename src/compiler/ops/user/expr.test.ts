import { describe, expect, it } from 'vitest';
import { checkNames, compileExpr, ExprError, parseExpr, type Env } from './expr';

const ev = (src: string, env: Env = {}) => compileExpr(parseExpr(src))(env);
const err = (f: () => unknown) => { try { f(); } catch (e) { return e instanceof ExprError ? `${e.column}: ${e.what}` : String(e); } return 'no error'; };

describe('the semantics expression language', () => {
  it('evaluates C precedence with numpy integer rules', () => {
    expect(ev('1 + 2 * 3 << 1')).toBe(14);
    expect(ev('-7 / 2')).toBe(-4); // floor, as numpy's //
    expect(ev('-7 % 3')).toBe(2);
    expect(ev('-5 >> 1')).toBe(-3); // arithmetic shift floors
    expect(ev('x >= 0 ? x : (mul * x) >> shift', { x: -13, mul: 1, shift: 3 })).toBe(-2);
    expect(ev('x >= 0 ? x : (mul * x) >> shift', { x: 13, mul: 1, shift: 3 })).toBe(13);
    expect(ev('clip(x * 3, -128, 127)', { x: 100 })).toBe(127);
    expect(ev('max(a, b, -1) + min(a, b) + abs(-4)', { a: -5, b: -9 })).toBe(-6);
    expect(ev('!x + (x && 0) + (x || 0) + ~x', { x: 5 })).toBe(0 + 0 + 1 - 6);
    expect(ev('s[i] & 0xff ^ 1 | 0', { s: [300, 2], i: 0 })).toBe(45);
    expect(ev('a ? b ? 1 : 2 : 3', { a: 1, b: 0 })).toBe(2);
    expect(ev('2147483647 * 4096')).toBe(2147483647 * 4096); // beyond int32, exact
  });

  it('names the column of what does not parse', () => {
    expect(err(() => parseExpr('x >= 0 ? x : (mul * x >> shift'))).toBe("31: expected ')' but found the end");
    expect(err(() => parseExpr('x +* 2'))).toBe("4: unexpected '*'");
    expect(err(() => parseExpr('x $ 2'))).toBe("3: unexpected character '$'");
    expect(err(() => parseExpr(''))).toBe('1: the expression is empty');
    expect(err(() => parseExpr('x 2'))).toBe("3: unexpected '2' after a complete expression");
    expect(err(() => parseExpr('foo(x)'))).toMatch(/^1: unknown function 'foo'/);
    expect(err(() => parseExpr('clip(x, 1)'))).toBe('1: clip takes 3 arguments, got 2');
    expect(err(() => parseExpr('3x'))).toBe("1: '3x' is not a number");
  });

  it('checks names against what the op provides', () => {
    const names = new Map([['x', 'scalar'], ['s', 'list']] as const);
    expect(err(() => checkNames(parseExpr('x + y'), names))).toBe("5: unknown name 'y' (known: x, s)");
    expect(err(() => checkNames(parseExpr('x + s'), names))).toBe("5: 's' is a list attribute: index it, s[i]");
    expect(err(() => checkNames(parseExpr('x[0]'), names))).toBe("1: 'x' is not a list and cannot be indexed");
    expect(err(() => checkNames(parseExpr('x + s[x]'), names))).toBe('no error');
  });

  it('stops on division by zero, bad shifts and out-of-range indices, with the column', () => {
    expect(err(() => ev('x / (x - x)', { x: 1 }))).toBe('3: division by zero');
    expect(err(() => ev('x << 99', { x: 1 }))).toBe('3: shift by 99: shifts take 0..63');
    expect(err(() => ev('s[2]', { s: [1, 2] }))).toBe('1: s[2] is out of range (s has 2 values)');
    expect(err(() => ev('x * x * x * x', { x: 2 ** 20 }))).toMatch(/beyond the exact integer range/);
  });
});
