// CORE-V (Xpulp) extensions of the CV32E40P in LLVM's encodings: xcvalu, xcvmac, xcvsimd,
// xcvmem, xcvbi, xcvbitmanip, and the hardware loops xcvhwlp (which LLVM 19 does not know;
// encoded per the CV32E40P user manual). Semantics follow the manual's tables; every
// CORE-V instruction takes one cycle unless its exec adds stalls.
import * as Fm from './formats';
import type { Format } from './formats';
import type { Row } from './row';
import { row } from './row';

const R_PAT = (f7: string, f3: string, op: string) => `${f7} ----- ----- ${f3} ----- ${op}`;
const R1_PAT = (f7: string, f3: string, op: string) => `${f7} 00000 ----- ${f3} ----- ${op}`;
const CUSTOM0 = '0001011';
const CUSTOM1 = '0101011';
const CUSTOM2 = '1011011';
const CUSTOM3 = '1111011';

// ---------------------------------------------------------------- xcvbitmanip
// A bit field is Is3+1 bits at position Is2 (or rs2[9:5] / rs2[4:0]), cut at bit 31.
const bm = (id: string, f2: string, f3: string, exec: string, fmt: Format = Fm.RII): Row =>
  row(id, 'Xcvbitmanip', `${f2} ----- ----- ----- ${f3} ----- ${CUSTOM2}`, fmt, exec);
const bmr = (id: string, f7: string, exec: string, fmt: Format = Fm.R): Row =>
  row(id, 'Xcvbitmanip', (fmt === Fm.R1 ? R1_PAT : R_PAT)(f7, '011', CUSTOM1), fmt, exec);

const BITMANIP: Row[] = [
  bm('cv.extract', '00', '000', 'W(bfExtract(A, aux, imm));'),
  bm('cv.extractu', '01', '000', 'W(bfExtractU(A, aux, imm));'),
  bm('cv.insert', '10', '000', 'W(bfInsert(D, A, aux, imm));'),
  bm('cv.bclr', '00', '001', 'W(A & ~bfMask(aux, imm));'),
  bm('cv.bset', '01', '001', 'W(A | bfMask(aux, imm));'),
  row('cv.bitrev', 'Xcvbitmanip', `11 000 -- ----- ----- 001 ----- ${CUSTOM2}`, Fm.RII_BITREV, 'W(bitrev(A, aux, imm));'),
  bmr('cv.extractr', '0011000', 'W(bfExtract(A, (B >> 5) & 31, B & 31));'),
  bmr('cv.extractur', '0011001', 'W(bfExtractU(A, (B >> 5) & 31, B & 31));'),
  bmr('cv.insertr', '0011010', 'W(bfInsert(D, A, (B >> 5) & 31, B & 31));', Fm.RD_RW),
  bmr('cv.bclrr', '0011100', 'W(A & ~bfMask((B >> 5) & 31, B & 31));'),
  bmr('cv.bsetr', '0011101', 'W(A | bfMask((B >> 5) & 31, B & 31));'),
  bmr('cv.ror', '0100000', 'W(rotr<i32>(A, B & 31));'),
  bmr('cv.ff1', '0100001', 'W(ctz<i32>(A));', Fm.R1),
  bmr('cv.fl1', '0100010', 'W(A == 0 ? 32 : 31 - clz<i32>(A));', Fm.R1),
  bmr('cv.clb', '0100011', 'W(A == 0 ? 0 : clz<i32>(A ^ (A >> 31)) - 1);', Fm.R1),
  bmr('cv.cnt', '0100100', 'W(popcnt<i32>(A));', Fm.R1),
];

// ---------------------------------------------------------------- xcvalu
const aluR = (id: string, f7: string, exec: string, fmt: Format = Fm.R): Row =>
  row(id, 'Xcvalu', (fmt === Fm.R1 ? R1_PAT : R_PAT)(f7, '011', CUSTOM1), fmt, exec);
