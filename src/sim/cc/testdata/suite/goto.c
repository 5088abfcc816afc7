/* goto: forward and backward jumps, loops written with goto, leaving nested loops, jumping into
   a block past declarations without initialisers, labels on empty statements, shared cleanup
   labels. */
#include "test.h"

static int find(int m[4][4], int want, int *ri, int *rj) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      if (m[i][j] == want) { *ri = i; *rj = j; goto found; }
  return 0;
found:
  return 1;
}

static int cleanup(int fail_at) {
  int steps = 0;
  if (fail_at == 1) goto out1;
  steps += 1;
  if (fail_at == 2) goto out2;
  steps += 10;
  if (fail_at == 3) goto out3;
  steps += 100;
out3:
  steps += 1000;
out2:
  steps += 10000;
out1:
  return steps;
}

static int gcd(int a, int b) {
again:
  if (b == 0) return a;
  { int t = a % b; a = b; b = t; }
  goto again;
}

int main(void) {
  int i = 0, s = 0;
loop:
  s += i;
  if (++i < 10) goto loop;
  ASSERT(45, s);

  goto skip;
  s = -1;
skip:
  ASSERT(45, s);

  int m[4][4];
  for (int a = 0; a < 4; a++) for (int b = 0; b < 4; b++) m[a][b] = a * 4 + b;
  int ri = -1, rj = -1;
  ASSERT(1, find(m, HIDE(11), &ri, &rj));
  ASSERT(2, ri);
  ASSERT(3, rj);
  ASSERT(0, find(m, HIDE(16), &ri, &rj));

  ASSERT(0, cleanup(1));
  ASSERT(10001, cleanup(2));
  ASSERT(11011, cleanup(3));
  ASSERT(11111, cleanup(4));
  ASSERT(6, gcd(HIDE(48), 18));
  ASSERT(1, gcd(HIDE(17), 5));

  /* Into a block, past a declaration that has no initialiser. */
  int r = 0;
  goto inside;
  {
    int x;
  inside:
    x = 5;
    r = x * 2;
  }
  ASSERT(10, r);

  /* Backward jump out of a block, counting down. */
  int n = HIDE(3), passes = 0;
top:
  {
    passes++;
    if (--n > 0) goto top;
  }
  ASSERT(3, passes);
  ;
end:;
  return done();
}
