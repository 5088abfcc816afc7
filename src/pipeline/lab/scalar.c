/* iLeakyReLU.c: the lab's plain C kernel. Each core takes a contiguous share of
 * ceil(size / cores) elements and maps x -> x >= 0 ? x : (mul * x) >> shift. */
#include <stdint.h>
#include "dpg_kernels.h"

void iLeakyReLU_s8_s8(const int8_t *x, int8_t *y, uint32_t size, int32_t mul, int32_t shift) {
  uint32_t lo, hi;
  dpg_chunk(size, &lo, &hi);
  for (uint32_t i = lo; i < hi; i++) {
    int32_t v = x[i];
    y[i] = (int8_t)(v >= 0 ? v : (mul * v) >> shift);
  }
}
