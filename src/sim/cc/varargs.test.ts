// Variadic functions: va_start/va_arg/va_end/va_copy over int, long long and pointers, and
// printf/snprintf from the project's libc compiled by our front end.
import { expect, it } from 'vitest';
import { asserts, runC } from './front-util';

it('va_arg of int, long long and pointers', () => {
  expect(asserts(`
  ASSERT(15, sum(5, 1, 2, 3, 4, 5)); ASSERT(0, sum(0)); ASSERT(0x100000003LL, sum64(2, 1LL << 32, 3LL));
  ASSERT(0x100000006LL, mixed(3, 1, 1LL << 32, 5)); ASSERT('c', *pick(2, "a", "b", "c")); ASSERT(12, twice(3, 1, 2, 3));
  `, `
  int sum(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
  long long sum64(int n, ...) { va_list ap; va_start(ap, n); long long s = 0; while (n--) s += va_arg(ap, long long); va_end(ap); return s; }
  long long mixed(int n, ...) { va_list ap; va_start(ap, n); long long s = va_arg(ap, int); s += va_arg(ap, long long); s += va_arg(ap, int); va_end(ap); return s; }
  const char *pick(int i, ...) { va_list ap; va_start(ap, i); const char *r = 0; for (int k = 0; k <= i; k++) r = va_arg(ap, const char *); va_end(ap); return r; }
  int vsum(int n, va_list ap) { int s = 0; while (n--) s += va_arg(ap, int); return s; }
  int twice(int n, ...) { va_list ap, aq; va_start(ap, n); va_copy(aq, ap); int s = vsum(n, ap) + vsum(n, aq); va_end(aq); va_end(ap); return s; }
  `)).toBe('');
});

it('printf and snprintf from libc', () => {
  const r = runC(`#include <stdio.h>
  int main(void) { char b[32]; snprintf(b, sizeof b, "%d-%s", 42, "x"); printf("[%5d|%-3x|%c|%s|%lld|%u]\\n", -12, 255, 'z', b, -5000000000LL, 4000000000u); return 3; }`);
  expect(r.stdout).toBe('[  -12|ff |z|42-x|-5000000000|4000000000]\n');
  expect(r.exitCode).toBe(3);
});
