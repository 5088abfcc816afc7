// N-EUREKA layers: one NPU task per image, programmed through the register interface of
// runtime/neureka.h (the task is exactly RequantizedConv, stride 1, channels-last). One
// worker (the engine's fork is 1 core wide) writes the registers, commits and sleeps on the
// end event; the weights stay one int8 per byte, with WEIGHT_BITS their significant bits.
import { fail } from '../../../common/errors';
import { levelsRange } from '../../ops/core/requant';
import { shiftOf } from '../../ops/requantized';
import { convDims } from '../../ops/conv';
import { paramIndex } from '../layout';
import { constInput, input, need8, noOffsets } from './common';
import type { EmitSink, Emitter, LayerSpec } from './types';

const MODES = { NeurekaPwConv1x1: 'NEUREKA_MODE_1X1', NeurekaDenseConv3x3: 'NEUREKA_MODE_3X3', NeurekaDwConv3x3: 'NEUREKA_MODE_3X3_DW' } as const;
type Family = keyof typeof MODES;

/** A requant parameter as the NPU reads it: one int32 per output channel (scalars repeated). */
function perChannel(l: LayerSpec, out: EmitSink, i: number, what: string, M: number): string {
  const t = constInput(l, i, what);
  const p = paramIndex(t.values, t.shape, l.outs[0].shape, what, l.where);
  let v: ArrayLike<number>;
  if (p.count === 1) v = new Array<number>(M).fill(p.values[0]);
  else if (p.inner === 1 && p.count === M) v = p.values;
  else return fail('not-implemented', `its ${what} varies over more than the output channels; N-EUREKA takes one value per channel`, l.where);
  return out.constant(v, 'int32', `${t.name}_npu`, l.where);
}

/** int8 weights in the task's layout, which is the HWC conv layout as stored ([M][k][k][C] or [C][k][k][1]). */
function weights(l: LayerSpec, out: EmitSink): string {
  const w = constInput(l, 1, 'weights');
  // An int8 tensor keeps its own buffer, so --neureka-wmem's placement (the plan's WMEM home) holds.
  return w.type === 'int8' ? `(const int8_t *)${out.data(w)}` : out.constant(w.values, 'int8', w.name, l.where);
}

/** The fewest two's-complement bits holding every weight (the NPU's bit-planes, 1..8). */
export function weightBits(values: ArrayLike<number>): number {
  let bits = 1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    while (v < -(2 ** (bits - 1)) || v > 2 ** (bits - 1) - 1) bits++;
  }
  return bits;
}

function emitTask(l: LayerSpec, out: EmitSink): void {
  const family = /^(Neureka\w+?)_/.exec(l.binding.kernel)?.[1] as Family | undefined;
  if (!family || !(family in MODES)) fail('internal', `no N-EUREKA mode for kernel ${l.binding.kernel}`, l.where);
  const x = input(l, 0, 'input'), y = l.outs[0];
  need8(l, x, 'input');
  need8(l, y, 'output');
  noOffsets(l);
  const { dims: g } = convDims(x.shape, input(l, 1, 'weights').shape, l.attrs as never, l.where);
  const w = g.win, k = family === 'NeurekaPwConv1x1' ? 1 : 3;
  if (g.channelsFirst || x.shape.length !== 4) fail('internal', 'N-EUREKA takes 2-D channels-last data', l.where);
  // Dilation means nothing to a 1x1 window (binding accepts any; found by the fuzzer).
  if (w.k[1] !== k || w.k[2] !== k || w.strides.some((s) => s !== 1) || (k > 1 && w.dil.some((d) => d !== 1)))
    fail('internal', `kernel ${l.binding.kernel} got a ${w.k[1]}x${w.k[2]} window with strides ${w.strides.slice(1).join('x')} and dilations ${w.dil.slice(1).join('x')}`, l.where);
  const [, H, W] = w.inS, [, OH, OW] = w.outS, [, pt, pl] = w.padBegin;
  const pb = OH + k - 1 - H - pt, pr = OW + k - 1 - W - pl;
  if ([pt, pl, pb, pr].some((p) => p < 0 || p > 1) || (k === 1 && pt + pl + pb + pr > 0))
    fail('internal', `padding ${pt},${pl},${pb},${pr} (top, left, bottom, right) is not N-EUREKA's`, l.where);
  const depthwise = family === 'NeurekaDwConv3x3';
  if (depthwise ? g.group !== g.C || g.M !== g.C : g.group !== 1) fail('internal', `kernel ${l.binding.kernel} got group ${g.group}`, l.where);

  const sh = l.ins[4];
  const shift = shiftOf(l.attrs as never, sh?.values ? { shape: sh.shape, data: sh.values } : undefined, l.where);
  const [lo, hi] = levelsRange(l.attrs.n_levels as number, !!l.attrs.signed, l.where);
  // 1x1 without padding: the images are one tall image, one task.
  const [tasks, rows] = k === 1 ? [1, g.N * H] : [g.N, H];
  const reg = (r: string, v: string | number) => `hal_neureka_write(NEUREKA_${r}, ${v});`;
  const addr = (r: string, p: string) => reg(r, `(uintptr_t)(${p})`);
  const body = [
    addr('WEIGHTS', weights(l, out)),
    addr('MUL', perChannel(l, out, 2, 'mul', g.M)),
    addr('ADD', perChannel(l, out, 3, 'add', g.M)),
    reg('IN_H', rows), reg('IN_W', W), reg('C_IN', g.C), reg('C_OUT', g.M),
    reg('IN_ROW', W * g.C), reg('IN_PIX', g.C), reg('OUT_ROW', OW * g.M), reg('OUT_PIX', g.M),
    reg('MODE', MODES[family]),
    reg('PADDING', `${pt} | ${pl} << 8 | ${pb} << 16 | ${pr} << 24`),
    reg('FLAGS', x.type === 'int8' ? 'NEUREKA_FLAG_SIGNED_IN' : 0),
    reg('SHIFT', shift), reg('CLIP_LO', `(uint32_t)${lo}`), reg('CLIP_HI', hi),
    reg('WEIGHT_BITS', weightBits(constInput(l, 1, 'weights').values)),
    `for (uint32_t n = 0; n < ${tasks}; n++) {`,
    `  ${addr('INPUT', `(const uint8_t *)${out.data(x)} + n * ${H * W * g.C}u`)}`,
    `  ${addr('OUTPUT', `(uint8_t *)${out.data(y)} + n * ${OH * OW * g.M}u`)}`,
    '  hal_neureka_commit();',
    '  hal_neureka_wait();',
    '}',
  ];
  out.step(body.join('\n'));
}

const neureka: Emitter = { family: /^Neureka/, offsets: 'none', emit: emitTask };

export const neurekaEmitters: Emitter[] = [neureka];