// cv.addN & co: (rs1 +- rs2 [+ 2^(Is3-1)]) shifted right by Is3, arithmetic or logical.
const addN = (id: string, f2: string, f3: string, op: '+' | '-', round: boolean, logical: boolean): Row =>
  row(id, 'Xcvalu', `${f2} ----- ----- ----- ${f3} ----- ${CUSTOM2}`, Fm.RRI,
    `W(${logical ? 'srlN' : 'sraN'}(A ${op} B${round ? ' + rnd(imm)' : ''}, imm));`);
// cv.addNr & co: rd = (rd +- rs1 [+ 2^(rs2-1)]) >> rs2[4:0].
const addNr = (id: string, f7: string, op: '+' | '-', round: boolean, logical: boolean): Row =>
  row(id, 'Xcvalu', R_PAT(f7, '011', CUSTOM1), Fm.RD_RW,
    `const s = B & 31; W(${logical ? 'srlN' : 'sraN'}(D ${op} A${round ? ' + rnd(s)' : ''}, s));`);

const ALU: Row[] = [
  aluR('cv.abs', '0101000', 'W(A < 0 ? -A : A);', Fm.R1),
  aluR('cv.sle', '0101001', 'W(<i32>(A <= B));'),
  aluR('cv.sleu', '0101010', 'W(<i32>(<u32>A <= <u32>B));'),
  aluR('cv.min', '0101011', 'W(min<i32>(A, B));'),
  aluR('cv.minu', '0101100', 'W(<i32>min<u32>(A, B));'),
  aluR('cv.max', '0101101', 'W(max<i32>(A, B));'),
  aluR('cv.maxu', '0101110', 'W(<i32>max<u32>(A, B));'),
  aluR('cv.exths', '0110000', 'W(<i32><i16>A);', Fm.R1),
  aluR('cv.exthz', '0110001', 'W(A & 0xffff);', Fm.R1),
  aluR('cv.extbs', '0110010', 'W(<i32><i8>A);', Fm.R1),
  aluR('cv.extbz', '0110011', 'W(A & 0xff);', Fm.R1),
  aluR('cv.clip', '0111000', 'W(clipS(A, imm == 0 ? -1 : -(1 << (imm - 1)), imm == 0 ? 0 : (1 << (imm - 1)) - 1));', Fm.RI5),
  aluR('cv.clipu', '0111001', 'W(clipS(A, 0, imm == 0 ? 0 : (1 << (imm - 1)) - 1));', Fm.RI5),
  aluR('cv.clipr', '0111010', 'const b = B & 0x7fffffff; W(clipS(A, -(b + 1), b));'),
  aluR('cv.clipur', '0111011', 'W(clipS(A, 0, B & 0x7fffffff));'),
  addN('cv.addn', '00', '010', '+', false, false),
  addN('cv.addun', '01', '010', '+', false, true),
  addN('cv.addrn', '10', '010', '+', true, false),
  addN('cv.addurn', '11', '010', '+', true, true),
  addN('cv.subn', '00', '011', '-', false, false),
  addN('cv.subun', '01', '011', '-', false, true),
  addN('cv.subrn', '10', '011', '-', true, false),
  addN('cv.suburn', '11', '011', '-', true, true),
  addNr('cv.addnr', '1000000', '+', false, false),
  addNr('cv.addunr', '1000001', '+', false, true),
  addNr('cv.addrnr', '1000010', '+', true, false),
  addNr('cv.addurnr', '1000011', '+', true, true),
  addNr('cv.subnr', '1000100', '-', false, false),
  addNr('cv.subunr', '1000101', '-', false, true),
  addNr('cv.subrnr', '1000110', '-', true, false),
  addNr('cv.suburnr', '1000111', '-', true, true),
];

// ---------------------------------------------------------------- xcvmac
// 16x16 products of the low (or, "hh", high) halves, signed or unsigned, optionally plus rd,
// plus a rounding constant, shifted right by Is3.
const half = (v: string, hh: boolean, signed: boolean) =>
  hh ? (signed ? `(${v} >> 16)` : `<i32>(<u32>${v} >> 16)`) : (signed ? `<i32><i16>${v}` : `(${v} & 0xffff)`);
