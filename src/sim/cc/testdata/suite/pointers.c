/* Pointers: address-of and dereference, arithmetic and differences, comparisons, pointers to
   pointers, void *, casts between object pointer types, const, pointers to arrays. */
#include "test.h"

static void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
static int *max_of(int *a, int *b) { return *a > *b ? a : b; }
static void set_ptr(int **pp, int *to) { *pp = to; }
static int sum_to(const int *p, const int *end) { int s = 0; while (p != end) s += *p++; return s; }

int main(void) {
  int x = 3, y = 5;
  int *p = &x;
  ASSERT(3, *p);
  *p = 7;
  ASSERT(7, x);
  int **pp = &p;
  ASSERT(7, **pp);
  *pp = &y;
  ASSERT(5, *p);
  set_ptr(&p, &x);
  ASSERT(7, *p);
  swap(&x, &y);
  ASSERT(5, x);
  ASSERT(7, y);
  ASSERT(7, *max_of(&x, &y));
  *max_of(&x, &y) = 1;
  ASSERT(1, y);

  int a[6] = {10, 20, 30, 40, 50, 60};
  int *q = a;
  ASSERT(10, *q);
  ASSERT(30, *(q + 2));
  ASSERT(30, q[2]);
  ASSERT(30, 2[q]);
  q += 4;
  ASSERT(50, *q);
  ASSERT(40, q[-1]);
  ASSERT(4, q - a);
  ASSERT(-4, a - q);
  ASSERT(1, q > a);
  ASSERT(1, a + 6 > q);
  ASSERT(0, q == a);
  ASSERT(60, *++q);
  ASSERT(60, *q--);
  ASSERT(50, *q);
  ASSERT(210, sum_to(a, a + 6));
  ASSERT(0, sum_to(a + 3, a + 3));

  /* Element size scales arithmetic and differences. */
  long long ll[4];
  ASSERT(8, (char *)(ll + 1) - (char *)ll);
  ASSERT(3, &ll[3] - &ll[0]);
  short sh[4];
  ASSERT(6, (char *)&sh[3] - (char *)sh);

  /* void * and char * views of the same bytes (little-endian). */
  unsigned w = HIDE(0x11223344u);
  void *v = &w;
  unsigned char *b = v;
  ASSERT(0x44, b[0]);
  ASSERT(0x11, b[3]);
  b[1] = 0xaa;
  ASSERT(0x1122aa44, w);
  unsigned short *h = (unsigned short *)&w;
  ASSERT(0x1122, h[1]);

  /* Pointers to arrays and arrays of pointers. */
  int m[3][4];
  for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) m[i][j] = i * 10 + j;
  int (*row)[4] = m;
  ASSERT(12, row[1][2]);
  row++;
  ASSERT(10, (*row)[0]);
  ASSERT(16, sizeof *row);
  int *ptrs[3] = {&m[0][1], &m[1][2], &m[2][3]};
  ASSERT(23, *ptrs[2]);
  ASSERT(12, *ptrs[1]);

  /* Null pointers and conditions on pointers. */
  int *null = 0;
  ASSERT(1, !null);
  ASSERT(0, null != NULL);
  ASSERT(1, p ? 1 : 0);
  p = HIDE(null);
  ASSERT(0, p ? 1 : 0);

  /* const pointees; a pointer to const and a const pointer. */
  const int c = 9;
  const int *pc = &c;
  int *const cp = &x;
  *cp = 11;
  ASSERT(11, x);
  ASSERT(9, *pc);

  /* Walking a string by pointer. */
  const char *s = "pointer";
  int len = 0;
  while (*s++) len++;
  ASSERT(7, len);

  /* Pointer comparison in a loop going down, and a pointer round trip through an integer. */
  int total = 0;
  for (int *e = a + 5; e >= a + 1; e--) total += *e;
  ASSERT(200, total);
  uintptr_t addr = (uintptr_t)&a[2];
  ASSERT(30, *(int *)addr);
  ASSERT(0, addr % 4);
  return done();
}
