/* Global addresses as %hi/%lo pairs: accesses at constant offsets from a 4 KiB-aligned global,
   on both sides of offset 0x800, where %hi(sym+offset) steps up by one; a 64-bit field of a packed
   struct whose two words straddle it; a struct copied across it; array elements either side.
   A compiler that shares one %hi between two offsets reads and writes 4 KiB away. */
#include "test.h"

#pragma pack(push, 1)
struct packed64 { char pad[11]; long long v; };
#pragma pack(pop)
struct quad { int a, b, c, d; };
#pragma pack(push, 1)
struct flat64 { char pad[2044]; long long v; char after[8]; }; /* v's words at 0x7fc and 0x800 */
#pragma pack(pop)

struct page {
  char before[2033];
  struct packed64 p;   /* p.v at 2044: its words at 0x7fc and 0x800 */
  int words[4];        /* 2052.. */
  struct quad q;       /* 2068.. */
} __attribute__((aligned(4096)));

struct page2 {
  char before[2040];
  struct quad q;       /* 2040: its words at 0x7f8, 0x7fc, 0x800, 0x804 */
  int tail[8];
} __attribute__((aligned(4096)));

static struct page pg;
static struct page2 pg2 = {{0}, {1, 2, 3, 4}, {5, 6, 7, 8, 9, 10, 11, 12}};
static __attribute__((aligned(4096))) int arr[1100];
/* Placed one after the other by our toolchain (definition order): after_fill.v's words at 0x7fc and 0x800. */
__attribute__((aligned(4096))) char fill[2044] = {1};
#pragma pack(push, 1)
struct bare64 { long long v; };
#pragma pack(pop)
struct bare64 after_fill = {0x0102030405060708LL};
static __attribute__((aligned(4096))) struct flat64 flat = {{0}, 0x1122334455667788LL, {0}};

static __attribute__((noinline)) long long read_v(void) { return pg.p.v; }
static __attribute__((noinline)) void write_v(long long v) { pg.p.v = v; }
static __attribute__((noinline)) struct quad read_q2(void) { return pg2.q; }
static __attribute__((noinline)) long long read_flat(void) { return flat.v; }
static __attribute__((noinline)) void write_flat(long long v) { flat.v = v; }
static __attribute__((noinline)) long long read_after_fill(void) { return after_fill.v; }
static __attribute__((noinline)) void write_after_fill(long long v) { after_fill.v = v; }
static __attribute__((noinline)) int around(void) { return arr[510] + arr[511] * 10 + arr[512] * 100 + arr[513] * 1000; }

int main(void) {
  ASSERT(2044, offsetof(struct page, p.v));
  ASSERT(2040, offsetof(struct page2, q));
  write_v(HIDE(0x0123456789abcdefLL));
  ASSERT(0x0123456789abcdefLL, read_v());
  ASSERT(0x0123456789abcdefLL, pg.p.v);
  unsigned char raw[8];
  memcpy(raw, (char *)&pg + 2044, 8);
  ASSERT(0xef, raw[0]);
  ASSERT(0x89, raw[3]);
  ASSERT(0x67, raw[4]);
  ASSERT(0x01, raw[7]);
  ASSERT(0, pg.before[2044 - 4096 + 4096 - 1]); /* untouched */

  ASSERT(0x1122334455667788LL, read_flat());
  write_flat(HIDE(-2LL));
  ASSERT(-2, flat.v);
  ASSERT(-2, read_flat());
  ASSERT(0, flat.after[0]);

  ASSERT(0x0102030405060708LL, read_after_fill());
  write_after_fill(HIDE(0x1111111122222222LL));
  ASSERT(0x1111111122222222LL, after_fill.v);
  ASSERT(0x1111111122222222LL, read_after_fill());
  ASSERT(1, fill[0]);

  struct quad q = read_q2();
  ASSERT(1, q.a);
  ASSERT(2, q.b);
  ASSERT(3, q.c);
  ASSERT(4, q.d);
  pg.q = pg2.q;
  ASSERT(4, pg.q.d);
  pg2.q = (struct quad){HIDE(-1), -2, -3, -4};
  ASSERT(-3, pg2.q.c);
  ASSERT(5, pg2.tail[0]);
  pg.words[0] = 7;
  pg.words[3] = 8;
  ASSERT(15, pg.words[0] + pg.words[3]);

  arr[510] = 1;
  arr[511] = 2;
  arr[512] = 3;
  arr[513] = 4;
  ASSERT(4321, around());
  ASSERT(0, arr[512 + 1024]);
  arr[HIDE(512)] += 5;
  ASSERT(8, arr[512]);
  return done();
}