const mulN = (id: string, f2: string, f3: string, hh: boolean, signed: boolean, round: boolean, acc: boolean): Row =>
  row(id, 'Xcvmac', `${f2} ----- ----- ----- ${f3} ----- ${CUSTOM2}`, Fm.RRI,
    `W(${signed ? 'sraN' : 'srlN'}(${half('A', hh, signed)} * ${half('B', hh, signed)}${acc ? ' + D' : ''}${round ? ' + rnd(imm)' : ''}, imm));`);

const MAC: Row[] = [
  row('cv.mac', 'Xcvmac', R_PAT('1001000', '011', CUSTOM1), Fm.RD_RW, 'W(D + A * B);'),
  row('cv.msu', 'Xcvmac', R_PAT('1001001', '011', CUSTOM1), Fm.RD_RW, 'W(D - A * B);'),
  mulN('cv.mulsn', '00', '100', false, true, false, false),
  mulN('cv.mulhhsn', '01', '100', true, true, false, false),
  mulN('cv.mulsrn', '10', '100', false, true, true, false),
  mulN('cv.mulhhsrn', '11', '100', true, true, true, false),
  mulN('cv.mulun', '00', '101', false, false, false, false),
  mulN('cv.mulhhun', '01', '101', true, false, false, false),
  mulN('cv.mulurn', '10', '101', false, false, true, false),
  mulN('cv.mulhhurn', '11', '101', true, false, true, false),
  mulN('cv.macsn', '00', '110', false, true, false, true),
  mulN('cv.machhsn', '01', '110', true, true, false, true),
  mulN('cv.macsrn', '10', '110', false, true, true, true),
  mulN('cv.machhsrn', '11', '110', true, true, true, true),
  mulN('cv.macun', '00', '111', false, false, false, true),
  mulN('cv.machhun', '01', '111', true, false, false, true),
  mulN('cv.macurn', '10', '111', false, false, true, true),
  mulN('cv.machhurn', '11', '111', true, false, true, true),
];

// ---------------------------------------------------------------- xcvmem
// Post-increment: the access uses rs1, then rs1 += offset (the loaded value wins if rd == rs1).
interface Width { h: string; mis: string }
// [suffix, reg-imm funct3, reg-reg post-inc funct7, reg-reg funct7, helper]
const LOADS: [string, string, string, string, Width][] = [
  ['lb', '000', '0000000', '0000100', { h: 'LB', mis: 'mis1' }],
  ['lbu', '100', '0001000', '0001100', { h: 'LBU', mis: 'mis1' }],
  ['lh', '001', '0000001', '0000101', { h: 'LH', mis: 'mis2' }],
  ['lhu', '101', '0001001', '0001101', { h: 'LHU', mis: 'mis2' }],
  ['lw', '010', '0000010', '0000110', { h: 'LW', mis: 'mis4' }],
];
const STORES: [string, string, string, string, Width][] = [
  ['sb', '000', '0010000', '0010100', { h: 'SB', mis: 'mis1' }],
  ['sh', '001', '0010001', '0010101', { h: 'SH', mis: 'mis2' }],
  ['sw', '010', '0010010', '0010110', { h: 'SW', mis: 'mis4' }],
];
const ld = (w: Width, ea: string, inc: string) =>
  `const ea: u32 = ${ea}; const v = ${w.h}(ea); CHECK; ${inc}W(v); stall += ${w.mis}(ea); ld = rd;`;
const st = (w: Width, ea: string, inc: string) =>
  `const ea: u32 = ${ea}; ${w.h}(ea, B); CHECK; ${inc}stall += ${w.mis}(ea);`;

