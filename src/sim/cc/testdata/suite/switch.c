/* switch: dense cases (a jump table), sparse and negative cases, fall-through, default first or
   in the middle, no default, nested switches, switch on char and long long,
   break and continue inside loops (GNU case ranges: gnu_extras.c). */
#include "test.h"

static int dense(int x) {
  switch (x) {
  case 0: return 10;
  case 1: return 11;
  case 2: return 12;
  case 3: return 13;
  case 4: return 14;
  case 5: return 15;
  case 6: return 16;
  case 7: return 17;
  default: return -1;
  }
}

static int sparse(int x) {
  switch (x) {
  case -1000000: return 1;
  case -3: return 2;
  case 17: return 3;
  case 1000: return 4;
  case 0x7fffffff: return 5;
  case -0x7fffffff - 1: return 6;
  }
  return 0;
}

static int fall(int x) {
  int r = 0;
  switch (x) {
  case 1: r += 1; /* fall through */
  case 2: r += 10; /* fall through */
  default: r += 100; /* fall through */
  case 3: r += 1000; break;
  case 4: r += 10000;
  }
  return r;
}

static int on_char(char c) {
  switch (c) {
  case 'a': case 'e': case 'i': case 'o': case 'u': return 1;
  case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': return 2;
  case '\n': return 3;
  case (char)0xff: return 4;
  default: return 0;
  }
}

static int on_ll(long long v) {
  switch (v) {
  case 0x100000000LL: return 1;
  case 1: return 2;
  case -1: return 3;
  case 0x7fffffffffffffffLL: return 4;
  default: return 0;
  }
}

static int on_unsigned(unsigned v) {
  switch (v) {
  case 0xffffffffu: return 1;
  case 0x80000000u: return 2;
  case 0: return 3;
  default: return 4;
  }
}

static int nested(int a, int b) {
  switch (a) {
  case 0:
    switch (b) {
    case 0: return 0;
    case 1: return 1;
    }
    return 2;
  case 1:
    switch (b) {
    default: return 3;
    case 5: break;
    }
    return 4;
  }
  return 5;
}

/* A switch with a body that is not a compound statement, and case labels inside a block. */
static int odd_bodies(int x) {
  int r = 0;
  switch (x) case 1: r = 7;
  switch (x) {
    { case 2: r = 8; break; }
    case 3: { r = 9; }
  }
  return r;
}

int main(void) {
  int ok = 1;
  for (int i = -2; i < 10; i++) ok &= dense(HIDE(i)) == (i >= 0 && i < 8 ? 10 + i : -1);
  ASSERT(1, ok);
  ASSERT(1, sparse(HIDE(-1000000)));
  ASSERT(2, sparse(HIDE(-3)));
  ASSERT(3, sparse(HIDE(17)));
  ASSERT(4, sparse(HIDE(1000)));
  ASSERT(5, sparse(HIDE(0x7fffffff)));
  ASSERT(6, sparse(HIDE(-0x7fffffff - 1)));
  ASSERT(0, sparse(HIDE(18)));
  ASSERT(1111, fall(HIDE(1)));
  ASSERT(1110, fall(HIDE(2)));
  ASSERT(1000, fall(HIDE(3)));
  ASSERT(10000, fall(HIDE(4)));
  ASSERT(1100, fall(HIDE(99)));
  ASSERT(1, on_char(HIDE('o')));
  ASSERT(2, on_char(HIDE('7')));
  ASSERT(3, on_char(HIDE('\n')));
  ASSERT(4, on_char(HIDE((char)255)));
  ASSERT(0, on_char(HIDE('z')));
  ASSERT(1, on_ll(HIDE(0x100000000LL)));
  ASSERT(2, on_ll(HIDE(1LL)));
  ASSERT(3, on_ll(HIDE(-1LL)));
  ASSERT(4, on_ll(HIDE(0x7fffffffffffffffLL)));
  ASSERT(0, on_ll(HIDE(0x100000001LL)));
  ASSERT(0, on_ll(HIDE(0x7fffffff00000001LL)));
  ASSERT(1, on_unsigned(HIDE(0xffffffffu)));
  ASSERT(2, on_unsigned(HIDE(0x80000000u)));
  ASSERT(3, on_unsigned(HIDE(0u)));
  ASSERT(4, on_unsigned(HIDE(5u)));
  ASSERT(0, nested(0, 0));
  ASSERT(1, nested(0, 1));
  ASSERT(2, nested(0, 2));
  ASSERT(3, nested(1, 0));
  ASSERT(4, nested(1, 5));
  ASSERT(5, nested(2, 0));
  ASSERT(7, odd_bodies(HIDE(1)));
  ASSERT(8, odd_bodies(HIDE(2)));
  ASSERT(9, odd_bodies(HIDE(3)));
  ASSERT(0, odd_bodies(HIDE(4)));

  /* break leaves the switch, continue the loop around it. */
  int sum = 0;
  for (int i = 0; i < 10; i++) {
    switch (i % 3) {
    case 0: continue;
    case 1: sum += i; break;
    default: sum += 100;
    }
    sum += 1000;
  }
  ASSERT(1 + 4 + 7 + 300 + 6000, sum);

  /* Duff's device. */
  char src[13] = "duff device!", dst[13] = {0};
  char *to = dst, *from = src;
  int count = 12, n = (count + 3) / 4;
  switch (count % 4) {
  case 0: do { *to++ = *from++;
  case 3:      *to++ = *from++;
  case 2:      *to++ = *from++;
  case 1:      *to++ = *from++;
          } while (--n > 0);
  }
  ASSERT(0, strcmp(dst, "duff device!"));
  return done();
}
