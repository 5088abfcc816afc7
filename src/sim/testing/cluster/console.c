/* More output than the simulator's console buffer holds between two drains (64 KiB). */
#include <stdio.h>

int main(void) {
  for (int i = 0; i < 3000; i++) printf("line %04d: the quick brown fox jumps\n", i);
  return 0;
}