const MEM: Row[] = [
  ...LOADS.flatMap(([s, f3, f7inc, f7, w]) => [
    row(`cv.${s}.ri_inc`, 'Xcvmem', `------------ ----- ${f3} ----- ${CUSTOM0}`, Fm.LOAD_PI,
      ld(w, '<u32>A', 'WX(rs1, A + imm); '), { name: `cv.${s}` }),
    row(`cv.${s}.rr_inc`, 'Xcvmem', R_PAT(f7inc, '011', CUSTOM1), Fm.LOAD_RR_PI,
      ld(w, '<u32>A', 'WX(rs1, A + B); '), { name: `cv.${s}` }),
    row(`cv.${s}.rr`, 'Xcvmem', R_PAT(f7, '011', CUSTOM1), Fm.LOAD_RR,
      ld(w, '<u32>(A + B)', ''), { name: `cv.${s}` }),
  ]),
  ...STORES.flatMap(([s, f3, f7inc, f7, w]) => [
    row(`cv.${s}.ri_inc`, 'Xcvmem', `------- ----- ----- ${f3} ----- ${CUSTOM1}`, Fm.STORE_PI,
      st(w, '<u32>A', 'WX(rs1, A + imm); '), { name: `cv.${s}` }),
    row(`cv.${s}.rr_inc`, 'Xcvmem', R_PAT(f7inc, '011', CUSTOM1), Fm.STORE_RR_PI,
      st(w, '<u32>A', 'WX(rs1, A + C); '), { name: `cv.${s}` }),
    row(`cv.${s}.rr`, 'Xcvmem', R_PAT(f7, '011', CUSTOM1), Fm.STORE_RR,
      st(w, '<u32>(A + C)', ''), { name: `cv.${s}` }),
  ]),
];

// ---------------------------------------------------------------- xcvbi
const BI: Row[] = [
  row('cv.beqimm', 'Xcvbi', `------- ----- ----- 110 ----- ${CUSTOM0}`, Fm.BRANCH_IMM,
    'if (A == aux) { pc += imm; stall += 2 + tgt(pc); } else pc += 4;', { jumps: true }),
  row('cv.bneimm', 'Xcvbi', `------- ----- ----- 111 ----- ${CUSTOM0}`, Fm.BRANCH_IMM,
    'if (A != aux) { pc += imm; stall += 2 + tgt(pc); } else pc += 4;', { jumps: true }),
];

// ---------------------------------------------------------------- xcvhwlp
// Two loops (L = 0 inner, 1 outer): start, end (the address just after the last body
// instruction) and count. The run loop compares the next pc with the active loops' ends.
const hw = (id: string, f4: string, fmt: Format, exec: string, wordOffset?: 'imm' | 'aux'): Row => {
  const rs1 = fmt === Fm.HW_I ? '00000' : '-----';
  const imm = fmt === Fm.HW_R ? '000000000000' : '------------';
  return row(id, 'Xcvhwlp', `${imm} ${rs1} 100 ${f4} - ${CUSTOM1}`, fmt, `${exec} HWSYNC;`, wordOffset ? { wordOffset } : {});
};
const HWLP: Row[] = [
  hw('cv.starti', '0000', Fm.HW_I, 'hwSet(S, rs2, HW_START, pc + (<u32>imm << 2));', 'imm'),
  hw('cv.start', '0001', Fm.HW_R, 'hwSet(S, rs2, HW_START, <u32>A & ~3);'),
  hw('cv.endi', '0010', Fm.HW_I, 'hwSet(S, rs2, HW_END, pc + (<u32>imm << 2));', 'imm'),
  hw('cv.end', '0011', Fm.HW_R, 'hwSet(S, rs2, HW_END, <u32>A & ~3);'),
  hw('cv.counti', '0100', Fm.HW_I, 'hwSet(S, rs2, HW_COUNT, <u32>imm);'),
  hw('cv.count', '0101', Fm.HW_R, 'hwSet(S, rs2, HW_COUNT, <u32>A);'),
  hw('cv.setupi', '0110', Fm.HW_SETUPI,
    'hwSet(S, rs2, HW_START, pc + 4); hwSet(S, rs2, HW_END, pc + (<u32>aux << 2)); hwSet(S, rs2, HW_COUNT, <u32>imm);', 'aux'),
  hw('cv.setup', '0111', Fm.HW_SETUP,
    'hwSet(S, rs2, HW_START, pc + 4); hwSet(S, rs2, HW_END, pc + (<u32>imm << 2)); hwSet(S, rs2, HW_COUNT, <u32>A);', 'imm'),
];

