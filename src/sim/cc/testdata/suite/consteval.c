/* Constant expressions: array sizes, enumerators, case labels and static initialisers computed at
   compile time, including sizeof, offsetof, casts, conditional expressions and address
   arithmetic on globals; the types of integer constants (decimal, hex, suffixes) and the usual
   conversions between them. */
#include "test.h"

struct s { char c; int i; long long ll; };
static int glob[10];
static char text[] = "constant";
enum { SIZE = sizeof(struct s) * 2 + (1 ? 3 : 4), SHIFTED = (1 << 10) - 1, NEGATIVE = -(int)sizeof(int) };
static int sized[SIZE];
static int *mid = glob + 5;
static int *end = &glob[10];
static const char *tail = text + sizeof text - 4;
static const int offs[] = {offsetof(struct s, c), offsetof(struct s, i), offsetof(struct s, ll)};
static const long long folded = (long long)0x7fffffff * 2 + 2;
static const unsigned wrapped = (unsigned)-1 / 2 + 1;
static const int cond = sizeof(long long) > 4 ? 100 : 200;
static const int elems_between = (int)(&glob[7] - &glob[2]);
_Static_assert(SIZE == 35, "SIZE");
_Static_assert(sizeof(sized) == 140, "sized");

static int classify(int v) {
  switch (v) {
  case SHIFTED: return 1;
  case NEGATIVE: return 2;
  case sizeof(struct s): return 3;
  case 'a' + 1: return 4;
  case (char)300: return 5;
  default: return 0;
  }
}

int main(void) {
  ASSERT(35, SIZE);
  ASSERT(35, sizeof sized / sizeof sized[0]);
  ASSERT(1023, SHIFTED);
  ASSERT(-4, NEGATIVE);
  ASSERT(5, mid - glob);
  ASSERT(10, end - glob);
  ASSERT(0, strcmp(tail, "ant"));
  ASSERT(8, offs[2]);
  ASSERT(0x100000000LL, folded);
  ASSERT(0x80000000u, wrapped);
  ASSERT(100, cond);
  ASSERT(5, elems_between);
  ASSERT(1, classify(HIDE(1023)));
  ASSERT(2, classify(HIDE(-4)));
  ASSERT(3, classify(HIDE(16)));
  ASSERT(4, classify(HIDE('b')));
  ASSERT(5, classify(HIDE(44)));

  /* Types of integer constants. */
  ASSERT(4, sizeof 2147483647);
  ASSERT(8, sizeof 2147483648);     /* decimal: does not fit int, so long long */
  ASSERT(4, sizeof 0x80000000);     /* hex: fits unsigned int */
  ASSERT(8, sizeof 0x100000000);
  ASSERT(4, sizeof 10u);
  ASSERT(8, sizeof 10ll);
  ASSERT(4, sizeof 10l);
  ASSERT(1, 0x80000000 > 0);        /* unsigned */
  ASSERT(1, -2147483648 < 0);       /* long long */
  ASSERT(0, -1 < 0u);
  ASSERT(1, -1 < 0ll);
  ASSERT(0xffffffff, -1u);
  ASSERT(8, 010);
  ASSERT(0, 0);
  ASSERT(255, 0xFF);
  ASSERT(1, 'A' == 65);
  ASSERT(-1, ~0);
  ASSERT(0x7fffffff, 0x7fffffff);
  return done();
}
