/* Compound literals: scalars, arrays, structs (as arguments, returned, assigned), their
   lifetime (the enclosing block: a new object each pass is not required, but each evaluation
   re-initialises it), file-scope compound literals, addresses of them. */
#include "test.h"

struct pt { int x, y; };
struct big { int v[6]; };

static int *file_scope = (int[]){10, 20, 30};
static struct pt *file_pt = &(struct pt){7, 8};

static int sum_pt(struct pt p) { return p.x + p.y; }
static int sum_big(struct big b) { int s = 0; for (int i = 0; i < 6; i++) s += b.v[i]; return s; }
static int sum_arr(const int *a, int n) { int s = 0; while (n--) s += a[n]; return s; }
static struct pt mid(struct pt a, struct pt b) { return (struct pt){(a.x + b.x) / 2, (a.y + b.y) / 2}; }

int main(void) {
  ASSERT(5, (int){5});
  int *p = &(int){9};
  *p += 1;
  ASSERT(10, *p);
  ASSERT(3, ((int[]){1, 2, 3})[2]);
  ASSERT(12, sizeof((int[]){1, 2, 3}));
  ASSERT(11, sum_pt((struct pt){HIDE(5), 6}));
  ASSERT(21, sum_big((struct big){{1, 2, 3, 4, 5, 6}}));
  ASSERT(15, sum_big((struct big){.v[4] = 15}));
  ASSERT(10, sum_arr((int[]){1, 2, 3, 4}, 4));
  ASSERT(0, sum_arr((int[8]){0}, 8));
  struct pt m = mid((struct pt){0, 0}, (struct pt){HIDE(10), 20});
  ASSERT(5, m.x);
  ASSERT(10, m.y);
  m = (struct pt){.y = 1};
  ASSERT(0, m.x);
  ASSERT(1, m.y);
  ASSERT(4, ((struct pt){3, 4}).y);
  ASSERT(20, file_scope[1]);
  ASSERT(8, file_pt->y);
  file_pt->y = 99;
  ASSERT(99, file_pt->y);

  /* Each evaluation initialises the literal again. */
  int total = 0;
  for (int i = 0; i < 4; i++) {
    int *q = (int[2]){i, i * 10};
    q[0] += 100;
    total += q[0] + q[1];
  }
  ASSERT(400 + 6 + 60, total);

  /* A compound literal of pointers and strings. */
  const char **words = (const char *[]){"a", "bb", "ccc", 0};
  int n = 0;
  while (words[n]) n++;
  ASSERT(3, n);
  ASSERT(3, (int)strlen(words[2]));

  /* Nested: a struct literal holding an array literal's address. */
  struct { int *vals; int n; } view = {(int[]){4, 5, 6}, 3};
  ASSERT(15, sum_arr(view.vals, view.n));
  const char *s = (const char[]){'o', 'k', 0};
  ASSERT(0, strcmp(s, "ok"));
  return done();
}