// ---------------------------------------------------------------- xcvsimd
// Lanes: .h is two 16-bit lanes, .b four 8-bit lanes; lane 0 is the least significant.
type T = 'h' | 'b';
const W_ = (t: T) => (t === 'h' ? 16 : 8);
const N_ = (t: T) => (t === 'h' ? 2 : 4);
const MASK = (t: T) => (t === 'h' ? '0xffff' : '0xff');

/** Lane i of the i32 value v, sign- or zero-extended. */
export function lane(v: string, t: T, i: number, signed: boolean): string {
  const w = W_(t);
  const top = w * (i + 1) === 32;
  if (signed) return top ? `(${v} >> ${32 - w})` : `((${v} << ${32 - w * (i + 1)}) >> ${32 - w})`;
  if (i === 0) return `(${v} & ${MASK(t)})`;
  return top ? `<i32>(<u32>${v} >> ${32 - w})` : `((${v} >> ${w * i}) & ${MASK(t)})`;
}

/** Packs lane results (any i32, truncated here) into a word. */
export function pack(t: T, parts: string[]): string {
  const w = W_(t);
  return parts.map((p, i) => (i === parts.length - 1 ? `(${p}) << ${w * i}` : `((${p}) & ${MASK(t)})${i ? ` << ${w * i}` : ''}`))
    .map((s) => `(${s})`).join(' | ');
}

type Mode = 'vv' | 'sc' | 'sci';
const MODE_F3: Record<T, Record<Mode, string>> = { h: { vv: '000', sc: '100', sci: '110' }, b: { vv: '001', sc: '101', sci: '111' } };

interface LaneOp {
  op: string; f5: string; F: string;
  /** x (rs1 lanes) and y (second operand lanes) signedness. */
  xs: boolean; ys: boolean;
  /** Lane result from lane values x and y. */
  f: (x: string, y: string, t: T) => string;
  /** Unsigned immediate in the .sci form. */
  uimm?: boolean;
}

/** The exec of a lane-wise op in one mode: temporaries per lane, then one write. */
function laneExec(o: LaneOp, t: T, mode: Mode): string {
  const n = N_(t);
  const decl: string[] = [];
  if (mode === 'sc') decl.push(`const y = ${lane('B', t, 0, o.ys)};`);
  if (mode === 'sci') decl.push('const y = imm;');
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    decl.push(`const x${i} = ${lane('A', t, i, o.xs)};`);
    const y = mode === 'vv' ? `y${i}` : 'y';
    if (mode === 'vv') decl.push(`const y${i} = ${lane('B', t, i, o.ys)};`);
    parts.push(o.f(`x${i}`, y, t));
  }
  return `${decl.join(' ')} W(${pack(t, parts)});`;
}

function simdRow(id: string, f5: string, F: string, f1: string, f3: string, fmt: Format, exec: string): Row {
  // f1 '' marks the immediate forms, whose bit 25 is Imm6[0].
  const rs2 = fmt === Fm.R1 ? '00000' : '-----';
  return row(id, 'Xcvsimd', `${f5} ${F} ${f1 === '' ? '-' : f1} ${rs2} ----- ${f3} ----- ${CUSTOM3}`, fmt, exec);
}

