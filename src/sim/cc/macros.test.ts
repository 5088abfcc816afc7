import { describe, expect, it } from 'vitest';
import { pp, run } from './test-util';

describe('object-like and function-like macros', () => {
  it('replaces object-like macros and rescans them', () => {
    expect(pp('#define A 1 + B\n#define B 2\nA')).toBe('1 + 2');
    expect(pp('#define E\n[E]')).toBe('[ ]');
  });

  it('replaces function-like macros only before (', () => {
    expect(pp('#define F(x) [x]\nF(1) F F (2)')).toBe('[ 1 ] F [ 2 ]');
    expect(pp('#define F(a, b) a-b\nF((1,2), {3})')).toBe('( 1 , 2 ) - { 3 }');
    expect(pp('#define F() z\nF()')).toBe('z');
    expect(pp('#define F(x) <x>\nF()')).toBe('< >');
  });

  it('finds the arguments over several lines', () => {
    expect(pp('#define F(a,b) a+b\nF(1,\n  2)')).toBe('1 + 2');
  });

  it('expands arguments before substitution (C99 6.10.3.1)', () => {
    expect(pp('#define ONE 1\n#define F(x) x\nF(ONE)')).toBe('1');
    expect(pp('#define F(x) x\n#define G F(F(3))\nG')).toBe('3');
  });

  it('never expands a macro inside itself (hide sets)', () => {
    expect(pp('#define X X+1\nX')).toBe('X + 1');
    expect(pp('#define A B\n#define B A\nA B')).toBe('A B');
    expect(pp('#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)')).toBe('2 * 9 * g');
  });

  it('follows the C99 6.10.3.5 example 3', () => {
    const defs = [
      '#define x 3', '#define f(a) f(x * (a))', '#undef x', '#define x 2', '#define g f', '#define z z[0]',
      '#define h g(~', '#define m(a) a(w)', '#define w 0,1', '#define t(a) a', '#define p() int', '#define q(x) x',
      '#define r(x,y) x ## y', '#define str(x) # x',
    ].join('\n');
    expect(pp(`${defs}\nf(y+1) + f(f(z)) % t(t(g)(0) + t)(1);`))
      .toBe('f ( 2 * ( y + 1 ) ) + f ( 2 * ( f ( 2 * ( z [ 0 ] ) ) ) ) % f ( 2 * ( 0 ) ) + t ( 1 ) ;');
    expect(pp(`${defs}\ng(x+(3,4)-w) | h 5) & m\n(f)^m(m);`))
      .toBe('f ( 2 * ( 2 + ( 3 , 4 ) - 0 , 1 ) ) | f ( 2 * ( ~ 5 ) ) & f ( 2 * ( 0 , 1 ) ) ^ m ( 0 , 1 ) ;');
    expect(pp(`${defs}\np() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };`))
      .toBe('int i [ ] = { 1 , 23 , 4 , 5 , } ;');
  });

  it('supports variadic macros and __VA_OPT__', () => {
    expect(pp('#define P(fmt, ...) printf(fmt, __VA_ARGS__)\nP("a", 1, 2)')).toBe('printf ( "a" , 1 , 2 )');
    expect(pp('#define P(...) f(__VA_ARGS__)\nP() P(a,b)')).toBe('f ( ) f ( a , b )');
    expect(pp('#define P(fmt, ...) f(fmt, ## __VA_ARGS__)\nP(x) P(x,y)')).toBe('f ( x ) f ( x , y )');
    expect(pp('#define P(fmt, ...) f(fmt __VA_OPT__(,) __VA_ARGS__)\nP(x) P(x,y)')).toBe('f ( x ) f ( x , y )');
    expect(pp('#define P(args...) f(args)\nP(1,2)')).toBe('f ( 1 , 2 )');
  });

  it('undefines and redefines, warning on a different redefinition', () => {
    expect(pp('#define A 1\n#undef A\nA')).toBe('A');
    expect(run('#define A 1\n#define A 1\n').warnings).toEqual([]);
    expect(run('#define A 1\n#define A 2\nA').warnings.map((w) => w.msg)).toEqual(["'A' macro redefined"]);
  });

  it('knows __FILE__, __LINE__, __COUNTER__ and the command line -D / -U', () => {
    expect(pp('__FILE__ __LINE__\n__LINE__ __COUNTER__ __COUNTER__')).toBe('"main.c" 1 2 0 1');
    expect(pp('#define L __LINE__\n\nL')).toBe('3');
    expect(pp('A B F(2)', { defines: ['A', 'B=7', 'F(x)=x*x'] })).toBe('1 7 2 * 2');
    expect(pp('__riscv', { undefines: ['__riscv'] })).toBe('__riscv');
  });

  it('predefines the RV32 ilp32 target and GNU C', () => {
    expect(pp('__riscv __riscv_xlen __ILP32__ __SIZEOF_POINTER__ __CHAR_BIT__ __INT_MAX__ __STDC__ __STDC_VERSION__'))
      .toBe('1 32 1 4 8 2147483647 1 201112L');
    expect(pp('__STDC_VERSION__', { std: 'c99' })).toBe('199901L');
    expect(pp('#if __GNUC__ >= 4 && __CHAR_UNSIGNED__\nyes\n#endif')).toBe('yes');
  });

  it('marks expanded tokens with the place of the macro use', () => {
    const t = run('#define F(x) (x + 1)\n\n  F(a)').tokens;
    expect(t[0].origin?.line).toBe(3);
    expect(t[0].where()).toBe('main.c:3:3');
    expect(t[0].line).toBe(1); // where the token was written: the macro's body
    expect(t[1].text).toBe('a');
  });
});
