/* Scopes and name spaces: block-scope variables shadowing outer ones and globals, a typedef name
   redeclared as a variable (or as a parameter) in an inner scope, struct tags declared again in
   an inner block, labels, tags and ordinary identifiers sharing a spelling, a for-loop's own
   scope, and an extern declaration at block scope. */
#include "test.h"

typedef int T;
int shadowed = 1;
struct tag { int a; };

static int param_named_like_typedef(int T) { return T * 2; }
static int uses_extern(void) { extern int shadowed; return shadowed; }

int main(void) {
  T outer = 5;
  ASSERT(5, outer);
  {
    int T = 3; /* now a variable */
    ASSERT(3, T);
    ASSERT(6, T * 2);
  }
  T again = 7; /* and the typedef once more */
  ASSERT(7, again);
  ASSERT(8, param_named_like_typedef(4));

  int shadowed = 2;
  ASSERT(2, shadowed);
  {
    int shadowed = 3;
    ASSERT(3, shadowed);
    {
      ASSERT(1, uses_extern());
    }
  }
  ASSERT(2, shadowed);

  struct tag s = {1};
  {
    struct tag { long long a, b; } inner = {2, 3};
    ASSERT(16, sizeof inner);
    ASSERT(3, inner.b);
  }
  ASSERT(4, sizeof s);

  /* One spelling in three name spaces: a label, a struct tag, a variable. */
  struct x { int x; } x = {9};
  goto x;
x:
  ASSERT(9, x.x);

  int i = 100;
  for (int i = 0; i < 3; i++) {
    int i = 50; /* the body is a scope inside the for's */
    ASSERT(50, i);
  }
  ASSERT(100, i);
  return done();
}
