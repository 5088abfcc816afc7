/* _Bool: conversion from integers, pointers and 64-bit values (any non-zero is 1), arithmetic on
   bools, increments and compound assignments, bools in structs and arrays, bool results of
   comparisons and logical operators, bool parameters and returns. */
#include "test.h"
#include <stdbool.h>

static bool is_even(int v) { return !(v & 1); }
static int count(const bool *b, int n) { int c = 0; for (int i = 0; i < n; i++) c += b[i]; return c; }
static bool nonzero64(long long v) { return v; }

int main(void) {
  bool t = HIDE(42), f = HIDE(0);
  ASSERT(1, t);
  ASSERT(0, f);
  ASSERT(1, sizeof(bool));
  ASSERT(1, (bool)HIDE(-1));
  ASSERT(1, (bool)HIDE(256));
  ASSERT(1, (bool)HIDE(0x100000000LL));
  ASSERT(1, nonzero64(HIDE(0x100000000LL)));
  ASSERT(0, nonzero64(HIDE(0LL)));
  int x = 0;
  bool p = &x;
  ASSERT(1, p);
  int *null = HIDE((int *)0);
  bool q = null;
  ASSERT(0, q);
  ASSERT(2, t + t);
  ASSERT(-1, -t);
  t++;
  ASSERT(1, t);
  f--;
  ASSERT(1, f); /* 0 - 1 is -1, which converts to 1 */
  t += 5;
  ASSERT(1, t);
  t -= 1;
  ASSERT(0, t);
  t = 3 & 4;
  ASSERT(0, t);
  ASSERT(1, is_even(HIDE(10)));
  ASSERT(0, is_even(HIDE(7)));
  bool flags[6] = {1, 0, 7, 0, -3, 1};
  ASSERT(4, count(flags, 6));
  ASSERT(1, flags[2]);
  struct { bool a; bool b; char c; } s = {2, 0, 'x'};
  ASSERT(1, s.a);
  ASSERT(3, sizeof s);
  ASSERT(1, true);
  ASSERT(0, false);
  bool cmp = HIDE(3) > HIDE(2);
  ASSERT(1, cmp);
  ASSERT(1, (HIDE(1) && HIDE(2)) == true);
  return done();
}
