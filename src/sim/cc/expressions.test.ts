import { describe, expect, it } from 'vitest';
import { pp, ppError } from './test-util';

/** The value of an #if expression, found by bisecting with #if. */
const truth = (e: string) => pp(`#if ${e}\n1\n#else\n0\n#endif`) === '1';

describe('#if expressions', () => {
  it('has C precedence and associativity', () => {
    for (const e of ['1 + 2 * 3 == 7', '(1 + 2) * 3 == 9', '10 - 4 - 3 == 3', '100 / 10 / 5 == 2', '7 % 4 == 3', '1 << 2 + 1 == 8',
      '(6 & 3) == 2', '(6 | 3) == 7', '(6 ^ 3) == 5', '-1 < 0', '!0 == 1', '~0 == -1', '+3 == 3', '2 > 1 == 1', '1 ? 2 : 0', '0 ? 0 : 3 == 3',
      '(1, 2) == 2', '1 || 0 && 0', '0x10 == 16', '010 == 8', '0b101 == 5', '10ULL == 10', '(0 ? 1 : 2) == 2']) {
      expect(truth(e), e).toBe(true);
    }
  });

  it('computes in intmax_t and uintmax_t (64 bits)', () => {
    expect(truth('-1 > 0u')).toBe(true); // -1 converted to uintmax_t
    expect(truth('-1 < 0')).toBe(true);
    expect(truth('0xffffffffffffffff == -1')).toBe(true);
    expect(truth('0xffffffffffffffff > 0')).toBe(true); // too big for intmax_t: unsigned
    expect(truth('2147483647 + 1 == 2147483648')).toBe(true); // no 32-bit overflow
    expect(truth('9223372036854775807 + 1 < 0')).toBe(true); // wraps like the hardware
    expect(truth('-1 >> 63 == -1')).toBe(true);
    expect(truth('-1u >> 63 == 1')).toBe(true);
    expect(truth('(0 ? 1u : -1) > 0')).toBe(true); // ?: converts both arms
    expect(truth('-9223372036854775807 - 1 < 0')).toBe(true);
    expect(truth('-7 / 2 == -3 && -7 % 2 == -1')).toBe(true);
    // Shifts out of range are undefined; we agree with clang: low 32 bits of the amount, at most 63.
    expect(truth('(100 >> 64) == 0 && (-1 >> 64) == -1 && (100 >> 0x8000000000000000) == 100 && (1 << 64) == 0 && (1u << 64) == 0x8000000000000000')).toBe(true);
  });

  it('values character constants like the target (unsigned char)', () => {
    expect(truth("'a' == 97 && '\\n' == 10 && '\\0' == 0 && '\\x41' == 65 && '\\101' == 65")).toBe(true);
    expect(truth("'\\xff' == 255 && '\\377' > 0")).toBe(true);
    expect(truth("'ab' == 24930 && L'\\xffffffff' == -1 && u'\\xffff' == 65535")).toBe(true);
    // Like clang, a plain character constant computes as unsigned where char is unsigned.
    expect(truth("'\\0' - 1 > 0 && L'\\0' - 1 < 0")).toBe(true);
  });

  it('makes leftover identifiers 0 and expands macros first', () => {
    expect(truth('UNDEFINED == 0')).toBe(true);
    expect(pp('#define TWO 1+1\n#if TWO * 2 == 3\nyes\n#endif')).toBe('yes');
    expect(pp('#define F(x) ((x) * 2)\n#if F(3) == 6\nyes\n#endif')).toBe('yes');
    expect(pp('#define D defined(X)\n#define X\n#if D\nyes\n#endif')).toBe('yes');
  });

  it('short-circuits: no division by zero where it is not evaluated', () => {
    expect(truth('0 && 1 / 0')).toBe(false);
    expect(truth('1 || 1 / 0')).toBe(true);
    expect(truth('1 ? 1 : 1 / 0')).toBe(true);
  });

  it('reports bad expressions at their token', () => {
    expect(ppError('#if 1 / 0\n#endif')).toBe('main.c:1:7: division by zero in #if');
    expect(ppError('#if\n#endif')).toBe('main.c:1:2: #if with no expression');
    expect(ppError('#if (1\n#endif')).toContain("expected ')' to close the parenthesis in #if expression");
    expect(ppError('#if 1.5\n#endif')).toContain("floating constant '1.5' in preprocessor expression");
    expect(ppError('#if 1 2\n#endif')).toContain("missing binary operator before token '2'");
    expect(ppError('#if "s"\n#endif')).toContain('string literal is not valid in #if expression');
    expect(ppError('#if 1 = 1\n#endif')).toContain("missing binary operator before token '='");
    expect(ppError('#if 1 + ;\n#endif')).toContain("token ';' is not valid in #if expression");
    expect(ppError('#if defined(\n#endif')).toContain("macro name missing after 'defined'");
    expect(ppError('#if 09\n#endif')).toContain("invalid digit in octal constant '09'");
  });
});
