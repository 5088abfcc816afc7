// mini-resnet: a ResNet-style int8 CNN on a 64x64 RGB picture: a strided 3x3 stem, an identity
// bottleneck block and a downsampling bottleneck block whose shortcut is a strided 1x1 conv,
// max pooling and a Gemm classifier. Its 32x32 layers are big enough to be tiled at L1 8000
// (the residual Add of 3 x 24 KiB also at 64000), and its strided convs (3x3 stride 2 on 3
// and on 10 channels, 1x1 stride 2 on 24) are the layers ResNets bring.
import { GraphBuilder } from '../builder';
import { syntheticImage } from '../data';
import { classifier, conv, requant, residual } from '../layers';

/** 1x1 reduce -> 3x3 (stride s) -> 1x1 expand, plus the skip (a strided 1x1 projection when the shape changes). */
function bottleneck(b: GraphBuilder, name: string, x: string, o: { mid: number; out: number; stride: number }): string {
  let h = conv(b, `${name}/reduce`, x, o.mid, { kernel: 1 });
  h = conv(b, `${name}/conv3x3`, h, o.mid, { kernel: 3, stride: o.stride });
  h = conv(b, `${name}/expand`, h, o.out, { kernel: 1 });
  const skip = o.stride === 1 && b.shape(x)[1] === o.out ? x : conv(b, `${name}/shortcut`, x, o.out, { kernel: 1, stride: o.stride });
  const update = requant(b, `${name}/residual/update_requant`, h, { target: 60 });
  return residual(b, `${name}/residual`, skip, update);
}

export function miniResNet(seed: number): GraphBuilder {
  const b = new GraphBuilder('mini-resnet', seed);
  const image = b.input('image', syntheticImage(b.rng('input/image'), 64, 64));
  let x = conv(b, 'stem', image, 24, { kernel: 3, stride: 2 }); // 64x64 -> 32x32
  x = bottleneck(b, 'block1', x, { mid: 8, out: 24, stride: 1 });
  x = bottleneck(b, 'block2', x, { mid: 10, out: 40, stride: 2 }); // 32x32 -> 16x16
  const pooled = b.node('MaxPool', 'pool', [x], { kernel_shape: [4, 4], strides: [4, 4] }); // 16x16 -> 4x4
  const flat = b.node('Flatten', 'classifier/flatten', [pooled], { axis: 1 });

  b.output(classifier(b, flat, 10));
  return b;
}
