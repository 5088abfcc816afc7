// Front-end figures for microLlama64_parallel: ONNX parse (baseline: the raw protobuf decode)
// and the reference interpreter (baseline: a bare int32 multiply-accumulate loop doing the
// network's arithmetic work, so the ratio is the interpreter's overhead).
import { readFileSync } from 'node:fs';
import { interpret } from '../src/compiler/interpret/interpret';
import { bindNpzInputs } from '../src/compiler/interpret/npz-io';
import { readNpz } from '../src/compiler/npz';
import { proto } from '../src/compiler/onnx/proto';
import { readOnnx } from '../src/compiler/onnx/read';
import { analyze } from '../src/compiler/shapes/infer';
import type { Bench } from './harness';
import { timeBest } from './harness';
import { sharedTest } from './paths';

const LLAMA = 'Models/microLlama/INT8/microLlama64_parallel';

export const parseBench: Bench = {
  name: 'parse',
  run: async () => {
    const bytes = new Uint8Array(readFileSync(sharedTest(`${LLAMA}/network.onnx`)));
    const decode = await timeBest(() => proto.ModelProto.decode(bytes), 5);
    const parse = await timeBest(() => analyze(readOnnx(bytes, 'network.onnx')), 5);
    return [{
      name: 'parse + shape inference, microLlama64_parallel (Node)', value: parse, unit: 'ms',
      baseline: { name: 'protobuf decode only', value: decode },
      note: `${(bytes.length / 1024).toFixed(0)} KiB, 505 nodes`,
    }];
  },
};

export const interpretBench: Bench = {
  name: 'interpret',
  run: async () => {
    const { graph, work } = analyze(readOnnx(readFileSync(sharedTest(`${LLAMA}/network.onnx`)), 'network.onnx'));
    const { inputs } = bindNpzInputs(graph, readNpz(readFileSync(sharedTest(`${LLAMA}/inputs.npz`)), 'inputs.npz'), 'inputs.npz');
    const ms = await timeBest(() => interpret(graph, inputs), 3);
    const macs = await timeBest(() => macLoop(work), 3);
    return [{
      name: 'reference interpreter, microLlama64_parallel (Node)', value: ms, unit: 'ms',
      baseline: { name: `bare int32 MAC loop, same ${(work / 1e6).toFixed(1)} M ops`, value: macs },
    }];
  },
};

/** `n` int8 x int8 multiply-accumulates over 64 KiB operands: the floor for any integer kernel in JS. */
function macLoop(n: number): number {
  const a = new Int8Array(1 << 16), b = new Int8Array(1 << 16);
  for (let i = 0; i < a.length; i++) { a[i] = (i * 37) & 127; b[i] = (i * 91) & 127; }
  let acc = 0;
  for (let done = 0; done < n; done += a.length)
    for (let i = 0; i < a.length; i++) acc = (acc + a[i] * b[i]) | 0;
  return acc;
}
