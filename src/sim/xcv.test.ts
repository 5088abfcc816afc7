// Per-instruction tests of every CORE-V instruction on the wasm core. The expected values are
// literals worked out from the CV32E40P manual's formulas (see the comments per group), not
// from the simulator. Common operands: A = 0x807f02fe (bytes -2, 2, 127, -128; halves 766,
// -32641), B = 0xff01fd03 (bytes 3, -3, 1, -1; halves -765, -255), D (old rd) = 0x12345678;
// .sci immediates -3 (signed ops) and 5 (unsigned ops).
import { beforeAll, describe, expect, it } from 'vitest';
import { encode } from './isa/encode';
import { TABLE } from './isa/table';
import type { Machine } from './machine';
import { nodeMachine } from './node';
import { CODE, DATA, RD, RS1, RS2, RS3, TCDM, exec1, runWords } from './testing/harness';

let m: Machine;
beforeAll(async () => { m = await nodeMachine(); });

type Case = [id: string, a: number, b: number, want: number, opts: { imm?: number; aux?: number; d?: number }];

// Bit manipulation, general ALU and multiply-accumulate.
const SCALAR: Case[] = [
  ['cv.extract', 0x807f02fe, 0x00000000, 0xffffff80, { imm: 24, aux: 7 }],
  ['cv.extract', 0x807f02fe, 0x00000000, 0xffffff80, { imm: 24, aux: 15 }],
  ['cv.extract', 0x807f02fe, 0x00000000, 0x0000002f, { imm: 4, aux: 7 }],
  ['cv.extractu', 0x807f02fe, 0x00000000, 0x00000080, { imm: 24, aux: 7 }],
  ['cv.insert', 0x807f02fe, 0x00000000, 0x1234fe78, { imm: 8, aux: 7, d: 0x12345678 }],
  ['cv.bclr', 0x807f02fe, 0x00000000, 0x807f00fe, { imm: 8, aux: 3 }],
  ['cv.bset', 0x807f02fe, 0x00000000, 0x807f0ffe, { imm: 8, aux: 3 }],
  ['cv.bitrev', 0xc64a5933, 0x00000000, 0x0cc9a526, { imm: 4, aux: 0 }],
  ['cv.bitrev', 0xc64a5933, 0x00000000, 0x0cc65a19, { imm: 4, aux: 1 }],
  ['cv.bitrev', 0xc64a5933, 0x00000000, 0x216b244b, { imm: 4, aux: 2 }],
  ['cv.bitrev', 0xc64a5933, 0x00000000, 0x0cc9a526, { imm: 4, aux: 3 }],
  ['cv.extractr', 0x807f02fe, 0x000000f8, 0xffffff80, {  }],
  ['cv.extractur', 0x807f02fe, 0x000000f8, 0x00000080, {  }],
  ['cv.insertr', 0x807f02fe, 0x000000e8, 0x1234fe78, { d: 0x12345678 }],
  ['cv.bclrr', 0x807f02fe, 0x00000068, 0x807f00fe, {  }],
  ['cv.bsetr', 0x807f02fe, 0x00000068, 0x807f0ffe, {  }],
  ['cv.ror', 0x807f02fe, 0x00000028, 0xfe807f02, {  }],
  ['cv.ff1', 0x807f02fe, 0x00000000, 0x00000001, {  }],
  ['cv.ff1', 0x00000000, 0x00000000, 0x00000020, {  }],
  ['cv.fl1', 0x807f02fe, 0x00000000, 0x0000001f, {  }],
  ['cv.fl1', 0x00010000, 0x00000000, 0x00000010, {  }],
  ['cv.fl1', 0x00000000, 0x00000000, 0x00000020, {  }],
  ['cv.clb', 0x807f02fe, 0x00000000, 0x00000000, {  }],
  ['cv.clb', 0x0000ffff, 0x00000000, 0x0000000f, {  }],
  ['cv.clb', 0xffff0000, 0x00000000, 0x0000000f, {  }],
  ['cv.clb', 0x00000000, 0x00000000, 0x00000000, {  }],
  ['cv.cnt', 0x807f02fe, 0x00000000, 0x00000010, {  }],
  ['cv.abs', 0xfffffffb, 0x00000000, 0x00000005, {  }],
  ['cv.abs', 0x80000000, 0x00000000, 0x80000000, {  }],
  ['cv.sle', 0xffffffff, 0x00000000, 0x00000001, {  }],
  ['cv.sle', 0x00000003, 0x00000003, 0x00000001, {  }],
  ['cv.sle', 0x00000004, 0x00000003, 0x00000000, {  }],
  ['cv.sleu', 0xffffffff, 0x00000000, 0x00000000, {  }],
  ['cv.sleu', 0x00000003, 0x00000003, 0x00000001, {  }],
  ['cv.min', 0xffffffff, 0x00000001, 0xffffffff, {  }],
  ['cv.minu', 0xffffffff, 0x00000001, 0x00000001, {  }],
  ['cv.max', 0xffffffff, 0x00000001, 0x00000001, {  }],
  ['cv.maxu', 0xffffffff, 0x00000001, 0xffffffff, {  }],
  ['cv.exths', 0x12348765, 0x00000000, 0xffff8765, {  }],
  ['cv.exthz', 0x12348765, 0x00000000, 0x00008765, {  }],
  ['cv.extbs', 0x12345685, 0x00000000, 0xffffff85, {  }],
  ['cv.extbz', 0x12345685, 0x00000000, 0x00000085, {  }],
  ['cv.clip', 0x0000012c, 0x00000000, 0x000000ff, { imm: 9 }],
  ['cv.clipu', 0x0000012c, 0x00000000, 0x000000ff, { imm: 9 }],
  ['cv.clipr', 0x0000012c, 0x000000ff, 0x000000ff, {  }],
  ['cv.clipur', 0x0000012c, 0x000000ff, 0x000000ff, {  }],
  ['cv.clip', 0xfffffed4, 0x00000000, 0xffffff00, { imm: 9 }],
  ['cv.clipu', 0xfffffed4, 0x00000000, 0x00000000, { imm: 9 }],
  ['cv.clipr', 0xfffffed4, 0x000000ff, 0xffffff00, {  }],
  ['cv.clipur', 0xfffffed4, 0x000000ff, 0x00000000, {  }],
  ['cv.clip', 0x00000005, 0x00000000, 0x00000005, { imm: 9 }],
  ['cv.clipu', 0x00000005, 0x00000000, 0x00000005, { imm: 9 }],
  ['cv.clipr', 0x00000005, 0x000000ff, 0x00000005, {  }],
  ['cv.clipur', 0x00000005, 0x000000ff, 0x00000005, {  }],
  ['cv.clip', 0x00000005, 0x00000000, 0x00000000, { imm: 0 }],
  ['cv.clip', 0xfffffffb, 0x00000000, 0xffffffff, { imm: 0 }],
  ['cv.clipr', 0x00000005, 0x80000003, 0x00000003, {  }],
  ['cv.addn', 0x00000007, 0x00000008, 0x00000003, { imm: 2 }],
  ['cv.addn', 0xfffffff9, 0xfffffff8, 0xfffffffc, { imm: 2 }],
  ['cv.addun', 0x80000000, 0x00000018, 0x08000001, { imm: 4 }],
  ['cv.addrn', 0x00000007, 0x00000008, 0x00000004, { imm: 2 }],
  ['cv.addrn', 0xfffffff9, 0xfffffff8, 0xfffffffc, { imm: 2 }],
  ['cv.addurn', 0x80000000, 0x00000018, 0x08000002, { imm: 4 }],
  ['cv.subn', 0x00000007, 0x00000008, 0xffffffff, { imm: 1 }],
  ['cv.subun', 0x00000007, 0x00000008, 0x7fffffff, { imm: 1 }],
  ['cv.subrn', 0x00000014, 0x00000007, 0x00000003, { imm: 2 }],
  ['cv.suburn', 0x00000007, 0x00000008, 0x00000000, { imm: 1 }],
  ['cv.addnr', 0x00000024, 0x00000003, 0xfffffff8, { d: 0xffffff9c }],
  ['cv.addunr', 0x00000024, 0x00000003, 0x1ffffff8, { d: 0xffffff9c }],
  ['cv.addrnr', 0x00000023, 0x00000003, 0xfffffff8, { d: 0xffffff9c }],
  ['cv.addurnr', 0x00000023, 0x00000003, 0x00000011, { d: 0x00000064 }],
  ['cv.subnr', 0x000000a4, 0x00000003, 0xfffffff8, { d: 0x00000064 }],
  ['cv.subunr', 0x000000a4, 0x00000003, 0x1ffffff8, { d: 0x00000064 }],
  ['cv.subrnr', 0x000000a5, 0x00000003, 0xfffffff8, { d: 0x00000064 }],
  ['cv.suburnr', 0x00000041, 0x00000003, 0x00000011, { d: 0x000000c8 }],
  ['cv.mac', 0xfffffffd, 0x00000007, 0xfffffff5, { d: 0x0000000a }],
  ['cv.msu', 0xfffffffd, 0x00000007, 0x0000001f, { d: 0x0000000a }],
  ['cv.mulsn', 0x807f02fe, 0xff01fd03, 0xfff70efa, { imm: 0 }],
  ['cv.mulsn', 0x807f02fe, 0xff01fd03, 0xfffee1df, { imm: 3 }],
  ['cv.mulhhsn', 0x807f02fe, 0xff01fd03, 0x007f017f, { imm: 0 }],
  ['cv.mulhhsn', 0x807f02fe, 0xff01fd03, 0x000fe02f, { imm: 3 }],
  ['cv.mulsrn', 0x807f02fe, 0xff01fd03, 0xfff70efa, { imm: 0 }],
  ['cv.mulsrn', 0x807f02fe, 0xff01fd03, 0xfffee1df, { imm: 3 }],
  ['cv.mulhhsrn', 0x807f02fe, 0xff01fd03, 0x007f017f, { imm: 0 }],
  ['cv.mulhhsrn', 0x807f02fe, 0xff01fd03, 0x000fe030, { imm: 3 }],
  ['cv.mulun', 0x807f02fe, 0xff01fd03, 0x02f50efa, { imm: 0 }],
  ['cv.mulun', 0x807f02fe, 0xff01fd03, 0x005ea1df, { imm: 3 }],
  ['cv.mulhhun', 0x807f02fe, 0xff01fd03, 0x7fff017f, { imm: 0 }],
  ['cv.mulhhun', 0x807f02fe, 0xff01fd03, 0x0fffe02f, { imm: 3 }],
  ['cv.mulurn', 0x807f02fe, 0xff01fd03, 0x02f50efa, { imm: 0 }],
  ['cv.mulurn', 0x807f02fe, 0xff01fd03, 0x005ea1df, { imm: 3 }],
  ['cv.mulhhurn', 0x807f02fe, 0xff01fd03, 0x7fff017f, { imm: 0 }],
  ['cv.mulhhurn', 0x807f02fe, 0xff01fd03, 0x0fffe030, { imm: 3 }],
  ['cv.macsn', 0x807f02fe, 0xff01fd03, 0x122b6572, { imm: 0, d: 0x12345678 }],
  ['cv.macsn', 0x807f02fe, 0xff01fd03, 0x02456cae, { imm: 3, d: 0x12345678 }],
  ['cv.machhsn', 0x807f02fe, 0xff01fd03, 0x12b357f7, { imm: 0, d: 0x12345678 }],
  ['cv.machhsn', 0x807f02fe, 0xff01fd03, 0x02566afe, { imm: 3, d: 0x12345678 }],
  ['cv.macsrn', 0x807f02fe, 0xff01fd03, 0x122b6572, { imm: 0, d: 0x12345678 }],
  ['cv.macsrn', 0x807f02fe, 0xff01fd03, 0x02456cae, { imm: 3, d: 0x12345678 }],
  ['cv.machhsrn', 0x807f02fe, 0xff01fd03, 0x12b357f7, { imm: 0, d: 0x12345678 }],
  ['cv.machhsrn', 0x807f02fe, 0xff01fd03, 0x02566aff, { imm: 3, d: 0x12345678 }],
  ['cv.macun', 0x807f02fe, 0xff01fd03, 0x15296572, { imm: 0, d: 0x12345678 }],
  ['cv.macun', 0x807f02fe, 0xff01fd03, 0x02a52cae, { imm: 3, d: 0x12345678 }],
  ['cv.machhun', 0x807f02fe, 0xff01fd03, 0x923357f7, { imm: 0, d: 0x12345678 }],
  ['cv.machhun', 0x807f02fe, 0xff01fd03, 0x12466afe, { imm: 3, d: 0x12345678 }],
  ['cv.macurn', 0x807f02fe, 0xff01fd03, 0x15296572, { imm: 0, d: 0x12345678 }],
  ['cv.macurn', 0x807f02fe, 0xff01fd03, 0x02a52cae, { imm: 3, d: 0x12345678 }],
  ['cv.machhurn', 0x807f02fe, 0xff01fd03, 0x923357f7, { imm: 0, d: 0x12345678 }],
  ['cv.machhurn', 0x807f02fe, 0xff01fd03, 0x12466aff, { imm: 3, d: 0x12345678 }],
];

