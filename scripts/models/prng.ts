// A seeded pseudo-random generator for the built-in models: the same seed and label give the
// same numbers on every machine and every run. Only integer and basic float arithmetic is used
// (no Math.log/exp/sin), so nothing depends on how a platform rounds transcendental functions.
//
// Every random draw comes from a stream named by a label ("layer0/attn/q_proj/weight"), derived
// from the model's seed and that label alone, so changing one layer never reshuffles the others,
// and two models built with the same seed (prefill and decode) get the same weights.

/** 32-bit FNV-1a of a string: turns a label into a seed. */
export function hash32(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** sfc32 (Chris Doty-Humphrey's Small Fast Counting generator), seeded through splitmix32. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const splitmix = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = splitmix();
    this.b = splitmix();
    this.c = splitmix();
    this.d = splitmix();
    for (let i = 0; i < 12; i++) this.next32();
  }

  /** A stream of its own for `label`, independent of how much of this one was used. */
  static stream(seed: number, label: string): Rng {
    return new Rng(hash32(label, hash32(String(seed))));
  }

  next32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    return this.next32() / 4294967296;
  }

  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.uniform() * (hi - lo + 1));
  }

  /** Uniform float in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.uniform();
  }

  /** Approximately standard normal (Irwin-Hall: twelve uniforms minus six; bounded by +-6). */
  normal(): number {
    let s = 0;
    for (let i = 0; i < 12; i++) s += this.uniform();
    return s - 6;
  }
}
