// The GNU extensions the kernel library uses: attributes, builtins, statement expressions,
// __typeof__, _Static_assert, #pragma GCC unroll (kept on the loop), inline asm (kept in the IR).
import { expect, it } from 'vitest';
import { asserts, compileSnippet } from './front-util';

it('attributes, builtins, typeof, statement expressions', () => {
  expect(asserts(`
  ASSERT(5, f(5)); ASSERT(8, _Alignof(al)); ASSERT(16, __alignof__(buf)); ASSERT(1, __builtin_expect(x > 0, 1));
  char d[8]; __builtin_memset(d, 7, 8); ASSERT(7, d[7]); __builtin_memcpy(d, "abc", 4); ASSERT('c', d[2]);
  ASSERT(28, __builtin_clz(15)); ASSERT(4, __builtin_ctz(16)); ASSERT(3, __builtin_popcount(7)); ASSERT(0x78563412, __builtin_bswap32(0x12345678));
  __typeof__(x) y = 3; ASSERT(4, sizeof y); ASSERT(6, ({ int t = y; t * 2; })); ASSERT(4, MAX(3, 4));
  ASSERT(8, __builtin_offsetof(struct S, b)); ASSERT(1, __builtin_constant_p(3)); ASSERT(7, __builtin_abs(-7));
  _Static_assert(sizeof(int) == 4, "ilp32");
  `, `static inline __attribute__((always_inline)) int f(int v) { return v; }
      typedef int al __attribute__((aligned(8))); static __attribute__((aligned(16), section(".l1"))) char buf[4];
      int x = 1; __attribute__((noinline, unused)) static int g(void) { return 0; }
      #define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
      struct S { int a; long long b; } __attribute__((may_alias));
      __attribute__((noreturn)) void die(void); int printf(const char *, ...) __attribute__((format(printf, 1, 2)));`)).toBe('');
});

it('keeps #pragma GCC unroll on the loop, sections and inline asm in the IR', () => {
  const m = compileSnippet(`
  __attribute__((section(".l1"))) int tbl[4];
  int clip(int v, int hi) {
    int r;
    #pragma GCC unroll 4
    for (int i = 0; i < 4; i++) tbl[i] = i;
    __asm__ volatile("cv.clipr %0, %1, %2" : "=r"(r) : "r"(v), "r"(hi) : "memory");
    __asm__("addi %0, %0, %1" : "+r"(r) : "i"(1));
    return r;
  }`);
  const f = m.functions.find((x) => x.name === 'clip')!;
  const insts = f.blocks.flatMap((b) => b.insts);
  expect(insts.some((x) => x.pragmas?.includes('GCC unroll 4'))).toBe(true);
  const asm = insts.filter((x) => x.op === 'asm');
  expect(asm[0].asm).toMatchObject({ template: 'cv.clipr %0, %1, %2', outputs: ['=r'], inputs: ['r', 'r'], clobbers: ['memory'], volatile: true });
  expect(asm[1].asm).toMatchObject({ outputs: ['+r'], inputs: ['0', 'i'] });
  expect(m.globals.find((g) => g.name === 'tbl')!.section).toBe('.l1');
  expect(insts.every((x) => /^\/t\/main\.c:\d+$/.test(x.loc))).toBe(true);
});

it('__func__ and __FUNCTION__ name the function; a function that never names itself has no string for it', () => {
  expect(asserts(`
  ASSERT('n', name_of()[0]); ASSERT(13, name_of_size()); ASSERT(0, strcmp(name_of(), "name_of")); ASSERT(0, strcmp(both(), "both"));
  `, `#include <string.h>
      const char *name_of(void) { return __func__; }
      const char *both(void) { return __func__ == __FUNCTION__ ? __FUNCTION__ : "no"; }
      long name_of_size(void) { return sizeof __func__; }`)).toBe('');
  const m = compileSnippet('int quiet(void) { return 1; }\nconst char *loud(void) { return __func__; }');
  expect(m.globals.map((g) => [g.name, g.bytes && new TextDecoder().decode(g.bytes)])).toEqual([['.str.0', 'loud\0']]);
});
