/*
 * The C test suite's common header: ASSERT(expected, expr) evaluates expr, counts the check and
 * prints a line for a failure; main() ends with `return done();`, which prints the tally and
 * exits non-zero when any check failed. Everything is compared as long long.
 *
 * HIDE(x) is x read back through a volatile object: the compiler cannot fold what follows, so
 * the arithmetic under test happens at run time as well as in the constant folder.
 */
#ifndef SUITE_TEST_H
#define SUITE_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int checks_run, checks_failed;

static void check(long long want, long long got, const char *expr, int line) {
  checks_run++;
  if (want != got) {
    checks_failed++;
    printf("line %d: %s => %lld (0x%llx), want %lld (0x%llx)\n", line, expr, got, (unsigned long long)got, want, (unsigned long long)want);
  }
}

#define ASSERT(want, expr) check((long long)(want), (long long)(expr), #expr, __LINE__)

#define HIDE(x) ({ volatile __typeof__(x) hide_ = (x); hide_; })

static int done(void) {
  printf("%d checks, %d failed\n", checks_run, checks_failed);
  return checks_failed != 0;
}

#endif
