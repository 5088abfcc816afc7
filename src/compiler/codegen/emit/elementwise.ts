// Elementwise layers: Add / Sub / Mul with broadcasting, RequantShift, RequantizedAdd, the
// activations (Relu, Clip, iHardswish, iGELU, TrueIntegerDiv and their requantized forms) and
// integer division.
import { fail } from '../../../common/errors';
import { levelsRange, shiftOfDiv } from '../../ops/core/requant';
import { trueDivCoeff } from '../../ops/integer-div';
import { rqAddParts, shiftOf } from '../../ops/requantized';
import { lit } from '../ctypes';
import { broadcastWalk, paramInit, scalarInit, walkDecl } from '../layout';
import { input, int32Attr, noOffsets, numelOf, offArg, tag } from './common';
import type { EmitSink, Emitter, LayerSpec } from './types';

function binaryWalk(l: LayerSpec, out: EmitSink): string {
  const a = input(l, 0, 'A'), b = input(l, 1, 'B');
  out.decl(walkDecl(`${l.id}_walk`, broadcastWalk(l.outs[0].shape, [a.shape, b.shape]), l.where));
  return `&${l.id}_walk`;
}

const BINOP: Record<string, string> = { Add: 'DPG_ADD', Sub: 'DPG_SUB', Mul: 'DPG_MUL' };

const binary: Emitter = {
  family: /^(Add_s32|Sub_s32|Mul_)/,
  offsets: 'absorb',
  emit(l, out) {
    const a = input(l, 0, 'A'), b = input(l, 1, 'B'), y = l.outs[0];
    const walk = binaryWalk(l, out);
    out.step(`dpg_binary(${BINOP[l.node.op]}, ${out.data(a)}, ${tag(a)}, ${offArg(a)}, ${out.data(b)}, ${tag(b)}, ${offArg(b)}, ` +
      `${out.data(y)}, ${tag(y)}, ${walk});`);
  },
};

const requantShift: Emitter = {
  family: /^RequantShift_/,
  offsets: 'absorb',
  emit(l, out) {
    const x = input(l, 0, 'input'), y = l.outs[0];
    const mul = paramInit(out, input(l, 1, 'mul'), x.shape, 'mul', l.where);
    const add = paramInit(out, input(l, 2, 'add'), x.shape, 'add', l.where);
    const [lo, hi] = levelsRange(l.attrs.n_levels as number, !!l.attrs.signed, l.where);
    out.step(`dpg_requant_shift(${out.data(x)}, ${tag(x)}, ${offArg(x)}, (dpg_param_t)${mul}, (dpg_param_t)${add}, ` +
      `${shiftOfDiv(l.attrs.div as number, l.where)}, ${lo}, ${hi}, ${out.data(y)}, ${tag(y)}, ${numelOf(x.shape)});`);
  },
};

const rqAdd: Emitter = {
  family: /^RequantizedAdd_/,
  offsets: 'none',
  emit(l, out) {
    noOffsets(l);
    const a = input(l, 0, 'A'), b = input(l, 1, 'B'), y = l.outs[0];
    const parts = rqAddParts(l.attrs as Record<string, number | undefined>, l.where);
    for (const p of parts) if (![p.mul, p.add].every((v) => Number.isInteger(v) && Math.abs(v) < 2 ** 31))
      fail('not-implemented', `a requantizer has mul ${p.mul}, add ${p.add}; the kernel takes int32`, l.where);
    out.decl(`static const dpg_rq_t ${l.id}_rq[3] = {${parts.map((p) => `{${p.mul}, ${lit(p.add)}, ${p.shift}, ${p.lo}, ${p.hi}}`).join(', ')}};`);
    const walk = binaryWalk(l, out);
    out.step(`dpg_rq_add(${out.data(a)}, ${tag(a)}, ${out.data(b)}, ${tag(b)}, ${out.data(y)}, ${tag(y)}, ${walk}, ${l.id}_rq);`);
  },
};

/** The dpg_unary_t fields after the op: requant flag, mul, add, shift, lo, hi. */
function requantFields(l: LayerSpec, mul: string, add: string, shift: number): string {
  const [lo, hi] = levelsRange(l.attrs.n_levels as number, !!l.attrs.signed, l.where);
  return `.requant = 1, .mul = ${mul}, .add = ${add}, .shift = ${shift}, .lo = ${lo}, .hi = ${hi}`;
}

