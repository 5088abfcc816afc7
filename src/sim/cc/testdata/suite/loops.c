/* Loops the optimiser and the back end transform: invariant expressions, induction variables of
   several strides, counting down, unsigned and narrow counters that wrap, 2-D walks by row and by
   column, a loop-carried dependence through memory, copy and fill loops, reductions, early exits,
   loops around calls, nested loops with shared counters. Results are checked against closed
   forms or against a second, differently written loop. */
#include "test.h"

static int opaque(int x) { return HIDE(x); }

static void prefix_sum(int *a, int n) { for (int i = 1; i < n; i++) a[i] += a[i - 1]; }
static void copy_bytes(unsigned char *d, const unsigned char *s, int n) { for (int i = 0; i < n; i++) d[i] = s[i]; }
static void fill_words(int *d, int v, int n) { while (n-- > 0) *d++ = v; }
static void clear_bytes(char *d, int n) { for (int i = 0; i < n; i++) d[i] = 0; }

int main(void) {
  int n = HIDE(100), k = HIDE(7);
  long long s = 0;
  for (int i = 0; i < n; i++) s += i * k + k * k; /* k * k is invariant */
  ASSERT(7LL * 4950 + 100 * 49, s);

  int a = 0, b = 0, c = 0;
  for (int i = 0, j = 10, m = -5; i < n; i++, j += 3, m -= 2) { a += i; b += j; c += m; }
  ASSERT(4950, a);
  ASSERT(1000 + 3 * 4950, b);
  ASSERT(-500 - 2 * 4950, c);

  int down = 0;
  for (int i = n; i > 0; i -= 3) down += i;
  ASSERT(100 + 97 + 94 + 91 + 88 + 85 + 82 + 79 + 76 + 73 + 70 + 67 + 64 + 61 + 58 + 55 + 52 + 49 + 46 + 43 + 40 + 37 + 34 + 31 + 28 + 25 + 22 + 19 + 16 + 13 + 10 + 7 + 4 + 1, down);

  int wraps = 0;
  for (unsigned char u = HIDE((unsigned char)250); u != 4; u++) wraps++;
  ASSERT(10, wraps);
  wraps = 0;
  for (unsigned u = HIDE(0xfffffffdu); u != 2; u++) wraps++;
  ASSERT(5, wraps);
  int shorts = 0;
  for (short h = HIDE((short)32760); h > 0 && shorts < 100; h++) shorts++; /* h++ past 32767 converts to -32768 */
  ASSERT(8, shorts);

  static int grid[12][13];
  for (int i = 0; i < 12; i++) for (int j = 0; j < 13; j++) grid[i][j] = i * 100 + j;
  long long byrow = 0, bycol = 0;
  for (int i = 0; i < 12; i++) for (int j = 0; j < 13; j++) byrow += grid[i][j] * (i + 1);
  for (int j = 0; j < 13; j++) for (int i = 0; i < 12; i++) bycol += grid[i][j] * (i + 1);
  ASSERT(byrow, bycol);
  ASSERT(13 * 100 * 572 + 78 * 78, byrow); /* 13 sum 100 i (i+1) + sum (i+1) sum j */

  int arr[50];
  for (int i = 0; i < 50; i++) arr[i] = 1;
  prefix_sum(arr, 50);
  ASSERT(50, arr[49]);
  ASSERT(25, arr[24]);
  int tri[10];
  for (int i = 0; i < 10; i++) tri[i] = i;
  prefix_sum(tri, 10);
  ASSERT(45, tri[9]);

  unsigned char src[77], dst[77];
  for (int i = 0; i < 77; i++) src[i] = (unsigned char)(i * 7 + 3);
  copy_bytes(dst, src, 77);
  ASSERT(0, memcmp(dst, src, 77));
  copy_bytes(src + 1, src, 10); /* overlapping, forward: each byte copies the one just written */
  ASSERT(3, src[10]);
  int words[33];
  fill_words(words, HIDE(-9), 33);
  ASSERT(-9 * 33, ({ int t = 0; for (int i = 0; i < 33; i++) t += words[i]; t; }));
  char zs[19];
  memset(zs, 1, sizeof zs);
  clear_bytes(zs + 2, 15);
  ASSERT(1, zs[1]);
  ASSERT(0, zs[2]);
  ASSERT(0, zs[16]);
  ASSERT(1, zs[17]);

  int first = -1;
  for (int i = 0; i < n; i++) if (i * i > 500) { first = i; break; }
  ASSERT(23, first);
  int calls = 0;
  for (int i = 0; i < 10; i++) calls += opaque(i);
  ASSERT(45, calls);

  int outer = 0, total = 0;
  while (outer < 5) {
    int inner = outer;
    do { total += inner; inner++; } while (inner < 5);
    outer++;
  }
  ASSERT(0 + 1 + 2 + 3 + 4 + 1 + 2 + 3 + 4 + 2 + 3 + 4 + 3 + 4 + 4, total);

  /* A loop whose trip count depends on a 64-bit value. */
  long long big = HIDE(0x100000005LL);
  int trips = 0;
  for (long long x = 0x100000000LL; x < big; x++) trips++;
  ASSERT(5, trips);
  return done();
}
