/* The runtime's printf itself: flags, widths, precisions, length modifiers, snprintf. */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

int main(void) {
  printf("[%d] [%i] [%5d] [%-5d] [%05d] [%+d] [% d] [%.3d] [%8.3d]\n", 42, -42, 42, 42, -42, 42, 42, 7, -7);
  printf("[%u] [%x] [%X] [%o] [%#x] [%#o] [%#X] [%08x]\n", 3000000000u, 0xbeefu, 0xbeefu, 511u, 255u, 8u, 0xabcu, 0x1234u);
  printf("[%ld] [%lu] [%lld] [%llu] [%llx]\n", -123456789L, 4000000000UL, -9000000000000000000LL, 18000000000000000000ULL, 0x123456789abcdefULL);
  printf("[%hd] [%hu] [%hhd] [%hhu] [%zu]\n", (short)-3, (unsigned short)65535, (signed char)-128, (unsigned char)255, sizeof(long long));
  printf("[%d] [%d] [%u] [%x]\n", INT_MIN, INT_MAX, UINT_MAX, (unsigned)INT_MIN);
  printf("[%lld] [%lld]\n", LLONG_MIN, LLONG_MAX);
  printf("[%s] [%10s] [%-10s] [%.3s] [%c] [%3c] [%-3c] [%%]\n", "str", "right", "left", "truncate", 'x', 'y', 'z');
  printf("[%*d] [%-*d] [%.*d] [%0*d]\n", 6, 1, 6, 2, 4, 3, 5, -4);
  printf("[%p] [%.0d] [%x] [%#x]\n", (void *)0x1c000000, 0, 0u, 0u);
  char buf[16];
  int n = snprintf(buf, sizeof buf, "%s-%d-%x", "overflowing", 123456, 0xdeadbeefu);
  printf("snprintf %d [%s]\n", n, buf);
  for (int i = -3; i <= 3; i++) printf("%3d%c", i * i * i, i == 3 ? '\n' : ',');
  return 0;
}
