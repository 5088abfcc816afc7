/* Memory: stores and loads of every width through pointers that may alias, char pointers
   reading other types' bytes, volatile accesses (each one happens), memcpy/memmove/memset of
   structs and overlapping ranges, unaligned data through memcpy, a pointer to a local escaping
   into a callee, restrict-qualified parameters, a store the compiler must not forward past. */
#include "test.h"

static void write_through(int *p, int v) { *p = v; }
static int alias_test(int *a, int *b) { *a = 1; *b = 2; return *a; } /* 2 when a == b */
static void add_arrays(int *restrict d, const int *restrict x, const int *restrict y, int n) { for (int i = 0; i < n; i++) d[i] = x[i] + y[i]; }
static long long load_unaligned64(const unsigned char *p) { long long v; memcpy(&v, p, 8); return v; }
static void store_unaligned32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }

struct rec { char tag; int val; short s; long long ll; };

int main(void) {
  int x = HIDE(5);
  write_through(&x, 6);
  ASSERT(6, x);
  int y = 0;
  ASSERT(2, alias_test(&y, &y));
  int z = 0;
  ASSERT(1, alias_test(&y, &z));

  uint32_t word = HIDE(0xa1b2c3d4u);
  unsigned char *bytes = (unsigned char *)&word;
  ASSERT(0xd4, bytes[0]);
  bytes[0] = 0;
  ASSERT(0xa1b2c300u, word);
  uint16_t *halves = (uint16_t *)&word;
  halves[1] = 0x1234;
  ASSERT(0x1234c300u, word);
  long long dw = HIDE(0x0102030405060708LL);
  uint32_t *w32 = (uint32_t *)&dw;
  ASSERT(0x05060708u, w32[0]);
  w32[1] = 0xffffffffu;
  ASSERT(-0xfaf9f8f8LL, dw);

  volatile int vol = 0;
  for (int i = 0; i < 10; i++) vol += i;
  ASSERT(45, vol);
  volatile unsigned char vb[4] = {1, 2, 3, 4};
  int vs = 0;
  for (int i = 0; i < 4; i++) vs += vb[i] * vb[i];
  ASSERT(30, vs);

  struct rec r1 = {'a', 1, 2, 3}, r2;
  memcpy(&r2, &r1, sizeof r1);
  ASSERT(3, r2.ll);
  memset(&r2, 0, sizeof r2);
  ASSERT(0, r2.val);
  r2 = r1;
  r2.val = 77;
  ASSERT(1, r1.val);
  ASSERT(77, r2.val);
  struct rec arr[3] = {{'x', 10, 0, 0}, {'y', 20, 0, 0}, {'z', 30, 0, 0}};
  memmove(&arr[1], &arr[0], 2 * sizeof arr[0]);
  ASSERT('x', arr[1].tag);
  ASSERT(20, arr[2].val);
  char buf[16] = "0123456789";
  memmove(buf + 2, buf, 8);
  ASSERT(0, strcmp(buf, "0101234567"));
  memmove(buf, buf + 3, 7);
  ASSERT(0, strncmp(buf, "1234567", 7));

  unsigned char raw[20];
  for (int i = 0; i < 20; i++) raw[i] = (unsigned char)i;
  ASSERT(0x0807060504030201LL, load_unaligned64(raw + 1));
  ASSERT(0x0a09080706050403LL, load_unaligned64(raw + 3));
  store_unaligned32(raw + 5, HIDE(0xdeadbeefu));
  ASSERT(0xef, raw[5]);
  ASSERT(0xde, raw[8]);
  ASSERT(9, raw[9]);

  int d[8], xs[8], ys[8];
  for (int i = 0; i < 8; i++) { xs[i] = i; ys[i] = 10 * i; }
  add_arrays(d, xs, ys, 8);
  ASSERT(77, d[7]);

  /* The store through p must be seen by the read of the array after the call. */
  int cells[4] = {0, 0, 0, 0};
  int *p = &cells[HIDE(2)];
  cells[2] = 5;
  write_through(p, 9);
  ASSERT(9, cells[2]);
  *p += 1;
  ASSERT(10, cells[2]);
  int *q = cells + 2;
  *q = 3;
  ASSERT(3, *p);
  return done();
}
