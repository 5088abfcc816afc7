/* Structs: members and padding, nesting, pointers to structs, assignment, structs passed and
   returned by value at every size the ilp32 ABI treats differently (in registers up to 8 bytes,
   by reference above), anonymous members, flexible array members, linked lists. */
#include "test.h"

struct s1 { char c; };
struct s2 { short a; };
struct s3 { char a, b, c; };
struct s4 { int a; };
struct s6 { short a, b, c; };
struct s8 { int a, b; };
struct sll { long long v; };
struct s12 { int a, b, c; };
struct s20 { int a[5]; };
struct mixed { char c; int i; short s; long long ll; char t; };

static struct s1 mk1(char c) { struct s1 r = {c}; return r; }
static struct s3 mk3(char a) { struct s3 r = {a, (char)(a + 1), (char)(a + 2)}; return r; }
static struct s6 mk6(short a) { return (struct s6){a, (short)(a * 2), (short)(a * 3)}; }
static struct s8 mk8(int a, int b) { struct s8 r = {a, b}; return r; }
static struct sll mkll(long long v) { struct sll r = {v}; return r; }
static struct s12 mk12(int a) { struct s12 r = {a, a + 1, a + 2}; return r; }
static struct s20 mk20(int a) { struct s20 r; for (int i = 0; i < 5; i++) r.a[i] = a * i; return r; }

static int take1(struct s1 s) { return s.c; }
static int take3(struct s3 s) { return s.a + s.b + s.c; }
static int take6(struct s6 s) { return s.a + s.b + s.c; }
static int take8(struct s8 s) { return s.a - s.b; }
static long long takell(struct sll s) { return s.v + 1; }
static int take12(struct s12 s) { s.a = 1000; return s.a + s.b + s.c; }
static int take20(struct s20 s) { int t = 0; for (int i = 0; i < 5; i++) t += s.a[i]; s.a[0] = 99; return t; }
/* Structs after seven ints: the last register and the stack. */
static int take_late(int a, int b, int c, int d, int e, int f, int g, struct s8 s, struct s12 t) {
  return a + b + c + d + e + f + g + s.a * 100 + s.b * 1000 + t.a + t.b + t.c;
}
static struct s8 swap8(struct s8 s) { struct s8 r = {s.b, s.a}; return r; }
static struct s20 twice20(struct s20 s) { for (int i = 0; i < 5; i++) s.a[i] *= 2; return s; }

struct node { int v; struct node *next; };
static int list_sum(const struct node *n) { int s = 0; for (; n; n = n->next) s += n->v; return s; }

struct with_anon { int tag; union { int i; unsigned char b[4]; }; struct { short lo, hi; }; };
struct flex { int n; int data[]; };

int main(void) {
  ASSERT(1, sizeof(struct s1));
  ASSERT(2, sizeof(struct s2));
  ASSERT(3, sizeof(struct s3));
  ASSERT(6, sizeof(struct s6));
  ASSERT(8, sizeof(struct sll));
  ASSERT(8, _Alignof(struct sll));
  ASSERT(32, sizeof(struct mixed));
  ASSERT(0, offsetof(struct mixed, c));
  ASSERT(4, offsetof(struct mixed, i));
  ASSERT(8, offsetof(struct mixed, s));
  ASSERT(16, offsetof(struct mixed, ll));
  ASSERT(24, offsetof(struct mixed, t));

  struct mixed mx = {1, 2, 3, 4, 5};
  struct mixed *pm = &mx;
  ASSERT(1, pm->c);
  ASSERT(2, pm->i);
  ASSERT(3, (*pm).s);
  ASSERT(4, pm->ll);
  ASSERT(5, pm->t);
  pm->ll = -1;
  ASSERT(-1, mx.ll);
  struct mixed my = mx;
  mx.i = 77;
  ASSERT(2, my.i);
  ASSERT(-1, my.ll);

  /* Returned by value, each size. */
  ASSERT('q', mk1('q').c);
  struct s3 r3 = mk3(HIDE(10));
  ASSERT(12, r3.c);
  ASSERT(33, take3(r3));
  ASSERT(6, take6(mk6(HIDE(1))));
  struct s8 r8 = mk8(HIDE(7), 3);
  ASSERT(4, take8(r8));
  ASSERT(-4, take8(swap8(r8)));
  ASSERT(0x100000000LL, takell(mkll(HIDE(0xffffffffLL))));
  struct s12 r12 = mk12(HIDE(5));
  ASSERT(1013, take12(r12));
  ASSERT(5, r12.a); /* the callee changed its copy */
  struct s20 r20 = mk20(HIDE(3));
  ASSERT(30, take20(r20));
  ASSERT(0, r20.a[0]);
  struct s20 d20 = twice20(r20);
  ASSERT(24, d20.a[4]);
  ASSERT(12, r20.a[4]);
  ASSERT(7, take1(mk1(7)));
  ASSERT(28 + 500 + 6000 + 18, take_late(1, 2, 3, 4, 5, 6, 7, mk8(HIDE(5), 6), mk12(5)));
  ASSERT(11, mk12(10).b);
  ASSERT(8, mk20(2).a[4]);

  /* Nested structs and arrays of structs. */
  struct line { struct { int x, y; } a, b; } ln = {{1, 2}, {3, 4}};
  ASSERT(4, ln.b.y);
  ln.a = ln.b;
  ASSERT(3, ln.a.x);
  struct s8 arr[3] = {{1, 2}, {3, 4}, {5, 6}};
  struct s8 *pa = arr + 1;
  ASSERT(4, pa->b);
  ASSERT(5, (pa + 1)->a);
  arr[0] = arr[2];
  ASSERT(6, arr[0].b);

  /* A linked list on the stack. */
  struct node n3 = {3, 0}, n2 = {2, &n3}, n1 = {1, &n2};
  ASSERT(6, list_sum(&n1));
  ASSERT(3, n1.next->next->v);

  /* Anonymous members. */
  struct with_anon wa;
  wa.i = HIDE(0x04030201);
  ASSERT(3, wa.b[2]);
  wa.lo = -2;
  wa.hi = 9;
  ASSERT(-2, wa.lo);
  ASSERT(12, sizeof wa);

  /* A flexible array member over a buffer. */
  union { struct flex f; int raw[5]; } buf;
  buf.f.n = 4;
  for (int i = 0; i < 4; i++) buf.f.data[i] = i * 3;
  ASSERT(9, buf.raw[4]);
  ASSERT(4, sizeof(struct flex));

  /* Structs compared member by member; struct assignment through pointers. */
  struct s12 x = {1, 2, 3}, y;
  struct s12 *px = &x, *py = &y;
  *py = *px;
  ASSERT(1, y.a == x.a && y.b == x.b && y.c == x.c);
  return done();
}
