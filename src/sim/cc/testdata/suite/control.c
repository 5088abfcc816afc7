/* Control flow: if/else chains, while, do-while, for (with declarations, break, continue),
   nested loops with early exits, short-circuit evaluation, loops that run zero times. */
#include "test.h"

static int classify(int x) {
  if (x < 0) return -1;
  else if (x == 0) return 0;
  else if (x < 10) return 1;
  else return 2;
}

static int count_bits(unsigned v) {
  int n = 0;
  while (v) { n += v & 1; v >>= 1; }
  return n;
}

static int first_index(const int *a, int n, int want) {
  for (int i = 0; i < n; i++)
    if (a[i] == want) return i;
  return -1;
}

static int side;
static int bump(int v) { side++; return v; }

int main(void) {
  ASSERT(-1, classify(HIDE(-5)));
  ASSERT(0, classify(HIDE(0)));
  ASSERT(1, classify(HIDE(9)));
  ASSERT(2, classify(HIDE(10)));

  int i = 0, sum = 0;
  while (i < 10) sum += i++;
  ASSERT(45, sum);
  ASSERT(10, i);

  i = 100; sum = 0;
  do sum += i; while (i < 10);
  ASSERT(100, sum);

  i = 0; sum = 0;
  do { sum += i; i += 3; } while (i < 20);
  ASSERT(63, sum);

  sum = 0;
  for (int k = 0; k < 100; k++) {
    if (k % 2) continue;
    if (k > 50) break;
    sum += k;
  }
  ASSERT(650, sum);

  sum = 0;
  for (;;) { if (++sum == 7) break; }
  ASSERT(7, sum);

  sum = 0;
  for (int k = HIDE(5); k < 5; k++) sum++;
  ASSERT(0, sum);
  for (int k = HIDE(5); k > 0; k--) sum += k;
  ASSERT(15, sum);
  for (unsigned k = HIDE(3u); k-- > 0;) sum += 100;
  ASSERT(315, sum);

  /* A nested loop left from the inside with a flag and with break. */
  int found_i = -1, found_j = -1;
  for (int a = 0; a < 10 && found_i < 0; a++)
    for (int b = 0; b < 10; b++)
      if (a * b == 42) { found_i = a; found_j = b; break; }
  ASSERT(6, found_i);
  ASSERT(7, found_j);

  /* The scope of a for declaration ends with the loop. */
  int k = 77;
  for (int k = 0; k < 3; k++) {}
  ASSERT(77, k);
  { int k = 5; ASSERT(5, k); }
  ASSERT(77, k);

  ASSERT(32, count_bits(HIDE(0xffffffffu)));
  ASSERT(0, count_bits(HIDE(0u)));
  ASSERT(13, count_bits(HIDE(0x12345678u)));

  static const int arr[] = {4, 8, 15, 16, 23, 42};
  ASSERT(3, first_index(arr, 6, HIDE(16)));
  ASSERT(-1, first_index(arr, 6, HIDE(7)));
  ASSERT(-1, first_index(arr, 0, HIDE(4)));

  /* Short circuits evaluate the right side only when needed. */
  side = 0;
  int r = bump(0) && bump(1);
  ASSERT(0, r); ASSERT(1, side);
  r = bump(1) || bump(1);
  ASSERT(1, r); ASSERT(2, side);
  r = bump(1) && bump(2) && bump(0) && bump(3);
  ASSERT(0, r); ASSERT(5, side);
  r = (bump(0) || bump(0)) ? bump(7) : bump(8);
  ASSERT(8, r); ASSERT(8, side);

  /* Conditions on every comparison, both ways, against constants and registers. */
  int v = HIDE(3), hits = 0;
  if (v == 3) hits |= 1;
  if (v != 3) hits |= 2;
  if (v < 4) hits |= 4;
  if (v <= 2) hits |= 8;
  if (v > 2) hits |= 16;
  if (v >= 4) hits |= 32;
  if ((unsigned)v < 2u) hits |= 64;
  if ((unsigned)-v > 2u) hits |= 128;
  if (!v) hits |= 256;
  if (v & 2) hits |= 512;
  ASSERT(1 | 4 | 16 | 128 | 512, hits);

  /* A loop whose bound changes inside it. */
  int n = 10, steps = 0;
  for (int j = 0; j < n; j++) { if (j == 2) n = 5; steps++; }
  ASSERT(5, steps);

  /* The comma operator in for clauses. */
  int p, q;
  for (p = 0, q = 10; p < q; p++, q--) {}
  ASSERT(5, p);
  ASSERT(5, q);
  return done();
}
