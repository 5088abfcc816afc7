/* GNU extensions the kernel library does not use: case ranges (`case lo ... hi:`, beside single
   cases, of chars and of negative values, one-element ranges) and the elvis operator `a ?: b`
   (a evaluated once). */
#include "test.h"

static int grade(int score) {
  switch (score) {
  case 90 ... 100: return 'A';
  case 80 ... 89: return 'B';
  case 0 ... 79: return 'C';
  default: return '?';
  }
}

static int kind(char c) {
  switch (c) {
  case 'a' ... 'z': return 1;
  case 'A' ... 'Z': return 2;
  case '0' ... '9': return 3;
  case '_': return 4;
  default: return 0;
  }
}

static int sign_band(int v) {
  switch (v) {
  case -0x7fffffff - 1 ... -1001: return -2;
  case -1000 ... -1: return -1;
  case 0 ... 0: return 0;
  case 1 ... 1000: return 1;
  default: return 2;
  }
}

static int evals;
static int once(int v) { evals++; return v; }

int main(void) {
  ASSERT(5, HIDE(5) ?: 9);
  ASSERT(9, HIDE(0) ?: 9);
  ASSERT(7, once(7) ?: once(8));
  ASSERT(1, evals);
  ASSERT(8, once(0) ?: once(8));
  ASSERT(3, evals);
  ASSERT('A', grade(HIDE(95)));
  ASSERT('A', grade(HIDE(100)));
  ASSERT('B', grade(HIDE(80)));
  ASSERT('B', grade(HIDE(89)));
  ASSERT('C', grade(HIDE(0)));
  ASSERT('?', grade(HIDE(101)));
  ASSERT('?', grade(HIDE(-1)));
  ASSERT(1, kind(HIDE('q')));
  ASSERT(2, kind(HIDE('Q')));
  ASSERT(3, kind(HIDE('5')));
  ASSERT(4, kind(HIDE('_')));
  ASSERT(0, kind(HIDE('{')));
  ASSERT(0, kind(HIDE('@')));
  ASSERT(-2, sign_band(HIDE(-0x7fffffff - 1)));
  ASSERT(-2, sign_band(HIDE(-1001)));
  ASSERT(-1, sign_band(HIDE(-1000)));
  ASSERT(-1, sign_band(HIDE(-1)));
  ASSERT(0, sign_band(HIDE(0)));
  ASSERT(1, sign_band(HIDE(1000)));
  ASSERT(2, sign_band(HIDE(1001)));
  ASSERT(2, sign_band(HIDE(0x7fffffff)));
  return done();
}
