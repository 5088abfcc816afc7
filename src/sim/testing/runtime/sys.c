/*
 * The Linux user-mode system interface of the simulator's bare test programs: write (64) and
 * exit (93) through ecall, with a line-buffered stdout. The rest of the C library is
 * src/compiler/runtime/libc/libc.c.
 */
#include <stddef.h>

static long syscall3(long nr, long a0, long a1, long a2) {
  register long x10 __asm__("a0") = a0;
  register long x11 __asm__("a1") = a1;
  register long x12 __asm__("a2") = a2;
  register long x17 __asm__("a7") = nr;
  __asm__ volatile("ecall" : "+r"(x10) : "r"(x11), "r"(x12), "r"(x17) : "memory");
  return x10;
}

long write(int fd, const void *buf, size_t len) { return syscall3(64, fd, (long)buf, (long)len); }

/* ---------------------------------------------------------------- stdout buffer */
static char obuf[256];
static size_t olen;

int fflush(void *stream) {
  (void)stream;
  if (olen) write(1, obuf, olen);
  olen = 0;
  return 0;
}

int putchar(int c) {
  obuf[olen++] = (char)c;
  if (c == '\n' || olen == sizeof obuf) fflush(0);
  return (unsigned char)c;
}

void exit(int code) {
  fflush(0);
  syscall3(93, code, 0, 0);
  for (;;) {}
}

