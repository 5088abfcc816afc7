/* A mixed integer workload (the simulator benchmark builds it with -DSCALE=...): matrix
 * multiply, CRC, insertion sort, string scanning and a byte histogram. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#ifndef SCALE
#define SCALE 1
#endif

#define N 24
static int32_t a[N][N], b[N][N], c[N][N];
static uint8_t buf[2048];
static int16_t keys[256];
static uint32_t hist[256];

static uint32_t crc32(const uint8_t *p, int n, uint32_t crc) {
  crc = ~crc;
  for (int i = 0; i < n; i++) {
    crc ^= p[i];
    for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
  }
  return ~crc;
}

int main(void) {
  uint32_t x = 88172645u, crc = 0, acc = 0;
  for (int rep = 0; rep < SCALE; rep++) {
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; a[i][j] = (int32_t)(x % 201) - 100; b[j][i] = (int32_t)(x >> 24) - 128; }
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        int32_t s = 0;
        for (int k = 0; k < N; k++) s += a[i][k] * b[k][j];
        c[i][j] = s;
      }
    for (int i = 0; i < (int)sizeof buf; i++) buf[i] = (uint8_t)(c[i % N][(i / N) % N] ^ i);
    crc = crc32(buf, sizeof buf, crc);
    for (int i = 0; i < 256; i++) keys[i] = (int16_t)(buf[i * 7 % sizeof buf] * 131 - 16000);
    for (int i = 1; i < 256; i++) {
      int16_t v = keys[i];
      int j = i - 1;
      while (j >= 0 && keys[j] > v) { keys[j + 1] = keys[j]; j--; }
      keys[j + 1] = v;
    }
    memset(hist, 0, sizeof hist);
    for (int i = 0; i < (int)sizeof buf; i++) hist[buf[i]]++;
    for (int i = 0; i < 256; i++) acc = acc * 31 + hist[i] + (uint32_t)keys[i];
  }
  printf("workload scale %d: crc %08x acc %08x c[3][5] %d\n", SCALE, crc, acc, c[3][5]);
  return 0;
}
