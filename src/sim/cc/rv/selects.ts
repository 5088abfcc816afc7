// Scalar min, max and abs spelled as C's ?: (`x > m ? x : m`, `v < 0 ? -v : v`): after the
// optimiser they are a branch over an empty block (or two) into a phi. With CORE-V each is one
// instruction (cv.max, cv.maxu, cv.min, cv.minu, cv.abs) and no branch: the phi becomes that
// instruction at the end of the branching block, which then jumps straight on. Runs on the IR
// just before instruction selection; the CORE-V forms are written as the inline asm the
// kernels' own helpers use (a pure computation to every later step).
import type { Inst, IrFunction } from '../ir';
import { simplifyCfg } from '../opt/cfg';
import { definitions, successors, terminator } from '../opt/util';

/** For a compare a OP b taken true: the instruction when the phi picks a then, b otherwise. */
const PICK_A: Record<string, string> = { sgt: 'max', sge: 'max', slt: 'min', sle: 'min', ugt: 'maxu', uge: 'maxu', ult: 'minu', ule: 'minu' };
const SWAP: Record<string, string> = { max: 'min', min: 'max', maxu: 'minu', minu: 'maxu' };

/**
 * The function with its min/max/abs diamonds rewritten: `f` itself when it has none, else a
 * rewritten copy (the caller's IR stays as the optimiser left it).
 */
export function selectMinMax(f: IrFunction): IrFunction {
  const plans = findSelects(f);
  if (!plans.length) return f;
  const g = structuredClone(f);
  for (const p of plans) {
    g.blocks[p.join].insts = g.blocks[p.join].insts.filter((x) => x.op !== 'phi');
    const hb = g.blocks[p.h].insts;
    const br = hb[hb.length - 1];
    hb.splice(hb.length - 1, 1, ...p.made, { op: 'jmp', ty: 'i32', dst: -1, args: [], targets: [p.join], loc: br.loc });
  }
  // The side blocks are unreachable now and each join has one predecessor: merged into it.
  simplifyCfg(g);
  return g;
}

interface Plan { h: number; join: number; made: Inst[] }

function findSelects(f: IrFunction): Plan[] {
  const plans: Plan[] = [];
  const def = definitions(f);
  const constOf = (r: number): number | undefined => (def[r]?.op === 'const' && typeof def[r]!.imm === 'number' ? def[r]!.imm as number : undefined);
  const preds: number[][] = f.blocks.map(() => []);
  f.blocks.forEach((b, i) => { for (const s of successors(b)) preds[s].push(i); });
  for (let h = 0; h < f.blocks.length; h++) {
    const br = terminator(f.blocks[h]);
    if (br.op !== 'br') continue;
    const c = def[br.args[0]];
    if (!c || !(c.op in PICK_A) || (c.ty !== 'i32' && c.ty !== 'ptr')) continue;
    // Each side: straight to the join, or through a block holding at most one instruction (and
    // constants) and a jump.
    const side = (t: number): { join: number; from: number; inst?: Inst } | undefined => {
      const insts = f.blocks[t].insts;
      const work = insts.slice(0, -1).filter((x) => x.op !== 'const');
      if (t === h || preds[t].length !== 1 || work.length > 1 || terminator(f.blocks[t]).op !== 'jmp') return { join: t, from: h };
      if (work.some((x) => x.op === 'phi')) return undefined;
      return { join: terminator(f.blocks[t]).targets![0], from: t, inst: work[0] };
    };
    const st = side(br.targets![0]), sf = side(br.targets![1]);
    if (!st || !sf || st.join !== sf.join || st.from === sf.from) continue;
    const j = st.join;
    if (preds[j].length !== 2 || j === h) continue;
    const phis = f.blocks[j].insts.filter((x) => x.op === 'phi');
    if (!phis.length) continue;
    // A side block's instruction may only be the negation an abs picks.
    const made: Inst[] = [];
    let ok = true;
    for (const p of phis) {
      const vt = p.args[p.targets!.indexOf(st.from)], vf = p.args[p.targets!.indexOf(sf.from)];
      const [a, b] = c.args;
      let name: string | undefined, x = a, y = b;
      if (vt === a && vf === b) name = PICK_A[c.op];
      else if (vt === b && vf === a) name = SWAP[PICK_A[c.op]];
      else {
        // abs: v < 0 ? -v : v, v > 0 ? v : -v (and the <=, >= forms), signed
        const neg = (r: number, v: number): boolean => def[r]?.op === 'sub' && def[r]!.args[1] === v && constOf(def[r]!.args[0]) === 0;
        const zero = constOf(b) === 0 || (constOf(b) === -1 && (c.op === 'sle' || c.op === 'sgt'));
        if (zero && (c.op === 'slt' || c.op === 'sle') && neg(vt, a) && vf === a) name = 'abs';
        if (zero && (c.op === 'sgt' || c.op === 'sge') && vt === a && neg(vf, a)) name = 'abs';
      }
      if (!name) { ok = false; break; }
      made.push(name === 'abs'
        ? { op: 'asm', ty: 'i32', dst: -1, args: [x], loc: p.loc, asm: { template: 'cv.abs %0, %1', outputs: ['=r'], outs: [p.dst], inputs: ['r'], clobbers: [], volatile: false } }
        : { op: 'asm', ty: 'i32', dst: -1, args: [x, y], loc: p.loc, asm: { template: `cv.${name} %0, %1, %2`, outputs: ['=r'], outs: [p.dst], inputs: ['r', 'r'], clobbers: [], volatile: false } });
    }
    // What the side blocks compute must be only what the phis needed (the abs's negation).
    for (const s of [st, sf]) if (s.inst && (s.inst.op !== 'sub' || !phis.some((p) => p.args.includes(s.inst!.dst)))) ok = false;
    if (ok) plans.push({ h, join: j, made });
  }
  return plans;
}
