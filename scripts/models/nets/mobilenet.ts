// mini-mobilenetv2: a MobileNetV2-style int8 CNN on a 32x32 RGB picture, shaped like Deeploy's
// miniMobileNetv2 test: Conv + RequantShift pairs, inverted residual blocks, a residual Add
// with a RequantShift on each branch and on the sum, Flatten and a Gemm classifier.
import { GraphBuilder } from '../builder';
import { syntheticImage } from '../data';
import { classifier, conv, requant, residual } from '../layers';

/** Pointwise expand -> 3x3 depthwise -> pointwise project, with a residual when shapes allow. */
function invertedResidual(b: GraphBuilder, name: string, x: string, o: { expand: number; out: number; stride: number }): string {
  let h = conv(b, `${name}/expand`, x, o.expand, { kernel: 1 });
  h = conv(b, `${name}/dw_conv`, h, o.expand, { kernel: 3, stride: o.stride, depthwise: true });
  h = conv(b, `${name}/project`, h, o.out, { kernel: 1 });
  if (o.stride !== 1 || b.shape(x)[1] !== o.out) return h;
  const update = requant(b, `${name}/residual/update_requant`, h, { target: 60 });
  return residual(b, `${name}/residual`, x, update);
}

export function miniMobileNetV2(seed: number): GraphBuilder {
  const b = new GraphBuilder('mini-mobilenetv2', seed);
  const image = b.input('image', syntheticImage(b.rng('input/image'), 32, 32));
  let x = conv(b, 'stem', image, 16, { kernel: 3, stride: 2 }); // 32x32 -> 16x16
  x = invertedResidual(b, 'block1', x, { expand: 48, out: 16, stride: 1 });
  x = invertedResidual(b, 'block2', x, { expand: 48, out: 24, stride: 2 }); // 16x16 -> 8x8
  x = invertedResidual(b, 'block3', x, { expand: 72, out: 24, stride: 1 });
  const flat = b.node('Flatten', 'classifier/flatten', [x], { axis: 1 });

  b.output(classifier(b, flat, 10));
  return b;
}
