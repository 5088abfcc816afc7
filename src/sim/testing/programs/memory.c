/* Memory: narrow loads and stores, packed (misaligned) structs, struct copies, strings. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>

struct __attribute__((packed)) rec { uint8_t tag; int32_t value; int16_t small; uint32_t big; };
struct point { int x, y; char name[12]; };

static struct rec recs[32];
static struct point pts[8];

int main(void) {
  for (int i = 0; i < 32; i++) {
    recs[i].tag = (uint8_t)(i * 37);
    recs[i].value = (i - 16) * 100003;
    recs[i].small = (int16_t)(i * -1234);
    recs[i].big = 0xf0000000u + (uint32_t)i * 0x01010101u;
  }
  int64_t sum = 0;
  for (int i = 0; i < 32; i++) sum += recs[i].tag + recs[i].value + recs[i].small + (int64_t)recs[i].big;
  printf("packed sum %lld, sizeof %u\n", sum, (unsigned)sizeof(struct rec));
  for (int i = 0; i < 8; i++) { pts[i].x = i; pts[i].y = -i * i; memcpy(pts[i].name, "point-", 7); pts[i].name[6] = (char)('a' + i); pts[i].name[7] = 0; }
  struct point copy = pts[5];
  pts[0] = copy;
  printf("%s %d %d %s %d\n", pts[0].name, pts[0].x, pts[0].y, pts[7].name, (int)strlen(pts[3].name));
  char s[64];
  strcpy(s, "the quick brown fox");
  memmove(s + 4, s, 10);
  printf("[%s] cmp %d %d chr %s\n", s, strcmp("abc", "abd") < 0, strncmp("hello", "help", 3), strchr(s, 'q'));
  uint8_t bytes[16];
  for (int i = 0; i < 16; i++) bytes[i] = (uint8_t)(0xf0 + i);
  uint32_t w;
  memcpy(&w, bytes + 1, 4);
  int8_t sb = (int8_t)bytes[3];
  int16_t sh;
  memcpy(&sh, bytes + 5, 2);
  printf("w %08x sb %d sh %d u16 %u\n", w, sb, sh, (uint16_t)sh);
  return 0;
}
