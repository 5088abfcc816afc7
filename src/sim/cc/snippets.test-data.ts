// Macro-expansion corner cases (the C99 examples, GNU forms, blue paint), each compared with clang-19 -E.
export const SNIPPETS: string[] = [
  "#define hash_hash # ## #\n#define mkstr(a) # a\n#define in_between(a) mkstr(a)\n#define join(c, d) in_between(c hash_hash d)\nchar p[] = join(x, y);",
  "#define t(x,y,z) x ## y ## z\nint j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,), t(10,,), t(,11,), t(,,12), t(,,) };",
  "#define showlist(...) puts(#__VA_ARGS__)\n#define report(test, ...) ((test)?puts(#test): printf(__VA_ARGS__))\nshowlist(The first, second, and third items.);\nreport(x>y, \"x is %d but y is %d\", x, y);",
  "#define f(a) a + f\nf(1)(2) f(f)(3)",
  "#define EMPTY\n#define LPAREN (\n#define RPAREN )\n#define F(x, y) x + y\n#define ELLIP_FUNC(...) __VA_ARGS__\nELLIP_FUNC(F, LPAREN, 'a', 'b', RPAREN);",
  "#define str(x) #x\n#define xstr(x) str(x)\nxstr(__LINE__) xstr(__STDC_VERSION__) str(  a  \"\\n\"  '\\''  )",
  "#define F(x) x\nF(F)(1) F(F(F))(2)",
  "#define a a b\n#define b a\na b",
  "#define NIL(xxx) xxx\n#define G_0(arg) NIL(G_1)(arg)\n#define G_1(arg) NIL(arg)\nG_0(42)",
  "#define m() 1\nm ( ) m() m",
  "#define x(a) a\n#define y x(x)(1)\ny",
  "#define CAT(a,b) a##b\nCAT(1e,+)3 CAT(0x,1p) CAT(L, 'a') CAT(L, \"s\") CAT(u8, \"s\") CAT(%, =) CAT(#, #)",
  "#define F(a,...) f(a __VA_OPT__(,) __VA_ARGS__)\nF(1) F(1,2) F(1,) F(1, 2, 3)",
  "#define e1 e2 + 1\n#define e2 e1 * 2\ne1 e2",
  "#define f(x, y) x ## y\n#define g f(a, b) f(, c) f(d, )\ng",
  "#define AND &&\n#if 1 AND 2 > 1\nyes\n#endif\n#if (2 || 1/0) && -1 < 0u\nno\n#else\nunsigned\n#endif",
  "#define OBJ (a)\n#define FN(x) [x]\n#define CALL(f, x) f(x)\nCALL(FN, OBJ) CALL(FN,) CALL(,)",
  "#define lparen (\n#define f(x) <x>\nf lparen 1)\n#define g f\ng(2) g\n(3)",
  "#define q(x) x\n#define r(x,y) x ## y\n#define str(x) # x\nq(+)q(-) r(+,+) r(-, =) str( q ( 1 ) ) str(@) str('\"')",
  "#define DEBUG(fmt, ...) printf(fmt, ##__VA_ARGS__)\nDEBUG(\"a\") DEBUG(\"b\", 1) DEBUG(\"c\",)",
  "#define APPLY(m, ...) m(__VA_ARGS__)\n#define SUM(a, b) (a + b)\nAPPLY(SUM, 1, 2) APPLY(SUM, APPLY(SUM, 1, 2), 3)",
  "#define BUG(x) x BUG\n#define A BUG(1)\nA (2)",
  "#define FOO(x) x\n#define BAR FOO(\nBAR 1)",
  "#define C(x) x\n#define D C(C\nD(1)))",
  "#define S(x) #x\nS(a\tb) S(  ) S(a/* c */b) S(a\nb) S(\"\\\\\" '\\\\') S(L\"x\" u8\"y\")",
  "#if 0\n#elif defined __riscv && __riscv_xlen == 32 && __SIZEOF_POINTER__ == 4 && __CHAR_BIT__ == 8\nrv32\n#endif\n#if __INT_MAX__ == 2147483647 && __LONG_MAX__ == 2147483647L && __LONG_LONG_MAX__ > 0 && __SIZE_MAX__ == 4294967295U\nilp32\n#endif\n#if defined(__ILP32__) && __GNUC__ >= 4 && !defined(__x86_64__) && __ORDER_LITTLE_ENDIAN__ == __BYTE_ORDER__\nok\n#endif",
  "#if 'z' - 'a' == 25 && '\\377' == 255 && '\\xff' > 0 && (-1 >> 1) == -1 && (1 ? -1 : 0u) > 0 && 0x7fffffffffffffff + 0 > 0\nchars\n#endif\n#if (0 && 1/0) || (1 || 1/0)\nsc\n#endif",
  "#define INC(x) x + 1\n#define TWICE(f, x) f(f(x))\nTWICE(INC, 3) TWICE(TWICE, INC)\n",
  "#define LINE __LINE__\n#define S(x) #x\n#define XS(x) S(x)\nLINE XS(LINE)\n#line 100\nLINE __LINE__",
];

/** A small deterministic random generator (tests must be reproducible). */
export function rng(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x % n;
  };
}

/** Random macro programs: up to three macros (object-like, function-like, variadic) and a use. */
export function randomMacroProgram(rnd: (n: number) => number): string {
  const body = ['x', 'a', 'b', '#a', '#b', 'a##b', 'a ## x', '#__VA_ARGS__', '__VA_ARGS__', ', ## __VA_ARGS__', '__VA_OPT__(,)', '(', ')', ',', 'F', 'G', 'H', '1', '-', 'F(a)', 'G(b,a)', 'H(x)'];
  const use = ['F', 'G', 'H', '(', ')', ',', 'x', '1', 'a', '-', '"q"', '\n', 'F(', 'G(', 'H(', '()', '(1,2)'];
  const params = ['()', '(a)', '(a,b)', '(...)', '(a,...)', '', '(x)'];
  const pick = (a: string[], n: number) => Array.from({ length: n }, () => a[rnd(a.length)]).join(' ');
  let s = '';
  for (const name of ['F', 'G', 'H']) if (rnd(4)) s += `#define ${name}${params[rnd(params.length)]} ${pick(body, rnd(6))}\n`;
  return `${s}${pick(use, 1 + rnd(20))}\n`;
}

/** Random #if expressions over signed, unsigned, out-of-range and character operands. */
export function randomIfExpression(rnd: (n: number) => number, depth = 4): string {
  const atoms = ['0', '1', '2', '7', '-1', '255', '0x7fffffff', '0xffffffff', '0x8000000000000000', '9223372036854775807', '18446744073709551615u',
    '1u', '3ull', "'a'", "'\\xff'", "'\\377'", 'X', '63', '64', '100', '-9223372036854775807'];
  const bin = ['+', '-', '*', '/', '%', '<<', '>>', '<', '>', '<=', '>=', '==', '!=', '&', '^', '|', '&&', '||'];
  const r = rnd(10);
  if (depth <= 0 || r < 3) return atoms[rnd(atoms.length)];
  if (r < 5) return `${['-', '~', '!', '+'][rnd(4)]}(${randomIfExpression(rnd, depth - 1)})`;
  if (r < 6) return `(${randomIfExpression(rnd, depth - 1)} ? ${randomIfExpression(rnd, depth - 1)} : ${randomIfExpression(rnd, depth - 1)})`;
  return `(${randomIfExpression(rnd, depth - 1)} ${bin[rnd(bin.length)]} ${randomIfExpression(rnd, depth - 1)})`;
}