// Packed SIMD: lane-wise ops in their .h/.b, .sc and .sci forms, dot products, comparisons,
// element extract/insert, shuffles, packs and the complex-number ops.
const SIMD: Case[] = [
  ['cv.add.h', 0x807f02fe, 0xff01fd03, 0x7f800001, {  }],
  ['cv.add.sc.h', 0x807f02fe, 0xff01fd03, 0x7d820001, {  }],
  ['cv.add.sci.h', 0x807f02fe, 0x00000000, 0x807c02fb, { imm: -3 }],
  ['cv.add.b', 0x807f02fe, 0xff01fd03, 0x7f80ff01, {  }],
  ['cv.add.sc.b', 0x807f02fe, 0xff01fd03, 0x83820501, {  }],
  ['cv.add.sci.b', 0x807f02fe, 0x00000000, 0x7d7cfffb, { imm: -3 }],
  ['cv.sub.h', 0x807f02fe, 0xff01fd03, 0x817e05fb, {  }],
  ['cv.sub.sc.h', 0x807f02fe, 0xff01fd03, 0x837c05fb, {  }],
  ['cv.sub.sci.h', 0x807f02fe, 0x00000000, 0x80820301, { imm: -3 }],
  ['cv.sub.b', 0x807f02fe, 0xff01fd03, 0x817e05fb, {  }],
  ['cv.sub.sc.b', 0x807f02fe, 0xff01fd03, 0x7d7cfffb, {  }],
  ['cv.sub.sci.b', 0x807f02fe, 0x00000000, 0x83820501, { imm: -3 }],
  ['cv.avg.h', 0x807f02fe, 0xff01fd03, 0x3fc00000, {  }],
  ['cv.avg.sc.h', 0x807f02fe, 0xff01fd03, 0x3ec10000, {  }],
  ['cv.avg.sci.h', 0x807f02fe, 0x00000000, 0xc03e017d, { imm: -3 }],
  ['cv.avg.b', 0x807f02fe, 0xff01fd03, 0x3fc0ff00, {  }],
  ['cv.avg.sc.b', 0x807f02fe, 0xff01fd03, 0xc1c10200, {  }],
  ['cv.avg.sci.b', 0x807f02fe, 0x00000000, 0x3e3efffd, { imm: -3 }],
  ['cv.avgu.h', 0x807f02fe, 0xff01fd03, 0x3fc00000, {  }],
  ['cv.avgu.sc.h', 0x807f02fe, 0xff01fd03, 0x3ec10000, {  }],
  ['cv.avgu.sci.h', 0x807f02fe, 0x00000000, 0x40420181, { imm: 5 }],
  ['cv.avgu.b', 0x807f02fe, 0xff01fd03, 0x3f407f00, {  }],
  ['cv.avgu.sc.b', 0x807f02fe, 0xff01fd03, 0x41410200, {  }],
  ['cv.avgu.sci.b', 0x807f02fe, 0x00000000, 0x42420301, { imm: 5 }],
  ['cv.min.h', 0x807f02fe, 0xff01fd03, 0x807ffd03, {  }],
  ['cv.min.sc.h', 0x807f02fe, 0xff01fd03, 0x807ffd03, {  }],
  ['cv.min.sci.h', 0x807f02fe, 0x00000000, 0x807ffffd, { imm: -3 }],
  ['cv.min.b', 0x807f02fe, 0xff01fd03, 0x8001fdfe, {  }],
  ['cv.min.sc.b', 0x807f02fe, 0xff01fd03, 0x800302fe, {  }],
  ['cv.min.sci.b', 0x807f02fe, 0x00000000, 0x80fdfdfd, { imm: -3 }],
  ['cv.minu.h', 0x807f02fe, 0xff01fd03, 0x807f02fe, {  }],
  ['cv.minu.sc.h', 0x807f02fe, 0xff01fd03, 0x807f02fe, {  }],
  ['cv.minu.sci.h', 0x807f02fe, 0x00000000, 0x00050005, { imm: 5 }],
  ['cv.minu.b', 0x807f02fe, 0xff01fd03, 0x80010203, {  }],
  ['cv.minu.sc.b', 0x807f02fe, 0xff01fd03, 0x03030203, {  }],
  ['cv.minu.sci.b', 0x807f02fe, 0x00000000, 0x05050205, { imm: 5 }],
  ['cv.max.h', 0x807f02fe, 0xff01fd03, 0xff0102fe, {  }],
  ['cv.max.sc.h', 0x807f02fe, 0xff01fd03, 0xfd0302fe, {  }],
  ['cv.max.sci.h', 0x807f02fe, 0x00000000, 0xfffd02fe, { imm: -3 }],
  ['cv.max.b', 0x807f02fe, 0xff01fd03, 0xff7f0203, {  }],
  ['cv.max.sc.b', 0x807f02fe, 0xff01fd03, 0x037f0303, {  }],
  ['cv.max.sci.b', 0x807f02fe, 0x00000000, 0xfd7f02fe, { imm: -3 }],
  ['cv.maxu.h', 0x807f02fe, 0xff01fd03, 0xff01fd03, {  }],
  ['cv.maxu.sc.h', 0x807f02fe, 0xff01fd03, 0xfd03fd03, {  }],
  ['cv.maxu.sci.h', 0x807f02fe, 0x00000000, 0x807f02fe, { imm: 5 }],
  ['cv.maxu.b', 0x807f02fe, 0xff01fd03, 0xff7ffdfe, {  }],
  ['cv.maxu.sc.b', 0x807f02fe, 0xff01fd03, 0x807f03fe, {  }],
  ['cv.maxu.sci.b', 0x807f02fe, 0x00000000, 0x807f05fe, { imm: 5 }],
  ['cv.srl.h', 0x807f02fe, 0xff01fd03, 0x403f005f, {  }],
  ['cv.srl.sc.h', 0x807f02fe, 0xff01fd03, 0x100f005f, {  }],
  ['cv.srl.sci.h', 0x807f02fe, 0x00000000, 0x04030017, { imm: 5 }],
  ['cv.srl.b', 0x807f02fe, 0xff01fd03, 0x013f001f, {  }],
  ['cv.srl.sc.b', 0x807f02fe, 0xff01fd03, 0x100f001f, {  }],
  ['cv.srl.sci.b', 0x807f02fe, 0x00000000, 0x04030007, { imm: 5 }],
  ['cv.sra.h', 0x807f02fe, 0xff01fd03, 0xc03f005f, {  }],
  ['cv.sra.sc.h', 0x807f02fe, 0xff01fd03, 0xf00f005f, {  }],
  ['cv.sra.sci.h', 0x807f02fe, 0x00000000, 0xfc030017, { imm: 5 }],
  ['cv.sra.b', 0x807f02fe, 0xff01fd03, 0xff3f00ff, {  }],
  ['cv.sra.sc.b', 0x807f02fe, 0xff01fd03, 0xf00f00ff, {  }],
  ['cv.sra.sci.b', 0x807f02fe, 0x00000000, 0xfc0300ff, { imm: 5 }],
  ['cv.sll.h', 0x807f02fe, 0xff01fd03, 0x00fe17f0, {  }],
  ['cv.sll.sc.h', 0x807f02fe, 0xff01fd03, 0x03f817f0, {  }],
  ['cv.sll.sci.h', 0x807f02fe, 0x00000000, 0x0fe05fc0, { imm: 5 }],
  ['cv.sll.b', 0x807f02fe, 0xff01fd03, 0x00fe40f0, {  }],
  ['cv.sll.sc.b', 0x807f02fe, 0xff01fd03, 0x00f810f0, {  }],
  ['cv.sll.sci.b', 0x807f02fe, 0x00000000, 0x00e040c0, { imm: 5 }],
  ['cv.or.h', 0x807f02fe, 0xff01fd03, 0xff7fffff, {  }],
  ['cv.or.sc.h', 0x807f02fe, 0xff01fd03, 0xfd7fffff, {  }],
  ['cv.or.sci.h', 0x807f02fe, 0x00000000, 0xffffffff, { imm: -3 }],
  ['cv.or.b', 0x807f02fe, 0xff01fd03, 0xff7fffff, {  }],
  ['cv.or.sc.b', 0x807f02fe, 0xff01fd03, 0x837f03ff, {  }],
  ['cv.or.sci.b', 0x807f02fe, 0x00000000, 0xfdffffff, { imm: -3 }],
  ['cv.xor.h', 0x807f02fe, 0xff01fd03, 0x7f7efffd, {  }],
  ['cv.xor.sc.h', 0x807f02fe, 0xff01fd03, 0x7d7cfffd, {  }],
  ['cv.xor.sci.h', 0x807f02fe, 0x00000000, 0x7f82fd03, { imm: -3 }],
  ['cv.xor.b', 0x807f02fe, 0xff01fd03, 0x7f7efffd, {  }],
  ['cv.xor.sc.b', 0x807f02fe, 0xff01fd03, 0x837c01fd, {  }],
  ['cv.xor.sci.b', 0x807f02fe, 0x00000000, 0x7d82ff03, { imm: -3 }],
  ['cv.and.h', 0x807f02fe, 0xff01fd03, 0x80010002, {  }],
  ['cv.and.sc.h', 0x807f02fe, 0xff01fd03, 0x80030002, {  }],
  ['cv.and.sci.h', 0x807f02fe, 0x00000000, 0x807d02fc, { imm: -3 }],
  ['cv.and.b', 0x807f02fe, 0xff01fd03, 0x80010002, {  }],
  ['cv.and.sc.b', 0x807f02fe, 0xff01fd03, 0x00030202, {  }],
  ['cv.and.sci.b', 0x807f02fe, 0x00000000, 0x807d00fc, { imm: -3 }],
  ['cv.abs.h', 0x807f02fe, 0x00000000, 0x7f8102fe, {  }],
  ['cv.abs.b', 0x807f02fe, 0x00000000, 0x807f0202, {  }],
  ['cv.dotup.h', 0x807f02fe, 0xff01fd03, 0x82f41079, {  }],
  ['cv.dotup.sc.h', 0x807f02fe, 0xff01fd03, 0x81f41377, {  }],
  ['cv.dotup.sci.h', 0x807f02fe, 0x00000000, 0x00029171, { imm: 5 }],
  ['cv.dotup.b', 0x807f02fe, 0xff01fd03, 0x000084f3, {  }],
  ['cv.dotup.sc.b', 0x807f02fe, 0xff01fd03, 0x000005fd, {  }],
  ['cv.dotup.sci.b', 0x807f02fe, 0x00000000, 0x000009fb, { imm: 5 }],
  ['cv.dotusp.h', 0x807f02fe, 0xff01fd03, 0xff771079, {  }],
  ['cv.dotusp.sc.h', 0x807f02fe, 0xff01fd03, 0xfe771377, {  }],
  ['cv.dotusp.sci.h', 0x807f02fe, 0x00000000, 0xfffe7589, { imm: -3 }],
  ['cv.dotusp.b', 0x807f02fe, 0xff01fd03, 0x000002f3, {  }],
  ['cv.dotusp.sc.b', 0x807f02fe, 0xff01fd03, 0x000005fd, {  }],
  ['cv.dotusp.sci.b', 0x807f02fe, 0x00000000, 0xfffffa03, { imm: -3 }],
  ['cv.dotsp.h', 0x807f02fe, 0xff01fd03, 0x00761079, {  }],
  ['cv.dotsp.sc.h', 0x807f02fe, 0xff01fd03, 0x01741377, {  }],
  ['cv.dotsp.sci.h', 0x807f02fe, 0x00000000, 0x00017589, { imm: -3 }],
  ['cv.dotsp.b', 0x807f02fe, 0xff01fd03, 0x000000f3, {  }],
  ['cv.dotsp.sc.b', 0x807f02fe, 0xff01fd03, 0xfffffffd, {  }],
  ['cv.dotsp.sci.b', 0x807f02fe, 0x00000000, 0x00000003, { imm: -3 }],
  ['cv.sdotup.h', 0x807f02fe, 0xff01fd03, 0x952866f1, { d: 0x12345678 }],
  ['cv.sdotup.sc.h', 0x807f02fe, 0xff01fd03, 0x942869ef, { d: 0x12345678 }],
  ['cv.sdotup.sci.h', 0x807f02fe, 0x00000000, 0x1236e7e9, { imm: 5, d: 0x12345678 }],
  ['cv.sdotup.b', 0x807f02fe, 0xff01fd03, 0x1234db6b, { d: 0x12345678 }],
  ['cv.sdotup.sc.b', 0x807f02fe, 0xff01fd03, 0x12345c75, { d: 0x12345678 }],
  ['cv.sdotup.sci.b', 0x807f02fe, 0x00000000, 0x12346073, { imm: 5, d: 0x12345678 }],
  ['cv.sdotusp.h', 0x807f02fe, 0xff01fd03, 0x11ab66f1, { d: 0x12345678 }],
  ['cv.sdotusp.sc.h', 0x807f02fe, 0xff01fd03, 0x10ab69ef, { d: 0x12345678 }],
  ['cv.sdotusp.sci.h', 0x807f02fe, 0x00000000, 0x1232cc01, { imm: -3, d: 0x12345678 }],
  ['cv.sdotusp.b', 0x807f02fe, 0xff01fd03, 0x1234596b, { d: 0x12345678 }],
  ['cv.sdotusp.sc.b', 0x807f02fe, 0xff01fd03, 0x12345c75, { d: 0x12345678 }],
  ['cv.sdotusp.sci.b', 0x807f02fe, 0x00000000, 0x1234507b, { imm: -3, d: 0x12345678 }],
  ['cv.sdotsp.h', 0x807f02fe, 0xff01fd03, 0x12aa66f1, { d: 0x12345678 }],
  ['cv.sdotsp.sc.h', 0x807f02fe, 0xff01fd03, 0x13a869ef, { d: 0x12345678 }],
  ['cv.sdotsp.sci.h', 0x807f02fe, 0x00000000, 0x1235cc01, { imm: -3, d: 0x12345678 }],
  ['cv.sdotsp.b', 0x807f02fe, 0xff01fd03, 0x1234576b, { d: 0x12345678 }],
  ['cv.sdotsp.sc.b', 0x807f02fe, 0xff01fd03, 0x12345675, { d: 0x12345678 }],
  ['cv.sdotsp.sci.b', 0x807f02fe, 0x00000000, 0x1234567b, { imm: -3, d: 0x12345678 }],
  ['cv.cmpeq.h', 0x807f02fe, 0xff01fd03, 0x00000000, {  }],
  ['cv.cmpeq.sc.h', 0x807f02fe, 0xff01fd03, 0x00000000, {  }],
  ['cv.cmpeq.sci.h', 0x807f02fe, 0x00000000, 0x00000000, { imm: -3 }],
  ['cv.cmpeq.b', 0x807f02fe, 0xff01fd03, 0x00000000, {  }],
  ['cv.cmpeq.sc.b', 0x807f02fe, 0xff01fd03, 0x00000000, {  }],
  ['cv.cmpeq.sci.b', 0x807f02fe, 0x00000000, 0x00000000, { imm: -3 }],
  ['cv.cmpne.h', 0x807f02fe, 0xff01fd03, 0xffffffff, {  }],
  ['cv.cmpne.sc.h', 0x807f02fe, 0xff01fd03, 0xffffffff, {  }],
  ['cv.cmpne.sci.h', 0x807f02fe, 0x00000000, 0xffffffff, { imm: -3 }],
  ['cv.cmpne.b', 0x807f02fe, 0xff01fd03, 0xffffffff, {  }],
  ['cv.cmpne.sc.b', 0x807f02fe, 0xff01fd03, 0xffffffff, {  }],
  ['cv.cmpne.sci.b', 0x807f02fe, 0x00000000, 0xffffffff, { imm: -3 }],
  ['cv.cmpgt.h', 0x807f02fe, 0xff01fd03, 0x0000ffff, {  }],
  ['cv.cmpgt.sc.h', 0x807f02fe, 0xff01fd03, 0x0000ffff, {  }],
  ['cv.cmpgt.sci.h', 0x807f02fe, 0x00000000, 0x0000ffff, { imm: -3 }],
  ['cv.cmpgt.b', 0x807f02fe, 0xff01fd03, 0x00ffff00, {  }],
  ['cv.cmpgt.sc.b', 0x807f02fe, 0xff01fd03, 0x00ff0000, {  }],
  ['cv.cmpgt.sci.b', 0x807f02fe, 0x00000000, 0x00ffffff, { imm: -3 }],
  ['cv.cmpge.h', 0x807f02fe, 0xff01fd03, 0x0000ffff, {  }],
  ['cv.cmpge.sc.h', 0x807f02fe, 0xff01fd03, 0x0000ffff, {  }],
  ['cv.cmpge.sci.h', 0x807f02fe, 0x00000000, 0x0000ffff, { imm: -3 }],
  ['cv.cmpge.b', 0x807f02fe, 0xff01fd03, 0x00ffff00, {  }],
  ['cv.cmpge.sc.b', 0x807f02fe, 0xff01fd03, 0x00ff0000, {  }],
  ['cv.cmpge.sci.b', 0x807f02fe, 0x00000000, 0x00ffffff, { imm: -3 }],
  ['cv.cmplt.h', 0x807f02fe, 0xff01fd03, 0xffff0000, {  }],
  ['cv.cmplt.sc.h', 0x807f02fe, 0xff01fd03, 0xffff0000, {  }],
  ['cv.cmplt.sci.h', 0x807f02fe, 0x00000000, 0xffff0000, { imm: -3 }],
  ['cv.cmplt.b', 0x807f02fe, 0xff01fd03, 0xff0000ff, {  }],
  ['cv.cmplt.sc.b', 0x807f02fe, 0xff01fd03, 0xff00ffff, {  }],
  ['cv.cmplt.sci.b', 0x807f02fe, 0x00000000, 0xff000000, { imm: -3 }],
  ['cv.cmple.h', 0x807f02fe, 0xff01fd03, 0xffff0000, {  }],
  ['cv.cmple.sc.h', 0x807f02fe, 0xff01fd03, 0xffff0000, {  }],
  ['cv.cmple.sci.h', 0x807f02fe, 0x00000000, 0xffff0000, { imm: -3 }],
  ['cv.cmple.b', 0x807f02fe, 0xff01fd03, 0xff0000ff, {  }],
  ['cv.cmple.sc.b', 0x807f02fe, 0xff01fd03, 0xff00ffff, {  }],
  ['cv.cmple.sci.b', 0x807f02fe, 0x00000000, 0xff000000, { imm: -3 }],
  ['cv.cmpgtu.h', 0x807f02fe, 0xff01fd03, 0x00000000, {  }],
  ['cv.cmpgtu.sc.h', 0x807f02fe, 0xff01fd03, 0x00000000, {  }],
  ['cv.cmpgtu.sci.h', 0x807f02fe, 0x00000000, 0xffffffff, { imm: 5 }],
  ['cv.cmpgtu.b', 0x807f02fe, 0xff01fd03, 0x00ff00ff, {  }],
  ['cv.cmpgtu.sc.b', 0x807f02fe, 0xff01fd03, 0xffff00ff, {  }],
  ['cv.cmpgtu.sci.b', 0x807f02fe, 0x00000000, 0xffff00ff, { imm: 5 }],
  ['cv.cmpgeu.h', 0x807f02fe, 0xff01fd03, 0x00000000, {  }],
  ['cv.cmpgeu.sc.h', 0x807f02fe, 0xff01fd03, 0x00000000, {  }],
  ['cv.cmpgeu.sci.h', 0x807f02fe, 0x00000000, 0xffffffff, { imm: 5 }],
  ['cv.cmpgeu.b', 0x807f02fe, 0xff01fd03, 0x00ff00ff, {  }],
  ['cv.cmpgeu.sc.b', 0x807f02fe, 0xff01fd03, 0xffff00ff, {  }],
  ['cv.cmpgeu.sci.b', 0x807f02fe, 0x00000000, 0xffff00ff, { imm: 5 }],
  ['cv.cmpltu.h', 0x807f02fe, 0xff01fd03, 0xffffffff, {  }],
  ['cv.cmpltu.sc.h', 0x807f02fe, 0xff01fd03, 0xffffffff, {  }],
  ['cv.cmpltu.sci.h', 0x807f02fe, 0x00000000, 0x00000000, { imm: 5 }],
  ['cv.cmpltu.b', 0x807f02fe, 0xff01fd03, 0xff00ff00, {  }],
  ['cv.cmpltu.sc.b', 0x807f02fe, 0xff01fd03, 0x0000ff00, {  }],
  ['cv.cmpltu.sci.b', 0x807f02fe, 0x00000000, 0x0000ff00, { imm: 5 }],
  ['cv.cmpleu.h', 0x807f02fe, 0xff01fd03, 0xffffffff, {  }],
  ['cv.cmpleu.sc.h', 0x807f02fe, 0xff01fd03, 0xffffffff, {  }],
  ['cv.cmpleu.sci.h', 0x807f02fe, 0x00000000, 0x00000000, { imm: 5 }],
  ['cv.cmpleu.b', 0x807f02fe, 0xff01fd03, 0xff00ff00, {  }],
  ['cv.cmpleu.sc.b', 0x807f02fe, 0xff01fd03, 0x0000ff00, {  }],
  ['cv.cmpleu.sci.b', 0x807f02fe, 0x00000000, 0x0000ff00, { imm: 5 }],
  ['cv.extract.h', 0x807f02fe, 0x00000000, 0xffff807f, { imm: 1 }],
  ['cv.extract.b', 0x807f02fe, 0x00000000, 0xffffff80, { imm: 3 }],
  ['cv.extractu.h', 0x807f02fe, 0x00000000, 0x0000807f, { imm: 1 }],
  ['cv.extractu.b', 0x807f02fe, 0x00000000, 0x000000fe, { imm: 0 }],
  ['cv.insert.h', 0x807f02fe, 0x00000000, 0x02fe5678, { imm: 1, d: 0x12345678 }],
  ['cv.insert.b', 0x807f02fe, 0x00000000, 0x12fe5678, { imm: 2, d: 0x12345678 }],
  ['cv.shuffle.h', 0x807f02fe, 0x00010000, 0x807f02fe, {  }],
  ['cv.shuffle.b', 0x807f02fe, 0x00010203, 0xfe027f80, {  }],
  ['cv.shuffle.sci.h', 0x807f02fe, 0x00000000, 0x02fe807f, { imm: 1 }],
  ['cv.shufflei0.sci.b', 0x807f02fe, 0x00000000, 0xfe7f0280, { imm: 39 }],
  ['cv.shufflei1.sci.b', 0x807f02fe, 0x00000000, 0x027f0280, { imm: 39 }],
  ['cv.shufflei2.sci.b', 0x807f02fe, 0x00000000, 0x7f7f0280, { imm: 39 }],
  ['cv.shufflei3.sci.b', 0x807f02fe, 0x00000000, 0x807f0280, { imm: 39 }],
  ['cv.shuffle2.h', 0x807f02fe, 0x00030000, 0x807f5678, { d: 0x12345678 }],
  ['cv.shuffle2.b', 0x807f02fe, 0x06000401, 0x7f78fe56, { d: 0x12345678 }],
  ['cv.pack', 0x807f02fe, 0xff01fd03, 0x02fefd03, {  }],
  ['cv.pack.h', 0x807f02fe, 0xff01fd03, 0x807fff01, {  }],
  ['cv.packhi.b', 0x807f02fe, 0xff01fd03, 0xfe035678, { d: 0x12345678 }],
  ['cv.packlo.b', 0x807f02fe, 0xff01fd03, 0x1234fe03, { d: 0x12345678 }],
  ['cv.cplxmul.r', 0x807f02fe, 0xff01fd03, 0x1234fef0, { d: 0x12345678 }],
  ['cv.cplxmul.i', 0x807f02fe, 0xff01fd03, 0x02f45678, { d: 0x12345678 }],
  ['cv.subrotmj', 0x807f02fe, 0xff01fd03, 0xfa05817e, {  }],
  ['cv.cplxmul.r.div2', 0x807f02fe, 0xff01fd03, 0x1234ff78, { d: 0x12345678 }],
  ['cv.cplxmul.i.div2', 0x807f02fe, 0xff01fd03, 0x017a5678, { d: 0x12345678 }],
  ['cv.subrotmj.div2', 0x807f02fe, 0xff01fd03, 0xfd02c0bf, {  }],
  ['cv.add.div2', 0x807f02fe, 0xff01fd03, 0x3fc00000, {  }],
  ['cv.sub.div2', 0x807f02fe, 0xff01fd03, 0xc0bf02fd, {  }],
  ['cv.cplxmul.r.div4', 0x807f02fe, 0xff01fd03, 0x1234ffbc, { d: 0x12345678 }],
  ['cv.cplxmul.i.div4', 0x807f02fe, 0xff01fd03, 0x00bd5678, { d: 0x12345678 }],
  ['cv.subrotmj.div4', 0x807f02fe, 0xff01fd03, 0xfe81e05f, {  }],
  ['cv.add.div4', 0x807f02fe, 0xff01fd03, 0x1fe00000, {  }],
  ['cv.sub.div4', 0x807f02fe, 0xff01fd03, 0xe05f017e, {  }],
  ['cv.cplxmul.r.div8', 0x807f02fe, 0xff01fd03, 0x1234ffde, { d: 0x12345678 }],
  ['cv.cplxmul.i.div8', 0x807f02fe, 0xff01fd03, 0x005e5678, { d: 0x12345678 }],
  ['cv.subrotmj.div8', 0x807f02fe, 0xff01fd03, 0xff40f02f, {  }],
  ['cv.add.div8', 0x807f02fe, 0xff01fd03, 0x0ff00000, {  }],
  ['cv.sub.div8', 0x807f02fe, 0xff01fd03, 0xf02f00bf, {  }],
  ['cv.cplxconj', 0x807f02fe, 0x00000000, 0x7f8102fe, {  }],
];

