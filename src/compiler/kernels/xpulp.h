/*
 * xpulp.h: the packed-SIMD and ALU extensions of the cluster cores (CORE-V Xpulp), in one place.
 *
 * Built with DPG_XPULP (clang-19 -march=rv32imc_xcvalu_xcvmac_xcvsimd_...), each helper is one
 * CORE-V instruction in LLVM's spelling; otherwise the same helpers are portable C, so every
 * kernel builds unchanged with a host compiler and computes the same bits.
 *
 *   dpg_sdot4_ss(acc, a, b)  acc + sum_i a.s8[i] * b.s8[i]    cv.sdotsp.b
 *   dpg_sdot4_us(acc, a, b)  acc + sum_i a.u8[i] * b.s8[i]    cv.sdotusp.b
 *   dpg_sdot4_uu(acc, a, b)  acc + sum_i a.u8[i] * b.u8[i]    cv.sdotup.b
 *   dpg_dot4_ss / _us / _uu  the same sums without acc       cv.dotsp.b / cv.dotusp.b / cv.dotup.b
 *   dpg_mac(acc, a, b)       acc + a * b (low 32 bits)        cv.mac
 *   dpg_add_sra(a, b, s)     (a + b) >> (s & 31), arithmetic  cv.addnr
 *   dpg_max / dpg_min        signed max / min                 cv.max / cv.min
 *   dpg_maxu                 unsigned max                     cv.maxu
 *   dpg_max4_s8 / _u8        lane-wise max of 4 bytes         cv.max.b / cv.maxu.b
 *   dpg_clipu(v, max)        clip(v, 0, max) for max >= 0     cv.clipur
 *   dpg_clips(v, max)        clip(v, -max - 1, max), max >= 0 cv.clipr
 *   dpg_load4(p)             4 bytes from any address (CV32E40P loads misaligned words itself)
 *   dpg_load4a(p)            4 bytes from a 4-byte-aligned address (plain C, schedulable)
 *   dpg_load4u(p)            4 bytes from any address as a plain load (schedulable, post-incrementable)
 *   dpg_store4u(p, v)        4 bytes to any address as a plain store
 *   dpg_load4_inc(&p)        4 bytes from p (any alignment), then p += 4   cv.lw rd, (rs1), 4
 */
#ifndef DPG_XPULP_H
#define DPG_XPULP_H

#include <stdint.h>

/**
 * 4 bytes from a 4-byte-aligned address, as a plain C load: unlike dpg_load4 the compiler may
 * schedule it and fold the pointer update into a post-increment load (cv.lw rd, (rs1), 4).
 * may_alias: the bytes may be any 8-bit buffer.
 */
typedef uint32_t __attribute__((may_alias)) dpg_word_alias_t;
static inline uint32_t dpg_load4a(const void *p) { return *(const dpg_word_alias_t *)p; }

#if defined(DPG_XPULP)

