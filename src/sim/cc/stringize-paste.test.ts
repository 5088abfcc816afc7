import { describe, expect, it } from 'vitest';
import { pp, ppError } from './test-util';

describe('# and ##', () => {
  it('stringizes arguments as written, spacing collapsed', () => {
    expect(pp('#define S(x) #x\nS(a  +   b) S( a ) S() S(a\n  b)')).toBe('"a + b" "a" "" "a b"');
    expect(pp('#define S(x) #x\n#define A 1\nS(A)')).toBe('"A"');
    expect(pp('#define S(x) #x\n#define X(x) S(x)\n#define A 1\nX(A)')).toBe('"1"');
  });

  it('escapes \\ and " inside string and char literals only', () => {
    expect(pp(String.raw`#define S(x) #x` + '\n' + String.raw`S("a\n" '\'' \)`)).toBe(String.raw`"\"a\\n\" '\\'' \"`);
    expect(pp('#define S(...) #__VA_ARGS__\nS(1, "x", 2)')).toBe(String.raw`"1, \"x\", 2"`);
  });

  it('follows the C99 6.10.3.5 example 4', () => {
    const src = [
      '#define str(s) # s', '#define xstr(s) str(s)',
      '#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \\', ' x ## s, x ## t)',
      '#define INCFILE(n) vers ## n', '#define glue(a, b) a ## b', '#define xglue(a, b) glue(a, b)',
      '#define HIGHLOW "hello"', '#define LOW LOW ", world"',
      'debug(1, 2);', 'glue(HIGH, LOW);', 'xglue(HIGH, LOW)', 'xstr(INCFILE(2).h)',
    ].join('\n');
    expect(pp(src)).toBe('printf ( "x" "1" "= %d, x" "2" "= %s" , x1 , x2 ) ; "hello" ; "hello" ", world" "vers2.h"');
  });

  it('pastes into identifiers, numbers and punctuators, then rescans', () => {
    expect(pp('#define CAT(a,b) a##b\nCAT(x,1) CAT(1,2) CAT(<,<=) CAT(-,>) CAT(,y) CAT(y,) CAT(,)')).toBe('x1 12 <<= -> y y');
    expect(pp('#define CAT(a,b) a##b\n#define xy 42\nCAT(x,y)')).toBe('42');
    expect(pp('#define CAT3(a,b,c) a##b##c\nCAT3(a,,c) CAT3(1,2,3)')).toBe('ac 123');
    expect(pp('#define M(mode) void col_##mode##_fast(void);\nM(relu)')).toBe('void col_relu_fast ( void ) ;');
  });

  it('pastes the raw argument, not its expansion', () => {
    expect(pp('#define A 1\n#define CAT(a,b) a##b\nCAT(A,2)')).toBe('A2');
  });

  it('refuses a paste that does not form one token', () => {
    expect(ppError('#define CAT(a,b) a##b\nCAT(+,/)')).toContain('pasting "+" and "/" does not give a valid preprocessing token');
    expect(ppError('#define CAT(a,b) a##b\nCAT(x,+)')).toContain('pasting "x" and "+" does not give a valid preprocessing token');
  });

  it('refuses # without a parameter and ## at the ends', () => {
    expect(ppError('#define S(x) #y')).toContain("'#' is not followed by a macro parameter in macro 'S'");
    expect(ppError('#define P ## x')).toContain("'##' cannot appear at the start of a macro expansion");
    expect(ppError('#define P x ##')).toContain("'##' cannot appear at the end of a macro expansion");
  });
});
