/* Enumerations and typedefs: implicit and explicit values, negative and large enumerators,
   enumerators in constant expressions and case labels, enum variables' size and arithmetic,
   typedefs of scalars, pointers, arrays, structs and function types (a typedef name shadowed by
   a variable: scopes.c). */
#include "test.h"

enum colour { RED, GREEN, BLUE };
enum mixed { A = -2, B, C = 10, D, E = C + D, F = 1 << 20 };
enum { ANON_FIRST = 7, ANON_SECOND };
typedef enum { OFF, ON } state;
typedef int i32;
typedef i32 *i32p;
typedef int row[4];
typedef struct pt { int x, y; } pt;
typedef int binop(int, int);
typedef binop *binop_ptr;
static int add(int a, int b) { return a + b; }

static const char *name(enum colour c) {
  switch (c) {
  case RED: return "red";
  case GREEN: return "green";
  case BLUE: return "blue";
  }
  return "?";
}

int main(void) {
  ASSERT(0, RED);
  ASSERT(2, BLUE);
  ASSERT(-2, A);
  ASSERT(-1, B);
  ASSERT(11, D);
  ASSERT(21, E);
  ASSERT(0x100000, F);
  ASSERT(8, ANON_SECOND);
  ASSERT(4, sizeof(enum colour));
  enum colour c = HIDE(GREEN);
  ASSERT(0, strcmp(name(c), "green"));
  c = (enum colour)(c + 1);
  ASSERT(0, strcmp(name(c), "blue"));
  ASSERT(1, c > RED);
  int arr[BLUE + 1];
  ASSERT(12, sizeof arr);
  state s = ON;
  ASSERT(1, s);
  s = !s;
  ASSERT(OFF, s);

  i32 v = 5;
  i32p pv = &v;
  *pv = 6;
  ASSERT(6, v);
  row r = {1, 2, 3, 4};
  ASSERT(16, sizeof(row));
  ASSERT(4, r[3]);
  pt p = {1, 2};
  struct pt q = p;
  ASSERT(2, q.y);
  binop *f = add;
  binop_ptr g = &add;
  ASSERT(5, f(2, 3) + g(0, 0));
  i32 after = 9;
  ASSERT(9, after);
  return done();
}
