/* Function pointers: calls through pointers and typedefs, arrays and structs of them, callbacks,
   functions returning function pointers, comparing them, a sort with a comparator. */
#include "test.h"

typedef int (*binop)(int, int);
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int apply(binop f, int a, int b) { return f(a, b); }
static binop pick(char c) { return c == '+' ? add : c == '-' ? sub : mul; }
static int (*pick2(int i))(int, int) { static binop t[] = {add, sub, mul}; return t[i]; }

struct ops { const char *name; binop f; };
static const struct ops table[] = {{"add", add}, {"sub", sub}, {"mul", &mul}};

static int cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
static int cmp_desc(const void *a, const void *b) { return cmp_int(b, a); }
static void isort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  char *p = base;
  char tmp[16];
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && cmp(p + (j - 1) * size, p + j * size) > 0; j--) {
      memcpy(tmp, p + j * size, size);
      memcpy(p + j * size, p + (j - 1) * size, size);
      memcpy(p + (j - 1) * size, tmp, size);
    }
}

static long long big(long long a, int b) { return a * b; }
static void store(int *p, int v) { *p = v; }
static int counter;
static void tick(void) { counter++; }
static void repeat(void (*f)(void), int n) { while (n--) f(); }

int main(void) {
  binop f = add;
  ASSERT(5, f(2, 3));
  ASSERT(5, (*f)(2, 3));
  ASSERT(-1, apply(sub, 2, 3));
  ASSERT(6, apply(mul, 2, 3));
  ASSERT(6, pick('*')(2, 3));
  ASSERT(-1, pick(HIDE('-'))(2, 3));
  ASSERT(-1, pick2(HIDE(1))(2, 3));
  ASSERT(1, pick('+') == add);
  ASSERT(0, pick('+') == sub);
  ASSERT(1, f != 0);

  int acc = 0;
  for (int i = 0; i < 3; i++) acc = acc * 100 + table[i].f(10, 3);
  ASSERT(130730, acc);
  ASSERT(0, strcmp(table[2].name, "mul"));

  binop arr[3] = {mul, add, sub};
  int r = 1;
  for (int i = 0; i < 3; i++) r = arr[i](r + 1, 2);
  ASSERT(6, r);

  int v[8] = {5, -2, 9, 0, 3, 3, -7, 1};
  isort(v, 8, sizeof v[0], cmp_int);
  ASSERT(-7, v[0]);
  ASSERT(9, v[7]);
  int ok = 1;
  for (int i = 1; i < 8; i++) ok &= v[i - 1] <= v[i];
  ASSERT(1, ok);
  isort(v, 8, sizeof v[0], cmp_desc);
  ASSERT(9, v[0]);
  ASSERT(-7, v[7]);

  long long (*g)(long long, int) = big;
  ASSERT(0x300000000LL, g(HIDE(0x100000000LL), 3));
  void (*s)(int *, int) = store;
  int cell = 0;
  s(&cell, 44);
  ASSERT(44, cell);
  repeat(tick, 5);
  ASSERT(5, counter);

  /* A pointer to a function pointer, and a function pointer through void * and back is not
     portable C; use a uintptr_t round trip instead. */
  binop *pf = &f;
  ASSERT(7, (*pf)(3, 4));
  uintptr_t bits = (uintptr_t)f;
  binop back = (binop)bits;
  ASSERT(9, back(4, 5));
  return done();
}