const run = ([id, a, b, , o]: Case) => exec1(m, id, { a, b, d: o.d }, { imm: o.imm, aux: o.aux });

describe('xcvbitmanip, xcvalu, xcvmac', () => {
  it.each(SCALAR)('%s 0x%s 0x%s', (...c) => {
    expect(run(c).toString(16)).toBe(c[3].toString(16));
  });
});

describe('xcvsimd', () => {
  it.each(SIMD)('%s', (...c) => {
    expect(run(c).toString(16)).toBe(c[3].toString(16));
  });
});

describe('xcvmem: post-increment and register-offset loads and stores', () => {
  const bytes = [0x81, 0xff, 0x34, 0x92, 0x11, 0x22, 0x33, 0x44];
  const load = (id: string, base: number, ops: { imm?: number }, regs: Record<number, number> = {}) => {
    m.write(base, new Uint8Array(bytes));
    runWords(m, [encode(id, { rd: RD, rs1: RS1, ...(ops.imm === undefined ? { rs2: RS2 } : ops) })], { regs: { [RS1]: base, ...regs } });
    return [m.reg(0, RD) >>> 0, (m.reg(0, RS1) >>> 0) - base];
  };
  it('reg-imm post-increment loads read at rs1, then add the offset', () => {
    expect(load('cv.lb.ri_inc', DATA, { imm: 3 })).toEqual([0xffffff81, 3]);
    expect(load('cv.lbu.ri_inc', DATA, { imm: -1 })).toEqual([0x81, -1]);
    expect(load('cv.lh.ri_inc', TCDM, { imm: 2 })).toEqual([0xffffff81, 2]);
    expect(load('cv.lhu.ri_inc', TCDM, { imm: 2 })).toEqual([0xff81, 2]);
    expect(load('cv.lw.ri_inc', DATA, { imm: 4 })).toEqual([0x9234ff81, 4]);
  });
  it('reg-reg post-increment loads add rs2', () => {
    expect(load('cv.lb.rr_inc', DATA, {}, { [RS2]: 8 })).toEqual([0xffffff81, 8]);
    expect(load('cv.lbu.rr_inc', DATA, {}, { [RS2]: -8 })).toEqual([0x81, -8]);
    expect(load('cv.lh.rr_inc', DATA, {}, { [RS2]: 2 })).toEqual([0xffffff81, 2]);
    expect(load('cv.lhu.rr_inc', DATA, {}, { [RS2]: 2 })).toEqual([0xff81, 2]);
    expect(load('cv.lw.rr_inc', TCDM, {}, { [RS2]: 4 })).toEqual([0x9234ff81, 4]);
  });
  it('reg-reg loads read at rs1 + rs2 and leave rs1', () => {
    expect(load('cv.lb.rr', DATA, {}, { [RS2]: 3 })).toEqual([0xffffff92, 0]);
    expect(load('cv.lbu.rr', DATA, {}, { [RS2]: 3 })).toEqual([0x92, 0]);
    expect(load('cv.lh.rr', DATA, {}, { [RS2]: 2 })).toEqual([0xffff9234, 0]);
    expect(load('cv.lhu.rr', DATA, {}, { [RS2]: 2 })).toEqual([0x9234, 0]);
    expect(load('cv.lw.rr', DATA, {}, { [RS2]: 4 })).toEqual([0x44332211, 0]);
  });
  it('a post-increment load into its own base register keeps the loaded value', () => {
    m.write(DATA, new Uint8Array(bytes));
    runWords(m, [encode('cv.lw.ri_inc', { rd: RS1, rs1: RS1, imm: 4 })], { regs: { [RS1]: DATA } });
    expect(m.reg(0, RS1) >>> 0).toBe(0x9234ff81);
  });

  const store = (id: string, ops: { imm?: number }, regs: Record<number, number>) => {
    m.write(DATA, new Uint8Array(8));
    runWords(m, [encode(id, { rs1: RS1, rs2: RS2, ...(ops.imm === undefined ? { aux: RS3 } : ops) })], { regs: { [RS1]: DATA, [RS2]: 0x11223344, ...regs } });
    return [[...m.read(DATA, 8)], (m.reg(0, RS1) >>> 0) - DATA];
  };
  it('stores: reg-imm and reg-reg post-increment, reg-reg offset', () => {
    expect(store('cv.sb.ri_inc', { imm: 1 }, {})).toEqual([[0x44, 0, 0, 0, 0, 0, 0, 0], 1]);
    expect(store('cv.sh.ri_inc', { imm: -2 }, {})).toEqual([[0x44, 0x33, 0, 0, 0, 0, 0, 0], -2]);
    expect(store('cv.sw.ri_inc', { imm: 4 }, {})).toEqual([[0x44, 0x33, 0x22, 0x11, 0, 0, 0, 0], 4]);
    expect(store('cv.sb.rr_inc', {}, { [RS3]: 5 })).toEqual([[0x44, 0, 0, 0, 0, 0, 0, 0], 5]);
    expect(store('cv.sh.rr_inc', {}, { [RS3]: 2 })).toEqual([[0x44, 0x33, 0, 0, 0, 0, 0, 0], 2]);
    expect(store('cv.sw.rr_inc', {}, { [RS3]: 4 })).toEqual([[0x44, 0x33, 0x22, 0x11, 0, 0, 0, 0], 4]);
    expect(store('cv.sb.rr', {}, { [RS3]: 7 })).toEqual([[0, 0, 0, 0, 0, 0, 0, 0x44], 0]);
    expect(store('cv.sh.rr', {}, { [RS3]: 6 })).toEqual([[0, 0, 0, 0, 0, 0, 0x44, 0x33], 0]);
    expect(store('cv.sw.rr', {}, { [RS3]: 4 })).toEqual([[0, 0, 0, 0, 0x44, 0x33, 0x22, 0x11], 0]);
  });
});

