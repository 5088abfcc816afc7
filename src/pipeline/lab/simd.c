/* iLeakyReLU.c: the lab's SIMD kernel. With mul = 1 and shift >= 0, LeakyReLU(x) =
 * max(x, x >> shift), lane-wise on 4 packed int8 values (cv.sra.sc.b, cv.max.b). The cores
 * split the 4-element vectors; core 0 also does the tail of size % 4 elements. */
#include <stdint.h>
#include "dpg_kernels.h"
#include "xpulp.h"

void iLeakyReLU_s8_s8(const int8_t *x, int8_t *y, uint32_t size, int32_t mul, int32_t shift) {
  (void)mul; /* the spec only admits mul = 1 */
  uint32_t lo, hi;
  dpg_chunk(size / 4, &lo, &hi);
  const uint32_t *xv = (const uint32_t *)x;
  uint32_t *yv = (uint32_t *)y;
  for (uint32_t i = lo; i < hi; i++) {
    uint32_t v = xv[i];
    yv[i] = dpg_max4_s8(v, dpg_sra4_s8(v, (uint32_t)shift));
  }
  if (hal_core_id() == 0)
    for (uint32_t i = size & ~3u; i < size; i++) {
      int32_t v = x[i];
      y[i] = (int8_t)(v >= 0 ? v : v >> shift);
    }
}
