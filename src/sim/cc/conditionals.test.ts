import { describe, expect, it } from 'vitest';
import { pp, ppError } from './test-util';

describe('conditional inclusion', () => {
  it('takes the first true group of an #if chain', () => {
    const chain = (v: number) => pp(`#define V ${v}\n#if V == 1\none\n#elif V == 2\ntwo\n#elif V == 3\nthree\n#else\nother\n#endif`);
    expect([1, 2, 3, 4].map(chain)).toEqual(['one', 'two', 'three', 'other']);
  });

  it('tests macros with #ifdef, #ifndef and defined', () => {
    expect(pp('#define A\n#ifdef A\na\n#endif\n#ifndef A\nna\n#endif\n#ifdef B\nb\n#endif')).toBe('a');
    expect(pp('#define A 0\n#if defined(A) && !defined B && defined A\nyes\n#endif')).toBe('yes');
    expect(pp('#if defined(DPG_IO_L3) && DPG_IO_L3\nl3\n#else\nl2\n#endif')).toBe('l2');
  });

  it('nests and skips nested groups whole', () => {
    expect(pp('#if 0\n#if 1\nx\n#else\ny\n#endif\nz\n#else\nw\n#endif')).toBe('w');
    expect(pp('#if 1\n#if 0\nx\n#elif 1\ny\n#endif\n#else\n#if 1\nq\n#endif\n#endif')).toBe('y');
  });

  it("passes over anything in a skipped group, even a stray quote or an unknown directive", () => {
    expect(pp("#if 0\ndon't @ \\ \n#foo bar\n#error no\n/* a comment\n#endif in it */\n#endif\nok")).toBe('ok');
  });

  it('does not evaluate #elif after a taken group', () => {
    expect(pp('#if 1\na\n#elif 1/0\nb\n#endif')).toBe('a');
  });

  it('answers __has_include, __has_builtin and __has_attribute', () => {
    const files = { 'inc/here.h': '' };
    expect(pp('#if __has_include("inc/here.h") && !__has_include(<nothere.h>) && __has_include(<stdint.h>)\nyes\n#endif', { files })).toBe('yes');
    expect(pp('#if __has_builtin(__builtin_expect) && !__has_builtin(__builtin_nonsense)\nyes\n#endif')).toBe('yes');
    expect(pp('#if __has_attribute(always_inline) && __has_attribute(__aligned__) && !__has_attribute(nonsense)\nyes\n#endif')).toBe('yes');
    expect(pp('#ifdef __has_include\nyes\n#endif')).toBe('yes');
  });

  it('reports unbalanced conditionals', () => {
    expect(ppError('\n#if 1\nx')).toBe('main.c:2:2: unterminated #if');
    expect(ppError('#ifdef X\n#else\n')).toBe('main.c:1:2: unterminated #ifdef');
    expect(ppError('#endif')).toBe('main.c:1:2: #endif without #if');
    expect(ppError('#else')).toBe('main.c:1:2: #else without #if');
    expect(ppError('#if 1\n#else\n#else\n#endif')).toBe('main.c:3:2: #else after #else');
    expect(ppError('#if 1\n#else\n#elif 1\n#endif')).toBe('main.c:3:2: #elif after #else');
  });

  it('keeps the conditionals of each file apart', () => {
    expect(ppError('#include "a.h"\n#endif', { files: { 'a.h': '#if 1\n' } })).toBe('a.h:1:2: unterminated #if');
  });
});