/** The six forms (.h .b .sc.h .sc.b .sci.h .sci.b) of a lane-wise op. */
function sixForms(o: LaneOp, exec: (t: T, mode: Mode) => string, rw = false): Row[] {
  const out: Row[] = [];
  for (const [mode, sfx] of [['vv', ''], ['sc', '.sc'], ['sci', '.sci']] as [Mode, string][]) {
    for (const t of ['h', 'b'] as T[]) {
      const fmt = mode === 'sci' ? (o.uimm ? Fm.SIMD_SCIU : Fm.SIMD_SCI) : (rw ? Fm.RD_RW : Fm.R);
      out.push(simdRow(`cv.${o.op}${sfx}.${t}`, o.f5, o.F, mode === 'sci' ? '' : '0', MODE_F3[t][mode], fmt, exec(t, mode)));
    }
  }
  return out;
}

const lanewise = (o: LaneOp) => sixForms(o, (t, m) => laneExec(o, t, m));

/** or/xor/and: whole-word operations; .sc/.sci replicate the scalar into every lane. */
const bitwise = (op: string, f5: string, sym: string) => sixForms(
  { op, f5, F: '0', xs: false, ys: false, f: () => '' },
  (t, m) => {
    const rep = t === 'h' ? '0x10001' : '0x1010101';
    if (m === 'vv') return `W(A ${sym} B);`;
    return `W(A ${sym} ((${m === 'sc' ? 'B' : 'imm'} & ${MASK(t)}) * ${rep}));`;
  });

/** Dot products: sum of lane products (rs1 lanes unsigned for *up and *usp), plus rd for sdot*. */
function dot(op: string, f5: string, xs: boolean, ys: boolean, acc: boolean): Row[] {
  const o: LaneOp = { op, f5, F: '0', xs, ys, f: () => '', uimm: !ys };
  return sixForms(o, (t, mode) => {
    const n = N_(t);
    const terms: string[] = [];
    const decl: string[] = [];
    if (mode === 'sc') decl.push(`const y = ${lane('B', t, 0, ys)};`);
    if (mode === 'sci') decl.push('const y = imm;');
    for (let i = 0; i < n; i++) terms.push(`${lane('A', t, i, xs)} * ${mode === 'vv' ? lane('B', t, i, ys) : 'y'}`);
    return `${decl.join(' ')} W(${acc ? 'D + ' : ''}${terms.join(' + ')});`;
  }, acc);
}

const shiftOp = (op: string, f5: string, xs: boolean, f: (x: string, s: string) => string): Row[] =>
  lanewise({ op, f5, F: '0', xs, ys: false, uimm: true, f: (x, y, t) => f(x, `(${y} & ${W_(t) - 1})`) });

const cmp = (op: string, f5: string, signed: boolean, sym: string): Row[] =>
  lanewise({ op, f5, F: '1', xs: signed, ys: signed, uimm: !signed, f: (x, y) => `-<i32>(${x} ${sym} ${y})` });

// Complex numbers: lane 0 real, lane 1 imaginary, 16-bit signed.
const DIV_F3: [string, string, number][] = [['', '000', 0], ['.div2', '010', 1], ['.div4', '100', 2], ['.div8', '110', 3]];
const re = (v: string) => lane(v, 'h', 0, true);
const im = (v: string) => lane(v, 'h', 1, true);

