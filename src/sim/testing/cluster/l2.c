/* L2 seen from a cluster core: worker 0 loads and stores N words of an L2 array (N = WORDS);
   the test compares two sizes, so the fork's own L2 traffic cancels out. */
#include <stdio.h>
#include "hal.h"

#ifndef WORDS
#define WORDS 100
#endif
static volatile int32_t words[WORDS]; /* L2: the default section */

static void touch(void *arg) {
  (void)arg;
  int32_t s = 0;
  for (int i = 0; i < WORDS; i++) s += words[i];
  for (int i = 0; i < WORDS; i++) words[i] = s;
}

int main(void) {
  hal_fork(1, touch, 0);
  printf("l2 %d %d\n", WORDS, (int)words[0]);
  return 0;
}
