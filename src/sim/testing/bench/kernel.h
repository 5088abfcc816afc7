/* The benchmark's compute kernel: a requantised int8-style dot-product / accumulate loop over
   one core's slice, the shape of work a network kernel does. */
#include <stdint.h>

static inline uint32_t bench_kernel(const int8_t *a, const int8_t *b, int32_t *out, int n, int reps) {
  uint32_t h = 0;
  for (int r = 0; r < reps; r++) {
    for (int i = 0; i < n; i += 16) {
      int32_t acc = r;
      for (int j = 0; j < 16; j++) acc += a[i + j] * b[(i + j + r) & (n - 1)];
      int32_t q = (acc * 77) >> 8;
      out[i >> 4] = q > 127 ? 127 : q < -128 ? -128 : q;
      h = h * 31 + (uint32_t)out[i >> 4];
    }
  }
  return h;
}
