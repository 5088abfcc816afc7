// adder: one Add of two int8 tensors, the first network of Deeploy's tutorial.
import { GraphBuilder } from '../builder';
import { tensor } from '../layers';

export function adder(seed: number): GraphBuilder {
  const b = new GraphBuilder('adder', seed, { opset: 11 }); // Deeploy's Adder test is opset 11
  const shape = [1, 8, 16, 16];
  const n = shape.reduce((x, y) => x * y, 1);
  const draw = (label: string) => {
    const rng = b.rng(label);
    return tensor(shape, Array.from({ length: n }, () => rng.int(-128, 127)));
  };
  const a = b.input('a', draw('input/a'));
  const c = b.input('b', draw('input/b'));
  b.output(b.node('Add', 'add', [a, c], {}, { out: 'sum' }));
  return b;
}
