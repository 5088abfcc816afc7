// Frame layout, prologue and epilogue, after register allocation. From sp upwards:
//   outgoing stack arguments | saved ra and callee-saved registers | locals and spill slots |
//   (variadic functions) the 32-byte save area of a0..a7, just under the caller's stack arguments
// so that va_arg walks one array. sp stays 16-byte aligned. Frame objects become sp offsets;
// an offset past 12 bits goes through a register (the value's own, or t6, which the allocator
// then keeps free).
import { RA, SP, type MFunction, type MInst, type Reg } from './mir';

const T0 = 5, T6 = 31;
const fits12 = (c: number): boolean => c >= -2048 && c <= 2047;

export interface FrameResult {
  total: number;
  /** True when a store needed a scratch register the allocator did not keep free. */
  needsScratch: boolean;
}

export function layoutFrame(mf: MFunction, calleeSaved: Reg[]): FrameResult {
  const saved = [...(mf.hasCalls ? [RA] : []), ...calleeSaved];
  let off = mf.outArgs;
  const saveAt = off;
  off += 4 * saved.length;
  for (const o of mf.frame) {
    if (o.kind !== 'local' && o.kind !== 'spill') continue;
    off = Math.ceil(off / o.align) * o.align;
    o.offset = off;
    off += o.size;
  }
  const body = Math.ceil(off / 16) * 16;
  const total = body + (mf.variadic ? 32 : 0);
  const spOffset = (fi: number): number => {
    const o = mf.frame[fi];
    return o.kind === 'incoming' || o.kind === 'varargs' ? total + o.offset : o.offset;
  };
  let needsScratch = false;
  for (const b of mf.blocks) {
    const out: MInst[] = [];
    for (const x of b.insts) {
      if (x.fi !== undefined) {
        const off = spOffset(x.fi) + (x.imm ?? 0);
        delete x.fi;
        if (fits12(off)) {
          x.imm = off;
          if (x.fmt === 'I' || x.fmt === 'L') x.uses = [SP];
          else if (x.fmt === 'S') x.uses = [x.uses[0], SP];
          out.push(x);
          continue;
        }
        // A far offset: the address in a register (the result's own for addi and loads).
        const t = x.fmt === 'S' ? T6 : x.defs[0];
        if (x.fmt === 'S' && mf.reserved.indexOf(T6) < 0) needsScratch = true;
        out.push({ op: 'li', fmt: 'LI', defs: [t], uses: [], imm: off, loc: x.loc });
        if (x.fmt === 'I') { out.push({ ...x, op: 'add', fmt: 'R', uses: [SP, t], imm: undefined }); continue; }
        out.push({ op: 'add', fmt: 'R', defs: [t], uses: [SP, t], loc: x.loc });
        x.imm = 0;
        x.uses = x.fmt === 'S' ? [x.uses[0], t] : [t];
        out.push(x);
        continue;
      }
      if (x.fmt === 'RET') out.push(...epilogue(saved, saveAt, total, x.loc));
      out.push(x);
    }
    b.insts = out;
  }
  mf.blocks[mf.order[0]].insts.unshift(...prologue(mf, saved, saveAt, total));
  return { total, needsScratch };
}

function adjustSp(delta: number, loc: string | undefined): MInst[] {
  if (delta === 0) return [];
  if (fits12(delta)) return [{ op: 'addi', fmt: 'I', defs: [SP], uses: [SP], imm: delta, loc, sideEffect: true }];
  return [
    { op: 'li', fmt: 'LI', defs: [T0], uses: [], imm: delta, loc, sideEffect: true },
    { op: 'add', fmt: 'R', defs: [SP], uses: [SP, T0], loc, sideEffect: true },
  ];
}

function prologue(mf: MFunction, saved: Reg[], saveAt: number, total: number): MInst[] {
  const loc = mf.loc;
  const out = adjustSp(-total, loc);
  saved.forEach((r, i) => out.push({ op: 'sw', fmt: 'S', defs: [], uses: [r, SP], imm: saveAt + 4 * i, loc, sideEffect: true }));
  if (mf.variadic) {
    // a_k for every register the named parameters left, at CFA - 32 + 4k.
    let base: Reg = SP, at = total - 32;
    if (!fits12(at + 32)) {
      out.push({ op: 'li', fmt: 'LI', defs: [T0], uses: [], imm: at, loc, sideEffect: true });
      out.push({ op: 'add', fmt: 'R', defs: [T0], uses: [SP, T0], loc, sideEffect: true });
      base = T0; at = 0;
    }
    for (let k = mf.fixedArgRegs; k < 8; k++) out.push({ op: 'sw', fmt: 'S', defs: [], uses: [10 + k, base], imm: at + 4 * k, loc, sideEffect: true });
  }
  return out;
}

function epilogue(saved: Reg[], saveAt: number, total: number, loc: string | undefined): MInst[] {
  const out: MInst[] = saved.map((r, i) => ({ op: 'lw', fmt: 'L', defs: [r], uses: [SP], imm: saveAt + 4 * i, loc }));
  out.push(...adjustSp(total, loc));
  return out;
}
