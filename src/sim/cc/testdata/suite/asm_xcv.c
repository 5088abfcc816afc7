/* Inline asm reaching CORE-V (the way xpulp.h does): ALU (cv.max, cv.min, cv.maxu, cv.abs,
   cv.clip, cv.clipu, cv.clipr, cv.addn, cv.addnr, cv.exths, cv.extbz), MAC (cv.mac, cv.msu),
   SIMD (cv.add.b, cv.sdotsp.b, cv.sdotusp.b, cv.sdotup.b, cv.dotsp.b, cv.dotsp.h, cv.extract.b,
   cv.insert.b), post-increment loads (cv.lw, cv.lb) and bit manipulation (cv.cnt, cv.ff1, cv.fl1,
   cv.bitrev). */
#include "test.h"

#define OP2(insn, a, b) ({ int r_; __asm__(insn " %0, %1, %2" : "=r"(r_) : "r"(a), "r"(b)); r_; })
#define OP1(insn, a) ({ int r_; __asm__(insn " %0, %1" : "=r"(r_) : "r"(a)); r_; })
#define OPI(insn, a, imm) ({ int r_; __asm__(insn " %0, %1, %2" : "=r"(r_) : "r"(a), "i"(imm)); r_; })
#define ACC(insn, acc, a, b) ({ int r_ = (acc); __asm__(insn " %0, %1, %2" : "+r"(r_) : "r"(a), "r"(b)); r_; })

static uint32_t pack(int a, int b, int c, int d) { return (uint8_t)a | (uint8_t)b << 8 | (uint8_t)c << 16 | (uint32_t)(uint8_t)d << 24; }

/* The reference sums in C. */
static int sdot_ref(uint32_t a, uint32_t b, int ua, int ub) {
  int s = 0;
  for (int i = 0; i < 4; i++) {
    int x = ua ? (int)(uint8_t)(a >> 8 * i) : (int)(int8_t)(a >> 8 * i);
    int y = ub ? (int)(uint8_t)(b >> 8 * i) : (int)(int8_t)(b >> 8 * i);
    s += x * y;
  }
  return s;
}

int main(void) {
  int p = HIDE(7), n = HIDE(-9);
  ASSERT(7, OP2("cv.max", p, n));
  ASSERT(-9, OP2("cv.min", p, n));
  ASSERT(-9, OP2("cv.maxu", p, n)); /* 0xfffffff7 is the larger unsigned */
  ASSERT(7, OP2("cv.minu", p, n));
  ASSERT(9, OP1("cv.abs", n));
  ASSERT(-8, OPI("cv.clip", n, 4));   /* clip to [-8, 7] */
  ASSERT(7, OPI("cv.clip", HIDE(100), 4));
  ASSERT(0, OPI("cv.clipu", n, 4));   /* clip to [0, 7] */
  ASSERT(7, OPI("cv.clipu", HIDE(100), 4));
  ASSERT(-6, OP2("cv.clipr", n, HIDE(5))); /* clip to [-6, 5] */
  ASSERT(5, OP2("cv.clipr", HIDE(77), HIDE(5)));
  ASSERT(0, OP2("cv.clipur", n, HIDE(5)));
  ASSERT((7 + -9) >> 1, ({ int r_; __asm__("cv.addn %0, %1, %2, 1" : "=r"(r_) : "r"(p), "r"(n)); r_; }));
  ASSERT((100 + 28) >> 3, ACC("cv.addnr", HIDE(100), HIDE(28), HIDE(3)));
  ASSERT(-1, OP1("cv.exths", HIDE(0x1234ffff)));
  ASSERT(0xff, OP1("cv.extbz", HIDE(0x12ff)));

  ASSERT(10 + 7 * -9, ACC("cv.mac", HIDE(10), p, n));
  ASSERT(10 - 7 * -9, ACC("cv.msu", HIDE(10), p, n));

  uint32_t a = pack(1, -2, 127, -128), b = pack(HIDE(10), 20, 1, -1);
  ASSERT((int)pack(11, 18, -128, 127), OP2("cv.add.b", a, b));
  ASSERT((int)pack(-9, -22, 126, -127), OP2("cv.sub.b", a, b));
  ASSERT(sdot_ref(a, b, 0, 0), OP2("cv.dotsp.b", a, b));
  ASSERT(1000 + sdot_ref(a, b, 0, 0), ACC("cv.sdotsp.b", HIDE(1000), a, b));
  ASSERT(-5 + sdot_ref(a, b, 1, 0), ACC("cv.sdotusp.b", HIDE(-5), a, b));
  ASSERT(sdot_ref(a, b, 1, 1), ACC("cv.sdotup.b", HIDE(0), a, b));
  ASSERT(sdot_ref(a, b, 1, 0), OP2("cv.dotusp.b", a, b));
  ASSERT(0x7fff * 2 + -1 * -32768, OP2("cv.dotsp.h", HIDE(0xffff7fffu), HIDE(0x80000002u)));
  ASSERT(-2, OPI("cv.extract.b", a, 1));
  ASSERT(254, OPI("cv.extractu.b", a, 1));
  int ins = (int)a;
  __asm__("cv.insert.b %0, %1, 3" : "+r"(ins) : "r"(HIDE(0x55)));
  ASSERT((int)pack(1, -2, 127, 0x55), ins);

  /* Post-increment loads walk an array. */
  static const int words[4] = {11, 22, 33, 44};
  const int *wp = words;
  int sum = 0;
  for (int i = 0; i < 4; i++) {
    int v;
    __asm__ volatile("cv.lw %0, (%1), 4" : "=r"(v), "+r"(wp) : : "memory");
    sum += v;
  }
  ASSERT(110, sum);
  ASSERT(4, wp - words);
  static const signed char bytes[3] = {-1, 2, -3};
  const signed char *bp = bytes;
  int bs = 0;
  for (int i = 0; i < 3; i++) {
    int v;
    __asm__ volatile("cv.lb %0, (%1), 1" : "=r"(v), "+r"(bp) : : "memory");
    bs = bs * 10 + v;
  }
  ASSERT((-1 * 10 + 2) * 10 - 3, bs);

  ASSERT(13, OP1("cv.cnt", HIDE(0x12345678)));
  ASSERT(3, OP1("cv.ff1", HIDE(0x12345678)));
  ASSERT(28, OP1("cv.fl1", HIDE(0x12345678)));
  ASSERT(32, OP1("cv.ff1", HIDE(0)));
  return done();
}