const SIMD: Row[] = [
  ...lanewise({ op: 'add', f5: '00000', F: '0', xs: true, ys: true, f: (x, y) => `${x} + ${y}` }),
  ...lanewise({ op: 'sub', f5: '00001', F: '0', xs: true, ys: true, f: (x, y) => `${x} - ${y}` }),
  ...lanewise({ op: 'avg', f5: '00010', F: '0', xs: true, ys: true, f: (x, y, t) => `((${x} + ${y}) << ${32 - W_(t)}) >> ${33 - W_(t)}` }),
  ...lanewise({ op: 'avgu', f5: '00011', F: '0', xs: false, ys: false, uimm: true, f: (x, y, t) => `((${x} + ${y}) & ${MASK(t)}) >> 1` }),
  ...lanewise({ op: 'min', f5: '00100', F: '0', xs: true, ys: true, f: (x, y) => `min<i32>(${x}, ${y})` }),
  ...lanewise({ op: 'minu', f5: '00101', F: '0', xs: false, ys: false, uimm: true, f: (x, y) => `min<i32>(${x}, ${y})` }),
  ...lanewise({ op: 'max', f5: '00110', F: '0', xs: true, ys: true, f: (x, y) => `max<i32>(${x}, ${y})` }),
  ...lanewise({ op: 'maxu', f5: '00111', F: '0', xs: false, ys: false, uimm: true, f: (x, y) => `max<i32>(${x}, ${y})` }),
  ...shiftOp('srl', '01000', false, (x, s) => `${x} >> ${s}`),
  ...shiftOp('sra', '01001', true, (x, s) => `${x} >> ${s}`),
  ...shiftOp('sll', '01010', false, (x, s) => `${x} << ${s}`),
  ...bitwise('or', '01011', '|'),
  ...bitwise('xor', '01100', '^'),
  ...bitwise('and', '01101', '&'),
  ...(['h', 'b'] as T[]).map((t) => simdRow(`cv.abs.${t}`, '01110', '0', '0', t === 'h' ? '000' : '001', Fm.R1,
    laneExec({ op: 'abs', f5: '', F: '', xs: true, ys: true, f: (x) => `${x} < 0 ? -${x} : ${x}` }, t, 'vv').replace(/const y\d = [^;]*; /g, ''))),
  ...dot('dotup', '10000', false, false, false),
  ...dot('dotusp', '10001', false, true, false),
  ...dot('dotsp', '10010', true, true, false),
  ...dot('sdotup', '10011', false, false, true),
  ...dot('sdotusp', '10100', false, true, true),
  ...dot('sdotsp', '10101', true, true, true),
  // Element extract / insert: lane index from Imm6 (1 bit for .h, 2 for .b).
  simdRow('cv.extract.h', '10111', '0', '', '000', Fm.SIMD_SCIU, 'W(((A << (16 - ((imm & 1) << 4))) >> 16));'),
  simdRow('cv.extract.b', '10111', '0', '', '001', Fm.SIMD_SCIU, 'W(((A << (24 - ((imm & 3) << 3))) >> 24));'),
  simdRow('cv.extractu.h', '10111', '0', '', '010', Fm.SIMD_SCIU, 'W(<i32>(<u32>A >> ((imm & 1) << 4)) & 0xffff);'),
  simdRow('cv.extractu.b', '10111', '0', '', '011', Fm.SIMD_SCIU, 'W(<i32>(<u32>A >> ((imm & 3) << 3)) & 0xff);'),
  simdRow('cv.insert.h', '10111', '0', '', '100', Fm.SIMD_SCIU,
    'const s = (imm & 1) << 4; W((D & ~(0xffff << s)) | ((A & 0xffff) << s));'),
  simdRow('cv.insert.b', '10111', '0', '', '101', Fm.SIMD_SCIU,
    'const s = (imm & 3) << 3; W((D & ~(0xff << s)) | ((A & 0xff) << s));'),
  // Shuffles: each result lane picks a lane of rs1 (shuffle2: of rs1 or the old rd).
  simdRow('cv.shuffle.h', '11000', '0', '0', '000', Fm.R,
    `W(${pack('h', ['pickH(A, B)', 'pickH(A, B >> 16)'])});`),
  simdRow('cv.shuffle.b', '11000', '0', '0', '001', Fm.R,
    `W(${pack('b', ['pickB(A, B)', 'pickB(A, B >> 8)', 'pickB(A, B >> 16)', 'pickB(A, B >> 24)'])});`),
  simdRow('cv.shuffle.sci.h', '11000', '0', '', '110', Fm.SIMD_SCIU,
    `W(${pack('h', ['pickH(A, imm)', 'pickH(A, imm >> 1)'])});`),
  ...['11000', '11001', '11010', '11011'].map((f5, k) => simdRow(`cv.shufflei${k}.sci.b`, f5, '0', '', '111', Fm.SIMD_SCIU,
    `W(${pack('b', ['pickB(A, imm)', 'pickB(A, imm >> 2)', 'pickB(A, imm >> 4)', `pickB(A, ${k})`])});`)),
  simdRow('cv.shuffle2.h', '11100', '0', '0', '000', Fm.RD_RW,
    `W(${pack('h', ['pickH((B & 2) ? A : D, B)', 'pickH((B & 0x20000) ? A : D, B >> 16)'])});`),
  simdRow('cv.shuffle2.b', '11100', '0', '0', '001', Fm.RD_RW,
    `W(${pack('b', [0, 1, 2, 3].map((i) => `pickB((B & ${4 << (8 * i)}) ? A : D, B >> ${8 * i})`))});`),
  simdRow('cv.pack', '11110', '0', '0', '000', Fm.R, 'W((A << 16) | (B & 0xffff));'),
  simdRow('cv.pack.h', '11110', '0', '1', '000', Fm.R, 'W((A & 0xffff0000) | <i32>(<u32>B >> 16));'),
  simdRow('cv.packhi.b', '11111', '0', '1', '001', Fm.RD_RW, 'W((D & 0xffff) | ((A & 0xff) << 24) | ((B & 0xff) << 16));'),
  simdRow('cv.packlo.b', '11111', '0', '0', '001', Fm.RD_RW, 'W((D & 0xffff0000) | ((A & 0xff) << 8) | (B & 0xff));'),
  ...cmp('cmpeq', '00000', true, '=='),
  ...cmp('cmpne', '00001', true, '!='),
  ...cmp('cmpgt', '00010', true, '>'),
  ...cmp('cmpge', '00011', true, '>='),
  ...cmp('cmplt', '00100', true, '<'),
  ...cmp('cmple', '00101', true, '<='),
  ...cmp('cmpgtu', '00110', false, '>'),
  ...cmp('cmpgeu', '00111', false, '>='),
  ...cmp('cmpltu', '01000', false, '<'),
  ...cmp('cmpleu', '01001', false, '<='),
  ...DIV_F3.flatMap(([sfx, f3, k]) => [
    simdRow(`cv.cplxmul.r${sfx}`, '01010', '1', '0', f3, Fm.RD_RW,
      `W((D & 0xffff0000) | (((${re('A')} * ${re('B')} - ${im('A')} * ${im('B')}) >> ${15 + k}) & 0xffff));`),
    simdRow(`cv.cplxmul.i${sfx}`, '01010', '1', '1', f3, Fm.RD_RW,
      `W((D & 0xffff) | (((${re('A')} * ${im('B')} + ${im('A')} * ${re('B')}) >> ${15 + k}) << 16));`),
  ]),
  simdRow('cv.cplxconj', '01011', '1', '0', '000', Fm.R1, `W(${pack('h', [re('A'), `-${im('A')}`])});`),
  ...DIV_F3.map(([sfx, f3, k]) => simdRow(`cv.subrotmj${sfx}`, '01100', '1', '0', f3, Fm.R,
    `W(${pack('h', [`(((${im('A')} - ${im('B')}) << 16) >> ${16 + k})`, `(((${re('B')} - ${re('A')}) << 16) >> ${16 + k})`])});`)),
  ...DIV_F3.slice(1).map(([sfx, f3, k]) => simdRow(`cv.add${sfx}`, '01101', '1', '0', f3, Fm.R,
    `W(${pack('h', [`(((${re('A')} + ${re('B')}) << 16) >> ${16 + k})`, `(((${im('A')} + ${im('B')}) << 16) >> ${16 + k})`])});`)),
  ...DIV_F3.slice(1).map(([sfx, f3, k]) => simdRow(`cv.sub${sfx}`, '01110', '1', '0', f3, Fm.R,
    `W(${pack('h', [`(((${re('A')} - ${re('B')}) << 16) >> ${16 + k})`, `(((${im('A')} - ${im('B')}) << 16) >> ${16 + k})`])});`)),
];

export const XCV: Row[] = [...BITMANIP, ...ALU, ...MAC, ...MEM, ...BI, ...HWLP, ...SIMD];
