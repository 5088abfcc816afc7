import { describe, expect, it } from 'vitest';
import { parsePragma } from './pragma';
import { pp, run } from './test-util';

describe('#pragma and _Pragma', () => {
  it('passes pragmas to the parser as one token, in place', () => {
    const t = run('for (;;)\n#pragma GCC unroll 4\nx;').tokens;
    expect(t.map((x) => x.kind)).toEqual(['ident', 'punct', 'punct', 'punct', 'punct', 'pragma', 'ident', 'punct', 'eof']);
    expect(t[5].text).toBe('GCC unroll 4');
    expect(t[5].line).toBe(2);
  });

  it('turns _Pragma("...") into the same token, also from a macro', () => {
    expect(pp('a _Pragma("GCC unroll 2") b')).toBe('a #pragma GCC unroll 2 b');
    expect(pp('#define UNROLL(n) _Pragma(#n)\nUNROLL(GCC unroll 8) x')).toBe('#pragma GCC unroll 8 x');
    expect(pp('_Pragma("message(\\"hi\\")")')).toBe('#pragma message("hi")');
  });

  it('does #pragma once, push_macro and pop_macro itself', () => {
    expect(pp('#include "o.h"\n#include "o.h"', { files: { 'o.h': '_Pragma("once") o' } })).toBe('o');
    expect(pp('#define A 1\n#pragma push_macro("A")\n#undef A\nA\n#pragma pop_macro("A")\nA')).toBe('A 1');
  });

  it('tells the parser what a pragma asks', () => {
    const prag = (src: string) => parsePragma(run(src).tokens[0]);
    expect(prag('#pragma GCC unroll 4')).toEqual({ kind: 'unroll', count: 4 });
    expect(prag('#pragma unroll(8)')).toEqual({ kind: 'unroll', count: 8 });
    expect(prag('_Pragma("GCC unroll 2")')).toEqual({ kind: 'unroll', count: 2 });
    expect(prag('#pragma GCC diagnostic push')).toEqual({ kind: 'other', text: 'GCC diagnostic push' });
    expect(() => prag('#pragma GCC unroll n')).toThrow("main.c:1:2: #pragma GCC unroll needs an integer constant, not 'n'");
  });
});
