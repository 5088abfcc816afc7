// Packed vector ops (ir.ts: vsplat, vadd, ..., lane-wise on an i32 of 8- or 16-bit lanes) for
// plain RV32, which has no SIMD: rewritten into scalar IR before selection, so no cv.* instruction
// appears. Additions, subtractions and splats are SWAR (a few word operations with carries kept
// inside their lane); shifts by a splatted count shift the word and mask; comparisons are SWAR
// too (a borrow or a nonzero test per lane, spread over the lane); shifts by a vector of counts go
// lane by lane in registers. The result is the interpreter's vec32, bit for bit
// (vectors.test.ts runs both).
import { isVecOp, type Inst, type IrFunction, type Op } from '../ir';

/** f with its vector ops expanded (f itself when it has none). */
export function expandVectors(f: IrFunction): IrFunction {
  if (!f.blocks.some((b) => b.insts.some((x) => isVecOp(x.op)))) return f;
  const def: (Inst | undefined)[] = [];
  for (const b of f.blocks) for (const x of b.insts) if (x.dst >= 0) def[x.dst] = x;
  const g: IrFunction = { ...f, blocks: [] };
  // The masks are made once, at the entry (which dominates every use; the optimiser has run already).
  const consts = { insts: [] as Inst[], byValue: new Map<number, number>() };
  for (const b of f.blocks) {
    const out: Inst[] = [];
    for (const x of b.insts) {
      if (isVecOp(x.op)) new Expander(g, out, x, def, consts).run();
      else out.push(x);
    }
    g.blocks.push({ insts: out });
  }
  const entry = g.blocks[0].insts;
  let at = 0;
  while (entry[at]?.op === 'phi') at++;
  entry.splice(at, 0, ...consts.insts);
  return g;
}

class Expander {
  private readonly w: 8 | 16;
  private readonly mask: number;
  /** The sign bit of every lane. */
  private readonly high: number;
  private readonly ones: number;

  constructor(private g: IrFunction, private out: Inst[], private x: Inst, private def: (Inst | undefined)[],
    private consts: { insts: Inst[]; byValue: Map<number, number> }) {
    this.w = x.lane!;
    this.mask = this.w === 8 ? 0xff : 0xffff;
    this.high = this.w === 8 ? 0x80808080 | 0 : 0x80008000 | 0;
    this.ones = this.w === 8 ? 0x01010101 : 0x00010001;
  }

  private k(v: number): number {
    let dst = this.consts.byValue.get(v | 0);
    if (dst === undefined) {
      dst = this.g.nregs++;
      this.consts.byValue.set(v | 0, dst);
      this.consts.insts.push({ op: 'const', ty: 'i32', dst, args: [], imm: v | 0, loc: this.g.loc });
    }
    return dst;
  }

  private op(op: Op, a: number, b: number, dst = this.g.nregs++): number {
    this.out.push({ op, ty: 'i32', dst, args: [a, b], loc: this.x.loc });
    return dst;
  }

  private opk(op: Op, a: number, c: number, dst?: number): number {
    return this.op(op, a, this.k(c), dst);
  }

