// Front-end figures: ONNX parse of microLlama64_parallel (raw protobuf decode as the baseline).
import { readFileSync } from 'node:fs';
import { proto } from '../src/compiler/onnx/proto';
import { readOnnx } from '../src/compiler/onnx/read';
import type { Bench } from './harness';
import { timeBest } from './harness';
import { sharedTest } from './paths';

export const parseBench: Bench = {
  name: 'parse',
  run: async () => {
    const bytes = new Uint8Array(readFileSync(sharedTest('Models/microLlama/INT8/microLlama64_parallel/network.onnx')));
    const decode = await timeBest(() => proto.ModelProto.decode(bytes), 5);
    const parse = await timeBest(() => readOnnx(bytes, 'network.onnx'), 5);
    return [{
      name: 'parse microLlama64_parallel (Node)', value: parse, unit: 'ms',
      baseline: { name: 'protobuf decode only', value: decode },
      note: `${(bytes.length / 1024).toFixed(0)} KiB, 505 nodes`,
    }];
  },
};