/* CV32E40P loads a misaligned word itself (two bus accesses), so a plain load serves any address. */
static inline uint32_t dpg_load4u(const void *p) { return *(const dpg_word_alias_t *)p; }
static inline void dpg_store4u(void *p, uint32_t v) { *(dpg_word_alias_t *)p = v; }
static inline uint32_t dpg_load4(const void *p) {
  uint32_t v;
  __asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(p) : "memory");
  return v;
}
static inline uint32_t dpg_load4_inc(const uint8_t **p) {
  uint32_t v;
  __asm__ volatile("cv.lw %0, (%1), 4" : "=r"(v), "+r"(*p) : : "memory");
  return v;
}
static inline int32_t dpg_sdot4_ss(int32_t acc, uint32_t a, uint32_t b) {
  __asm__("cv.sdotsp.b %0, %1, %2" : "+r"(acc) : "r"(a), "r"(b));
  return acc;
}
static inline int32_t dpg_sdot4_us(int32_t acc, uint32_t a, uint32_t b) {
  __asm__("cv.sdotusp.b %0, %1, %2" : "+r"(acc) : "r"(a), "r"(b));
  return acc;
}
static inline int32_t dpg_sdot4_uu(int32_t acc, uint32_t a, uint32_t b) {
  __asm__("cv.sdotup.b %0, %1, %2" : "+r"(acc) : "r"(a), "r"(b));
  return acc;
}
static inline int32_t dpg_dot4_ss(uint32_t a, uint32_t b) {
  int32_t r;
  __asm__("cv.dotsp.b %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
static inline int32_t dpg_dot4_us(uint32_t a, uint32_t b) {
  int32_t r;
  __asm__("cv.dotusp.b %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
static inline int32_t dpg_dot4_uu(uint32_t a, uint32_t b) {
  int32_t r;
  __asm__("cv.dotup.b %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
static inline int32_t dpg_mac(int32_t acc, int32_t a, int32_t b) {
  __asm__("cv.mac %0, %1, %2" : "+r"(acc) : "r"(a), "r"(b));
  return acc;
}
static inline int32_t dpg_add_sra(int32_t a, int32_t b, int32_t s) {
  __asm__("cv.addnr %0, %1, %2" : "+r"(a) : "r"(b), "r"(s));
  return a;
}
static inline int32_t dpg_max(int32_t a, int32_t b) {
  int32_t r;
  __asm__("cv.max %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
static inline int32_t dpg_min(int32_t a, int32_t b) {
  int32_t r;
  __asm__("cv.min %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
static inline uint32_t dpg_maxu(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("cv.maxu %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
static inline uint32_t dpg_clipu(int32_t v, uint32_t max) {
  uint32_t r;
  __asm__("cv.clipur %0, %1, %2" : "=r"(r) : "r"(v), "r"(max));
  return r;
}
static inline int32_t dpg_clips(int32_t v, int32_t max) {
  int32_t r;
  __asm__("cv.clipr %0, %1, %2" : "=r"(r) : "r"(v), "r"(max));
  return r;
}
/* Packed int8 x 4 (one word, lane 0 in the low byte): lane-wise, each lane wraps to 8 bits. */
static inline uint32_t dpg_add4_s8(uint32_t a, uint32_t b) { uint32_t r; __asm__("cv.add.b %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static inline uint32_t dpg_sub4_s8(uint32_t a, uint32_t b) { uint32_t r; __asm__("cv.sub.b %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static inline uint32_t dpg_max4_s8(uint32_t a, uint32_t b) { uint32_t r; __asm__("cv.max.b %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static inline uint32_t dpg_max4_u8(uint32_t a, uint32_t b) { uint32_t r; __asm__("cv.maxu.b %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static inline uint32_t dpg_min4_s8(uint32_t a, uint32_t b) { uint32_t r; __asm__("cv.min.b %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
/** Every lane shifted right arithmetically by s (0..7). */
static inline uint32_t dpg_sra4_s8(uint32_t a, uint32_t s) { uint32_t r; __asm__("cv.sra.sc.b %0, %1, %2" : "=r"(r) : "r"(a), "r"(s)); return r; }

#else /* portable C: the same results, byte by byte */

static inline uint32_t dpg_load4u(const void *p) {
  uint32_t v;
  __builtin_memcpy(&v, p, 4);
  return v;
}
static inline void dpg_store4u(void *p, uint32_t v) { __builtin_memcpy(p, &v, 4); }
static inline uint32_t dpg_load4(const void *p) {
  uint32_t v;
  __builtin_memcpy(&v, p, 4); /* no libc header: kernels build freestanding */
  return v;
}
static inline uint32_t dpg_load4_inc(const uint8_t **p) {
  const uint32_t v = dpg_load4(*p);
  *p += 4;
  return v;
}
static inline int32_t dpg_sdot4_ss(int32_t acc, uint32_t a, uint32_t b) {
  for (int i = 0; i < 4; i++) acc += (int32_t)(int8_t)(a >> (8 * i)) * (int32_t)(int8_t)(b >> (8 * i));
  return acc;
}
static inline int32_t dpg_sdot4_us(int32_t acc, uint32_t a, uint32_t b) {
  for (int i = 0; i < 4; i++) acc += (int32_t)(uint8_t)(a >> (8 * i)) * (int32_t)(int8_t)(b >> (8 * i));
  return acc;
}
static inline int32_t dpg_sdot4_uu(int32_t acc, uint32_t a, uint32_t b) {
  for (int i = 0; i < 4; i++) acc += (int32_t)(uint8_t)(a >> (8 * i)) * (int32_t)(uint8_t)(b >> (8 * i));
  return acc;
}
static inline int32_t dpg_dot4_ss(uint32_t a, uint32_t b) { return dpg_sdot4_ss(0, a, b); }
static inline int32_t dpg_dot4_us(uint32_t a, uint32_t b) { return dpg_sdot4_us(0, a, b); }
static inline int32_t dpg_dot4_uu(uint32_t a, uint32_t b) { return dpg_sdot4_uu(0, a, b); }
static inline int32_t dpg_mac(int32_t acc, int32_t a, int32_t b) { /* the result must not overflow */
  return acc + a * b;
}
static inline int32_t dpg_add_sra(int32_t a, int32_t b, int32_t s) { /* the sum must not overflow */
  return (a + b) >> (s & 31);
}
static inline int32_t dpg_max(int32_t a, int32_t b) { return a > b ? a : b; }
static inline int32_t dpg_min(int32_t a, int32_t b) { return a < b ? a : b; }
static inline uint32_t dpg_maxu(uint32_t a, uint32_t b) { return a > b ? a : b; }
static inline uint32_t dpg_clipu(int32_t v, uint32_t max) { return v < 0 ? 0u : (uint32_t)v > max ? max : (uint32_t)v; }
static inline int32_t dpg_clips(int32_t v, int32_t max) { return v < -max - 1 ? -max - 1 : v > max ? max : v; }
static inline int32_t dpg_lane_s8(uint32_t w, int i) { return (int32_t)(int8_t)(w >> (8 * i)); }
#define DPG_LANES4(expr) \
  uint32_t r = 0; \
  for (int i = 0; i < 4; i++) { int32_t x = dpg_lane_s8(a, i), y = dpg_lane_s8(b, i); (void)y; r |= ((uint32_t)(expr) & 0xffu) << (8 * i); } \
  return r;
static inline uint32_t dpg_add4_s8(uint32_t a, uint32_t b) { DPG_LANES4(x + y) }
static inline uint32_t dpg_sub4_s8(uint32_t a, uint32_t b) { DPG_LANES4(x - y) }
static inline uint32_t dpg_max4_s8(uint32_t a, uint32_t b) { DPG_LANES4(x > y ? x : y) }
static inline uint32_t dpg_max4_u8(uint32_t a, uint32_t b) { DPG_LANES4((x & 0xff) > (y & 0xff) ? x : y) }
static inline uint32_t dpg_min4_s8(uint32_t a, uint32_t b) { DPG_LANES4(x < y ? x : y) }
static inline uint32_t dpg_sra4_s8(uint32_t a, uint32_t s) { uint32_t b = 0; DPG_LANES4(x >> (s & 7)) }
#undef DPG_LANES4

#endif

/**
 * sum_k a[k] * b[k] over K bytes, a and b each signed (int8) or unsigned (uint8): four products
 * per dot-product instruction, the tail one by one. Unsigned x signed swaps the operands so
 * the unsigned one comes first.
 */
static inline int32_t dpg_dot8(const uint8_t *a, int a_signed, const uint8_t *b, int b_signed, uint32_t K) {
  int32_t acc = 0;
  uint32_t k = 0, K4 = K & ~3u;
  if (a_signed && b_signed) for (; k < K4; k += 4) acc = dpg_sdot4_ss(acc, dpg_load4(a + k), dpg_load4(b + k));
  else if (b_signed) for (; k < K4; k += 4) acc = dpg_sdot4_us(acc, dpg_load4(a + k), dpg_load4(b + k));
  else if (a_signed) for (; k < K4; k += 4) acc = dpg_sdot4_us(acc, dpg_load4(b + k), dpg_load4(a + k));
  else for (; k < K4; k += 4) acc = dpg_sdot4_uu(acc, dpg_load4(a + k), dpg_load4(b + k));
  for (; k < K; k++) {
    int32_t x = a_signed ? (int8_t)a[k] : a[k], y = b_signed ? (int8_t)b[k] : b[k];
    acc += x * y;
  }
  return acc;
}

/** clip(v, lo, hi) with the ALU's max/min. */
static inline int32_t dpg_clip32(int32_t v, int32_t lo, int32_t hi) { return dpg_min(dpg_max(v, lo), hi); }

#endif
