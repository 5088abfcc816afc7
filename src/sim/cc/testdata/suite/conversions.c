/* Integer conversions: 8- and 16-bit signed and unsigned values loaded, stored, truncated and
   extended; integer promotions; the usual arithmetic conversions between signed and unsigned;
   _Bool; plain char (unsigned on RISC-V); conversions in arguments, returns and assignments. */
#include "test.h"

static signed char to_s8(int x) { return (signed char)x; }
static unsigned char to_u8(int x) { return (unsigned char)x; }
static short to_s16(int x) { return (short)x; }
static unsigned short to_u16(int x) { return (unsigned short)x; }
static int from_s8(signed char c) { return c; }
static int from_u8(unsigned char c) { return c; }
static int from_s16(short s) { return s; }
static int from_u16(unsigned short s) { return s; }
static _Bool to_bool(int x) { return x; }
static int widen_sum(const signed char *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
static unsigned widen_usum(const unsigned char *p, int n) { unsigned s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
static int hsum(const short *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }

signed char gs8 = -100;
unsigned char gu8 = 200;
short gs16 = -30000;
unsigned short gu16 = 60000;

int main(void) {
  ASSERT(-1, to_s8(HIDE(255)));
  ASSERT(127, to_s8(HIDE(127)));
  ASSERT(-128, to_s8(HIDE(128)));
  ASSERT(0, to_s8(HIDE(256)));
  ASSERT(-56, to_s8(HIDE(200)));
  ASSERT(255, to_u8(HIDE(-1)));
  ASSERT(0x78, to_u8(HIDE(0x12345678)));
  ASSERT(-1, to_s16(HIDE(0xffff)));
  ASSERT(-32768, to_s16(HIDE(0x18000)));
  ASSERT(0x5678, to_s16(HIDE(0x12345678)));
  ASSERT(65535, to_u16(HIDE(-1)));
  ASSERT(0x8000, to_u16(HIDE(-32768)));
  ASSERT(-100, from_s8(HIDE((signed char)-100)));
  ASSERT(156, from_u8(HIDE((unsigned char)-100)));
  ASSERT(-2, from_s16(HIDE((short)-2)));
  ASSERT(65534, from_u16(HIDE((unsigned short)-2)));
  ASSERT(1, to_bool(HIDE(256)));
  ASSERT(0, to_bool(HIDE(0)));
  ASSERT(1, (_Bool)HIDE(0x100000000LL));

  /* Globals of each width, read and written. */
  ASSERT(-100, gs8);
  ASSERT(200, gu8);
  ASSERT(-30000, gs16);
  ASSERT(60000, gu16);
  gs8 -= 100; /* -200 wraps to 56 */
  gu8 += 100; /* 300 wraps to 44 */
  gs16 -= 10000; /* -40000 wraps to 25536 */
  gu16 += 10000; /* 70000 wraps to 4464 */
  ASSERT(56, gs8);
  ASSERT(44, gu8);
  ASSERT(25536, gs16);
  ASSERT(4464, gu16);

  /* Arrays of each width summed with the right extension. */
  signed char sb[4] = {-1, -2, 127, -128};
  unsigned char ub[4] = {255, 254, 127, 128};
  short sh[3] = {-1, 32767, -32768};
  ASSERT(-4, widen_sum(sb, 4));
  ASSERT(764, widen_usum(ub, 4));
  ASSERT(-2, hsum(sh, 3));
  ASSERT(1, memcmp(sb, ub, 4) == 0); /* the same bytes */

  /* Promotions: small types compute in int. */
  unsigned char x = HIDE((unsigned char)200), y = HIDE((unsigned char)100);
  ASSERT(300, x + y);
  ASSERT(44, (unsigned char)(x + y));
  ASSERT(-100, y - x);
  ASSERT(1, x * y == 20000);
  signed char p = HIDE((signed char)-128);
  ASSERT(128, -p);
  ASSERT(-256, p * 2);
  ASSERT(127, ~p);
  unsigned short us = HIDE((unsigned short)65535);
  ASSERT(65536, us + 1);
  ASSERT(-65535, -us);
  ASSERT(0xffff, us & 0xffffffff);

  /* Usual arithmetic conversions. */
  int neg = HIDE(-1);
  unsigned one = HIDE(1u);
  ASSERT(1, neg > one);  /* -1 becomes UINT_MAX */
  ASSERT(0, neg < one);
  ASSERT(0xffffffff, neg * one);
  ASSERT(1, (long long)neg < (long long)one);
  ASSERT(1, neg < (long long)one);  /* int and unsigned fit in long long */
  long long lneg = HIDE(-1LL);
  ASSERT(0, lneg > one);
  ASSERT(1, (unsigned long long)lneg > one);
  ASSERT(0xffffffffu, (unsigned)lneg);
  unsigned short hu = HIDE((unsigned short)1);
  ASSERT(1, neg < hu); /* unsigned short promotes to int */
  unsigned char cu = HIDE((unsigned char)1);
  ASSERT(1, neg < cu);

  /* Plain char. */
  char c = HIDE((char)200);
  ASSERT(200, c);
  ASSERT(1, c > 100);
  char cc = (char)-1;
  ASSERT(255, cc);
  ASSERT(1, (char)128 == 128);

  /* Stores truncate, loads extend. */
  int wide = HIDE(0x1234abcd);
  signed char n8 = wide;
  short n16 = wide;
  ASSERT(-51, n8);
  ASSERT(-21555, n16);
  unsigned char u8 = wide;
  unsigned short u16 = wide;
  ASSERT(0xcd, u8);
  ASSERT(0xabcd, u16);
  struct { signed char a; unsigned char b; short c; unsigned short d; } mix = {HIDE(-1), HIDE(-1), HIDE(-1), HIDE(-1)};
  ASSERT(-1, mix.a);
  ASSERT(255, mix.b);
  ASSERT(-1, mix.c);
  ASSERT(65535, mix.d);
  ASSERT(1, mix.a < mix.b);
  ASSERT(1, mix.c < mix.d);

  /* Compound assignment on narrow types converts back each time. */
  unsigned char acc8 = 0;
  for (int i = 0; i < 300; i++) acc8 += 1;
  ASSERT(44, acc8);
  signed char dec = HIDE((signed char)-120);
  for (int i = 0; i < 20; i++) dec--;
  ASSERT(116, dec);
  short sh2 = HIDE((short)1000);
  sh2 *= 100;
  ASSERT(-31072, sh2);
  sh2 >>= 4;
  ASSERT(-1942, sh2);
  return done();
}
