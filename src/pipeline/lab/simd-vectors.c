/* iLeakyReLU.c: the lab's SIMD kernel written with GCC vector types instead of the Xpulp
 * helpers: max(x, x >> shift) on 4 int8 lanes, as (v & m) | (s & ~m) with m = v > s (the
 * compiler selects cv.sra.sc.b and cv.max.b). Core 0 also does the tail. */
#include <stdint.h>
#include "dpg_kernels.h"

typedef int8_t v4s __attribute__((vector_size(4)));

void iLeakyReLU_s8_s8(const int8_t *x, int8_t *y, uint32_t size, int32_t mul, int32_t shift) {
  (void)mul;
  uint32_t lo, hi;
  dpg_chunk(size / 4, &lo, &hi);
  const v4s *xv = (const v4s *)x;
  v4s *yv = (v4s *)y;
  for (uint32_t i = lo; i < hi; i++) {
    v4s v = xv[i], s = v >> shift;
    v4s m = v > s;
    yv[i] = (v & m) | (s & ~m);
  }
  if (hal_core_id() == 0)
    for (uint32_t i = size & ~3u; i < size; i++) {
      int32_t v = x[i];
      y[i] = (int8_t)(v >= 0 ? v : v >> shift);
    }
}