/** dpg_unary_t initialiser fields of each activation. */
function unaryFields(l: LayerSpec, out: EmitSink): string {
  const a = l.attrs as Record<string, number>;
  const i32 = (name: string) => int32Attr(l, name);
  const x = input(l, 0, 'input');
  const clipBound = (i: number, attr: number | undefined, dflt: number) => {
    const t = l.ins[i];
    const v = t ? t.values?.[0] : attr;
    if (t && !t.values) fail('not-implemented', `its ${i === 1 ? 'min' : 'max'} is not a constant`, l.where);
    return v === undefined || !Number.isFinite(v) ? dflt : Math.min(Math.max(Math.trunc(v), -(2 ** 31)), 2 ** 31 - 1);
  };
  switch (l.node.op) {
    case 'Relu': return '.op = DPG_RELU';
    case 'Clip': return `.op = DPG_CLIP, .a = ${lit(clipBound(1, a.min, -(2 ** 31)))}, .b = ${lit(clipBound(2, a.max, 2 ** 31 - 1))}`;
    case 'iHardswish': return `.op = DPG_HARDSWISH, .a = ${i32('three')}, .b = ${i32('six')}, .c = ${i32('one_over_six')}`;
    case 'iGELU': return `.op = DPG_GELU, .a = ${i32('b')}, .b = ${i32('one')}`;
    case 'TrueIntegerDiv': return `.op = DPG_SCALE, .a = ${trueDivCoeff(a as never, l.where)}`;
    case 'RequantizediHardswish':
      return `.op = DPG_HARDSWISH, .a = ${i32('three')}, .b = ${i32('six')}, .c = ${i32('one_over_six')}, ` +
        requantFields(l, scalarInit(out, a.mul, `${l.id}_mul`, l.where), scalarInit(out, a.add, `${l.id}_add`, l.where), shiftOf(a, undefined, l.where));
    case 'RequantizediGELU': {
      const sh = l.ins[3];
      return `.op = DPG_GELU, .a = ${i32('b')}, .b = ${i32('one')}, ` +
        requantFields(l, paramInit(out, input(l, 1, 'mul'), x.shape, 'mul', l.where), paramInit(out, input(l, 2, 'add'), x.shape, 'add', l.where),
          shiftOf(a, sh?.values ? { shape: sh.shape, data: sh.values } : undefined, l.where));
    }
    default: return fail('internal', `no elementwise form for ${l.node.op}`, l.where);
  }
}

const unary: Emitter = {
  family: /^(Relu_|Clip_|iHardswish_|iGELU_|TrueIntegerDiv_|RequantizediHardswish_|RequantizediGELU_)/,
  offsets: 'absorb',
  emit(l, out) {
    const x = input(l, 0, 'input'), y = l.outs[0];
    out.decl(`static const dpg_unary_t ${l.id}_f = {${unaryFields(l, out)}};`);
    out.step(`dpg_unary(${out.data(x)}, ${tag(x)}, ${offArg(x)}, ${out.data(y)}, ${tag(y)}, ${numelOf(x.shape)}, &${l.id}_f);`);
  },
};

const integerDiv: Emitter = {
  family: /^(IntegerDiv_|RQIntegerDiv_)/,
  offsets: 'none',
  emit(l, out) {
    noOffsets(l);
    const a = input(l, 0, 'A'), b = input(l, 1, 'B'), y = l.outs[0];
    const at = l.attrs as Record<string, number>;
    let f = '.op = DPG_SCALE';
    if (l.node.op === 'RQIntegerDiv') {
      const sh = l.ins[4];
      f += ', ' + requantFields(l, paramInit(out, input(l, 2, 'mul'), y.shape, 'mul', l.where),
        paramInit(out, input(l, 3, 'add'), y.shape, 'add', l.where), shiftOf(at, sh?.values ? { shape: sh.shape, data: sh.values } : undefined, l.where));
    }
    out.decl(`static const dpg_unary_t ${l.id}_rq = {${f}};`);
    const walk = binaryWalk(l, out);
    out.step(`dpg_integer_div(${out.data(a)}, ${tag(a)}, ${out.data(b)}, ${tag(b)}, ${out.data(y)}, ${tag(y)}, ${walk}, ` +
      `${int32Attr(l, 'Delta')}, ${int32Attr(l, 'eta')}, ${int32Attr(l, 'eps')}, &${l.id}_rq);`);
  },
};

export const elementwiseEmitters: Emitter[] = [binary, requantShift, rqAdd, unary, integerDiv];
