/* Globals: every width, tentative definitions, extern declarations before the definition,
   static globals and static locals beside globals of the same name, read-modify-write from
   several functions, large zeroed arrays (.bss), const tables (.rodata), addresses of globals in
   other globals' initialisers. */
#include "test.h"

extern int defined_later;
int tentative;
int tentative;
int tentative_init;
int tentative_init = 12;
signed char g8 = -5;
unsigned short g16 = 0xfffe;
int g32 = -123456;
long long g64 = 0x123456789abcdefLL;
unsigned long long gu64;
char big_bss[100000];
static int hidden = 3;
const int table[5] = {1, 1, 2, 3, 5};
const char *const names[] = {"alpha", "beta"};
int *const ptr_into = (int *)&table[0] + 0;
struct { int a; char b[3]; long long c; } gstruct = {7, "ab", -1};
int defined_later = 99;
int *addr_of_later = &defined_later;
long long *addr_of_g64 = &g64;
char *into_bss = &big_bss[50000];

static void bump(void) { g8++; g16++; g32++; g64++; gu64--; hidden *= 2; }
static int read_hidden(void) { return hidden; }
static int shadow(void) { static int hidden = 100; return ++hidden; }
static int sum_table(void) { int s = 0; for (int i = 0; i < 5; i++) s += table[i]; return s; }

int main(void) {
  ASSERT(0, tentative);
  ASSERT(12, tentative_init);
  ASSERT(99, defined_later);
  ASSERT(99, *addr_of_later);
  ASSERT(-5, g8);
  ASSERT(0xfffe, g16);
  ASSERT(-123456, g32);
  ASSERT(0x123456789abcdefLL, *addr_of_g64);
  ASSERT(0, gu64);
  bump();
  ASSERT(-4, g8);
  ASSERT(0xffff, g16);
  ASSERT(-123455, g32);
  ASSERT(0x123456789abcdf0LL, g64);
  ASSERT(-1, (long long)gu64);
  bump();
  ASSERT(0, g16);
  ASSERT(12, read_hidden());
  ASSERT(101, shadow());
  ASSERT(102, shadow());
  ASSERT(12, read_hidden());
  ASSERT(12, sum_table());
  ASSERT(1, *ptr_into);
  ASSERT('b', names[1][0]);
  ASSERT(7, gstruct.a);
  ASSERT('b', gstruct.b[1]);
  ASSERT(-1, gstruct.c);

  int nz = 0;
  for (int i = 0; i < 100000; i += 997) nz += big_bss[i] != 0;
  ASSERT(0, nz);
  *into_bss = 42;
  ASSERT(42, big_bss[50000]);
  big_bss[99999] = 7;
  ASSERT(7, big_bss[sizeof big_bss - 1]);
  tentative = 5;
  defined_later += tentative;
  ASSERT(104, *addr_of_later);
  return done();
}
