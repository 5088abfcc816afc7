/* Checksums over generated data: CRC-32 bitwise and table-driven, Adler-32, FNV-1a, a
 * byte/halfword mix that exercises sign extension of narrow loads and stores. */
#include <stdio.h>
#include <stdint.h>

static uint8_t data[4096];
static uint32_t table[256];

static uint32_t crc_bitwise(const uint8_t *p, int n) {
  uint32_t c = 0xffffffffu;
  for (int i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & -(c & 1));
  }
  return ~c;
}

static uint32_t crc_table(const uint8_t *p, int n) {
  uint32_t c = 0xffffffffu;
  for (int i = 0; i < n; i++) c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return ~c;
}

int main(void) {
  uint32_t x = 2463534242u;
  for (int i = 0; i < (int)sizeof data; i++) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; data[i] = (uint8_t)x; }
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  printf("crc32 %08x %08x\n", crc_bitwise(data, sizeof data), crc_table(data, sizeof data));
  printf("crc32(\"123456789\") = %08X\n", crc_table((const uint8_t *)"123456789", 9));
  uint32_t a = 1, b = 0;
  for (int i = 0; i < (int)sizeof data; i++) { a = (a + data[i]) % 65521; b = (b + a) % 65521; }
  printf("adler32 %08x\n", (b << 16) | a);
  uint32_t h = 2166136261u;
  for (int i = 0; i < (int)sizeof data; i++) h = (h ^ data[i]) * 16777619u;
  printf("fnv1a %08x\n", h);
  int32_t mix = 0;
  const int8_t *sb = (const int8_t *)data;
  const int16_t *sh = (const int16_t *)data;
  for (int i = 0; i < 2048; i++) mix = mix * 31 + sb[i] - sh[i] + (sh[i] >> 3);
  int16_t hw[16];
  for (int i = 0; i < 16; i++) hw[i] = (int16_t)(mix >> i);
  printf("mix %d %d %d %u\n", mix, hw[3], hw[15], (uint16_t)hw[7]);
  return 0;
}