  run(): void {
    const x = this.x, d = x.dst;
    const [a, b] = x.args;
    switch (x.op) {
      case 'vsplat': this.splat(a, d); return;
      case 'vadd': {
        // Lanes without their top bits cannot carry out; the top bits are a sum without carry.
        const lo = this.op('add', this.opk('and', a, ~this.high), this.opk('and', b, ~this.high));
        this.op('xor', lo, this.opk('and', this.op('xor', a, b), this.high), d);
        return;
      }
      case 'vsub': {
        // Each lane's top bit set in a, cleared in b: no borrow leaves a lane; then fix the top bits.
        const lo = this.op('sub', this.opk('or', a, this.high), this.opk('and', b, ~this.high));
        const top = this.opk('xor', this.opk('and', this.op('xor', a, b), this.high), this.high);
        this.op('xor', lo, top, d);
        return;
      }
      case 'vshl': case 'vlshr': case 'vashr': {
        const bd = this.def[b];
        if (bd?.op === 'vsplat' && bd.lane === this.w) { this.shiftBySplat(x.op, a, bd.args[0], d); return; }
        this.shiftLanewise(x.op, a, b, d);
        return;
      }
      case 'veq': case 'vne': {
        // A lane of z = a ^ b is nonzero when its low bits carry into the top bit, or the top bit is set.
        const z = this.op('xor', a, b);
        const nz = this.opk('and', this.op('or', this.opk('add', this.opk('and', z, ~this.high), ~this.high), z), this.high);
        this.lanes(x.op === 'vne' ? nz : this.opk('xor', nz, this.high), d);
        return;
      }
      default: {
        // x < y, unsigned (signed: with the top bits flipped) is the borrow out of each lane's x - y.
        const [swap, not] = ORDER[x.op]!;
        let [p, q] = swap ? [b, a] : [a, b];
        if (x.op[1] === 's') { p = this.opk('xor', p, this.high); q = this.opk('xor', q, this.high); }
        const diff = this.op('xor', this.op('sub', this.opk('or', p, this.high), this.opk('and', q, ~this.high)),
          this.opk('xor', this.opk('and', this.op('xor', p, q), this.high), this.high));
        const notP = this.opk('xor', p, -1);
        const borrow = this.op('or', this.op('and', notP, q), this.op('and', this.opk('xor', this.op('xor', p, q), -1), diff));
        const bits = this.opk('and', borrow, this.high);
        this.lanes(not ? this.opk('xor', bits, this.high) : bits, d);
      }
    }
  }

  /** Lanes of all ones where the lane's top bit is set in `tops` (which has no other bit). */
  private lanes(tops: number, d: number): void {
    this.opk('mul', this.opk('lshr', tops, this.w - 1), this.mask, d);
  }

  /** v's low lane bits in every lane. */
  private splat(v: number, dst?: number): number {
    return this.opk('mul', this.opk('and', v, this.mask), this.ones, dst);
  }

  /** The whole word shifted by n (mod the lane width), then the bits that crossed lanes masked off. */
  private shiftBySplat(op: Op, a: number, s: number, d: number): void {
    const n = this.opk('and', s, this.w - 1);
    const laneMask = this.k(this.mask);
    if (op === 'vshl') { this.op('and', this.op('shl', a, n), this.splat(this.op('shl', laneMask, n)), d); return; }
    const keep = this.splat(this.op('lshr', laneMask, n));
    const t = this.op('and', this.op('lshr', a, n), keep, op === 'vlshr' ? d : undefined);
    if (op === 'vlshr') return;
    // Arithmetic: negative lanes get ones above the shifted bits.
    const neg = this.opk('mul', this.opk('lshr', this.opk('and', a, this.high), this.w - 1), this.mask);
    const fill = this.op('and', neg, this.opk('xor', keep, -1));
    this.op('or', t, fill, d);
  }

  /** Shifts by a vector, lane by lane: each lane extended to 32 bits, shifted by its count, the results packed. */
  private shiftLanewise(op: Op, a: number, b: number, d: number): void {
    const w = this.w;
    const signed = op === 'vashr';
    const scalar: Op = op === 'vshl' ? 'shl' : op === 'vlshr' ? 'lshr' : 'ashr';
    let acc = -1;
    for (let i = 0; i < 32 / w; i++) {
      const lane = (v: number, sgn: boolean): number => {
        const up = 32 - w * (i + 1);
        const t = up ? this.opk('shl', v, up) : v;
        return this.opk(sgn ? 'ashr' : 'lshr', t, 32 - w);
      };
      const r = this.op(scalar, lane(a, signed), this.opk('and', lane(b, false), w - 1));
      const m = this.opk('and', r, this.mask);
      const placed = i ? this.opk('shl', m, w * i) : m;
      const last = i === 32 / w - 1;
      acc = acc < 0 ? placed : this.op('or', acc, placed, last ? d : undefined);
    }
  }
}

/** Each ordered compare as a < b: [operands swapped, result inverted]. */
const ORDER: Partial<Record<Op, [boolean, boolean]>> = {
  vslt: [false, false], vult: [false, false], vsgt: [true, false], vugt: [true, false],
  vsge: [false, true], vuge: [false, true], vsle: [true, true], vule: [true, true],
};
