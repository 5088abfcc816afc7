// Pointers and arrays: address-of, dereference, arithmetic, differences, comparisons, decay,
// multi-dimensional arrays, pointers to pointers, void *, string literals.
import { expect, it } from 'vitest';
import { asserts } from './front-util';

it('a failing ASSERT is reported (the harness itself)', () => {
  expect(asserts('ASSERT(1, 2);')).toMatch(/line \d+: 2 => 2, want 1\nexit 1/);
});

it('pointer arithmetic', () => {
  expect(asserts(`
  int x = 3; int *p = &x; *p = 5; ASSERT(5, x); int **pp = &p; **pp = 7; ASSERT(7, x);
  int a[5] = {1, 2, 3, 4, 5}; int *q = a; ASSERT(3, *(q + 2)); ASSERT(3, q[2]); ASSERT(3, 2[q]);
  ASSERT(4, &a[4] - &a[0]); ASSERT(1, &a[1] > &a[0]); q += 3; ASSERT(4, *q); q--; ASSERT(3, *q); ASSERT(3, *q++); ASSERT(4, *q);
  long long ll[3] = {1, 2, 3}; long long *lp = ll; ASSERT(8, (char *)(lp + 1) - (char *)lp); ASSERT(3, lp[2]);
  void *v = a; ASSERT(2, *((int *)v + 1)); ASSERT(1, (char *)v + 4 == (char *)&a[1]);
  int *n = 0; ASSERT(1, n == 0); ASSERT(0, !a);
  `)).toBe('');
});

it('arrays', () => {
  expect(asserts(`
  int m[2][3] = {{1, 2, 3}, {4, 5, 6}}; ASSERT(6, m[1][2]); ASSERT(24, sizeof m); ASSERT(12, sizeof m[0]); ASSERT(4, *m[1]);
  int (*row)[3] = m; ASSERT(5, row[1][1]); ASSERT(12, (char *)(row + 1) - (char *)row);
  char s[] = "hello"; ASSERT(6, sizeof s); ASSERT('l', s[3]); ASSERT(0, s[5]);
  const char *t = "abc" "def"; ASSERT('e', t[4]); ASSERT(6, strlen(t)); ASSERT(4, sizeof("abc"));
  ASSERT('b', "abc"[1]); ASSERT(0, strcmp(s, "hello"));
  int z[10] = {0}; ASSERT(0, z[9]); ASSERT(40, sizeof z); ASSERT(10, sizeof z / sizeof z[0]);
  `)).toBe('');
});

it('pointers as parameters, returned pointers', () => {
  expect(asserts(`int a = 1, b = 2; swap(&a, &b); ASSERT(2, a); ASSERT(1, b); int arr[4] = {4, 3, 2, 1}; ASSERT(2, *at(arr, 2)); ASSERT(10, sum(arr, 4));`,
    `void swap(int *x, int *y) { int t = *x; *x = *y; *y = t; }
     int *at(int *p, int i) { return &p[i]; }
     int sum(const int a[], int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }`)).toBe('');
});