describe('xcvbi: branches on an immediate', () => {
  const bi = (id: string, a: number, v: number) => {
    runWords(m, [encode(id, { rs1: RS1, aux: v, imm: -64 })], { regs: { [RS1]: a } });
    return m.pc(0) === CODE - 64;
  };
  it('compares with a signed 5-bit value', () => {
    expect([bi('cv.beqimm', -16, -16), bi('cv.beqimm', 15, -16), bi('cv.bneimm', 15, -16), bi('cv.bneimm', 7, 7)])
      .toEqual([true, false, true, false]);
  });
});

describe('xcvhwlp: hardware loops', () => {
  const addi = (rd: number, imm: number) => encode('addi', { rd, rs1: rd, imm });
  it('cv.setupi runs the body count times, then falls through', () => {
    // setupi L0, count 5, end = pc + 4 * 4: body = the three addis after it.
    runWords(m, [encode('cv.setupi', { rs2: 0, imm: 5, aux: 4 }), addi(10, 1), addi(11, 2), addi(12, 3), addi(13, 100)], { steps: 1 + 15 + 1 });
    expect([m.reg(0, 10), m.reg(0, 11), m.reg(0, 12), m.reg(0, 13)]).toEqual([5, 10, 15, 100]);
    expect(m.hwloop(0, 0)).toEqual([CODE + 4, CODE + 16, 0]);
  });

  it('cv.starti / cv.endi / cv.count, nested with cv.setup inside', () => {
    // 0: starti L1, +3 (-> 12)   4: endi L1, +7 (-> 32)   8: count L1, t1
    // 12: setup L0, t2, +4 (start 16, end 28)   16..24: three addis on a0 (inner body)
    // 28: addi a1, 1 (outer body tail)   32: addi a2, 1 (after both loops)
    const words = [
      encode('cv.starti', { rs2: 1, imm: 3 }), encode('cv.endi', { rs2: 1, imm: 7 }), encode('cv.count', { rs2: 1, rs1: RS1 }),
      encode('cv.setup', { rs2: 0, rs1: RS2, imm: 4 }), addi(10, 1), addi(10, 1), addi(10, 1), addi(11, 1), addi(12, 1),
    ];
    const outer = 3;
    const inner = 4;
    runWords(m, words, { regs: { [RS1]: outer, [RS2]: inner }, steps: 3 + outer * (1 + 3 * inner + 1) + 1 });
    expect([m.reg(0, 10), m.reg(0, 11), m.reg(0, 12)]).toEqual([outer * inner * 3, outer, 1]);
    expect(m.pc(0)).toBe(CODE + 36);
  });

  it('cv.start / cv.end / cv.counti take registers and immediates; CSRs read the loop state', () => {
    const words = [
      encode('cv.start', { rs2: 0, rs1: RS1 }), encode('cv.end', { rs2: 0, rs1: RS2 }), encode('cv.counti', { rs2: 0, imm: 2 }),
      encode('csrrs', { rd: 13, rs1: 0, imm: 0xcc2 }), encode('csrrs', { rd: 14, rs1: 0, imm: 0xcc1 }), addi(10, 1), addi(10, 1),
    ];
    // Body = the two instructions at 16..23: csrrs cc1 (lpend0) and the first addi; end = 24.
    runWords(m, words, { regs: { [RS1]: CODE + 16 + 1, [RS2]: CODE + 24 + 3 }, steps: 3 + 1 + 2 * 2 + 1 });
    expect([m.reg(0, 13), m.reg(0, 14) >>> 0, m.reg(0, 10)]).toEqual([2, CODE + 24, 3]);
  });

  it('goes back to the loop start after an ecall that ends the body', () => {
    runWords(m, [encode('cv.setupi', { rs2: 0, imm: 3, aux: 3 }), addi(10, 1), encode('ecall')]);
    expect(m.pc(0)).toBe(CODE + 4);
    expect(m.hwloop(0, 0)[2]).toBe(2);
  });

  it('costs no cycles per iteration', () => {
    runWords(m, [encode('cv.setupi', { rs2: 0, imm: 100, aux: 3 }), addi(10, 1), addi(11, 1)], { steps: 1 + 200 });
    expect(m.reg(0, 10)).toBe(100);
    expect(m.cycles(0)).toBe(201);
  });
});

