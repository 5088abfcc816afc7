import { describe, expect, it } from 'vitest';
import { CcError } from './error';
import { pp, ppError, run } from './test-util';

describe('diagnostics', () => {
  it('are CcErrors with a position and the message alone', () => {
    try {
      run('int x;\n#if 1\n');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(CcError);
      const c = e as CcError;
      expect(c.pos).toEqual({ file: 'main.c', line: 2, col: 2 });
      expect(c.msg).toBe('unterminated #if');
      expect(c.data.code).toBe('bad-file');
      expect(c.message).toBe('main.c:2:2: unterminated #if');
    }
  });

  it('name the macro and the counts for a wrong number of arguments', () => {
    expect(ppError('#define F(a, b) a\n  F(1, 2, 3)')).toBe("main.c:2:3: wrong number of macro arguments: 'F' takes 2 arguments, got 3");
    expect(ppError('#define F(a) a\nF(1, 2)')).toBe("main.c:2:1: wrong number of macro arguments: 'F' takes 1 argument, got 2");
    expect(ppError('#define F(a, b, ...) a\nF(1)')).toBe("main.c:2:1: wrong number of macro arguments: 'F' takes at least 2 arguments, got 1");
    expect(ppError('#define F(a) a\nF(1\n')).toBe("main.c:2:1: unterminated argument list invoking macro 'F'");
  });

  it('point into the including file and through macros to their use', () => {
    expect(ppError('#include "h.h"', { files: { 'h.h': '\n#error stop here' } })).toBe('h.h:2:2: #error stop here');
    expect(ppError('#define CAT(a, b) a ## b\nint x;\n   CAT(+, -)')).toBe(`main.c:3:4: pasting "+" and "-" does not give a valid preprocessing token (in macro 'CAT')`);
  });

  it('report bad directives and definitions', () => {
    expect(ppError('#foo')).toBe('main.c:1:2: invalid preprocessing directive #foo');
    expect(ppError('#define 3 x')).toBe("main.c:1:9: macro names must be identifiers, not '3'");
    expect(ppError('#define defined')).toContain("'defined' cannot be used as a macro name");
    expect(ppError('#define F(a, a) a')).toContain("duplicate macro parameter 'a'");
    expect(ppError('#define F(a b) a')).toContain("expected ',' or ')' in the parameter list of macro 'F'");
    expect(ppError('#ifdef\n#endif')).toContain('macro name missing after #ifdef');
    expect(ppError('#undef 1')).toContain('macro name missing after #undef');
    expect(ppError('x = "abc;')).toBe('main.c:1:5: missing terminating " character');
    expect(ppError("x = 'a;")).toBe("main.c:1:5: missing terminating ' character");
  });

  it('collect #warning and go on', () => {
    const r = run('#warning careful now\nx');
    expect(r.warnings).toEqual([{ pos: expect.objectContaining({ file: 'main.c', line: 1, col: 2 }), msg: '#warning careful now' }]);
    expect(r.tokens[0].text).toBe('x');
  });

  it('follow #line', () => {
    expect(pp('#line 100\n__LINE__\n__LINE__ __FILE__')).toBe('100 101 "main.c"');
    expect(pp('#line 7 "gen.c"\n__LINE__ __FILE__')).toBe('7 "gen.c"');
    expect(ppError('#line 20 "gen.c"\n\n#error here')).toBe('gen.c:21:2: #error here');
    expect(pp('# 42 "x.c"\n__LINE__ __FILE__')).toBe('42 "x.c"');
  });
});