describe('CV32E40P timing', () => {
  const cycles = (words: number[], regs: Record<number, number> = {}, steps = words.length) => {
    runWords(m, words, { regs, steps });
    return m.cycles(0);
  };
  const nop = encode('addi', { rd: 0, rs1: 0, imm: 0 });
  it('load-use stall, misaligned accesses', () => {
    const lw = encode('lw', { rd: 10, rs1: RS1, imm: 0 });
    expect(cycles([lw, encode('addi', { rd: 11, rs1: 10, imm: 1 })], { [RS1]: DATA })).toBe(3);
    expect(cycles([lw, encode('addi', { rd: 11, rs1: 12, imm: 1 })], { [RS1]: DATA })).toBe(2);
    expect(cycles([lw], { [RS1]: DATA + 2 })).toBe(2);
    expect(cycles([encode('lh', { rd: 10, rs1: RS1, imm: 0 })], { [RS1]: DATA + 3 })).toBe(2);
    expect(cycles([encode('lh', { rd: 10, rs1: RS1, imm: 0 })], { [RS1]: DATA + 1 })).toBe(1);
  });
  it('branches, jumps, mulh, div by leading zeros, counter CSRs', () => {
    expect(cycles([encode('beq', { rs1: 0, rs2: 0, imm: 8 })])).toBe(3);
    expect(cycles([encode('bne', { rs1: 0, rs2: 0, imm: 8 })])).toBe(1);
    expect(cycles([encode('jal', { rd: 0, imm: 8 })])).toBe(2);
    // A jump to a 32-bit instruction at a non-word-aligned address costs one more.
    expect(cycles([encode('jal', { rd: 0, imm: 6 }), encode('c.nop'), nop], {}, 1)).toBe(3);
    expect(cycles([encode('jal', { rd: 0, imm: 6 }), encode('c.nop'), encode('c.nop')], {}, 1)).toBe(2);
    expect(cycles([encode('mulh', { rd: 10, rs1: 11, rs2: 12 })])).toBe(5);
    expect(cycles([encode('mul', { rd: 10, rs1: 11, rs2: 12 })])).toBe(1);
    expect(cycles([encode('div', { rd: 10, rs1: 11, rs2: 12 })], { 12: 0 })).toBe(35);
    expect(cycles([encode('div', { rd: 10, rs1: 11, rs2: 12 })], { 12: 0x80000000 })).toBe(3);
    expect(cycles([encode('divu', { rd: 10, rs1: 11, rs2: 12 })], { 12: 1 })).toBe(34);
    expect(cycles([encode('csrrs', { rd: 10, rs1: 0, imm: 0xb00 })])).toBe(4);
    expect(cycles([encode('csrrs', { rd: 10, rs1: 0, imm: 0xf14 })])).toBe(1);
    // jalr right after the instruction that wrote its base register.
    expect(cycles([encode('addi', { rd: 10, rs1: 0, imm: 0 }), encode('jalr', { rd: 0, rs1: 10, imm: 0 })], { })).toBe(1 + 3);
  });
});

describe('coverage of the table by these tests', () => {
  it('names every CORE-V instruction', () => {
    const src = [...SCALAR, ...SIMD].map((c) => c[0]);
    const named = new Set(src);
    const others = ['cv.lb', 'cv.lbu', 'cv.lh', 'cv.lhu', 'cv.lw', 'cv.sb', 'cv.sh', 'cv.sw', 'cv.beqimm', 'cv.bneimm',
      'cv.starti', 'cv.start', 'cv.endi', 'cv.end', 'cv.count', 'cv.counti', 'cv.setup', 'cv.setupi'];
    const missing = TABLE.filter((r) => r.id.startsWith('cv.') && !named.has(r.id) && !others.includes(r.name)).map((r) => r.id);
    expect(missing).toEqual([]);
  });
});
