// npm run models [-- --out DIR] [--verbose] [--check]
//
// Writes the built-in models to public/models/<id>/{network.onnx, inputs.npz, outputs.npz} and
// their list to public/models/index.json. Everything is deterministic (seeded, no clock), so a
// rerun rewrites nothing; the golden outputs come from the reference interpreter run on the
// ONNX bytes as written. --check writes nothing and fails if a file is missing or differs.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { interpret } from '../../src/compiler/interpret/interpret';
import type { Graph } from '../../src/compiler/ir/graph';
import { writeNpy } from '../../src/compiler/npz';
import { readOnnx } from '../../src/compiler/onnx/read';
import { writeOnnx } from '../../src/compiler/onnx/write';
import { fromIntTensor } from '../../src/compiler/ops/core/convert';
import type { IntTensor } from '../../src/compiler/ops/core/tensor';
import type { Activation, GraphBuilder } from './builder';
import { adder } from './nets/adder';
import { DECODE, microLlama, PREFILL } from './nets/llama';
import { miniMobileNetV2 } from './nets/mobilenet';
import { miniResNet } from './nets/resnet';
import { transformerBlock } from './nets/transformer';
import { sparkline, tensorStats } from './stats';

/** The seed every model is drawn from (prefill and decode must share it: same weights). */
export const SEED = 2024;

export interface ModelEntry {
  id: string;
  name: string;
  description: string;
  files: { model: string; inputs: string; outputs: string };
}

export interface BuiltModel {
  entry: ModelEntry;
  builder: GraphBuilder;
  graph: Graph;
  onnx: Uint8Array;
  inputs: Uint8Array;
  outputs: Uint8Array;
  /** Golden outputs as the interpreter computed them from the ONNX bytes. */
  outputValues: IntTensor[];
}

const DESCRIPTIONS: Record<string, [name: string, description: string]> = {
  adder: ['Adder',
    'Two int8 tensors [1,8,16,16] added elementwise: the first network of Deeploy\'s tutorial. ' +
    'A single node, so every stage of the compiler is easy to follow; note the sum needs more than 8 bits.'],
  'mini-mobilenetv2': ['Mini MobileNetV2',
    'A MobileNetV2-style int8 CNN classifying a 32x32 RGB picture into 10 classes: a conv stem, three inverted ' +
    'residual blocks (1x1 expand, 3x3 depthwise, 1x1 project) and a Gemm. Watch each Conv + RequantShift pair ' +
    'become one RequantizedConv, and the residual Add with its requants become a RequantizedAdd.'],
  'mini-resnet': ['Mini ResNet',
    'A ResNet-style int8 CNN classifying a 64x64 RGB picture into 10 classes: a strided 3x3 stem, a bottleneck ' +
    'block (1x1 reduce, 3x3, 1x1 expand) with an identity skip and a downsampling one whose skip is a strided 1x1 ' +
    'conv, max pooling and a Gemm. Its 32x32 layers are tiled at L1 8000, the first residual Add even at 64000: ' +
    'see the halos of the 3x3 tiles and the im2col scratch in the memory pane.'],
  'transformer-block': ['Transformer block',
    'One int8 encoder block (16 tokens, width 64, 4 heads of 16): iLayerNorm, Q/K/V projections as ' +
    'MatMul + Add + RequantShift, heads split with Reshape/Transpose, TrueIntegerDiv scaling, iSoftmax, ' +
    'an iGELU MLP and residual sums. Look at how the attention MatMuls and the softmax are tiled.'],
  'microllama-prefill': ['microLlama prefill (64 tokens)',
    'The tutorial\'s 8-layer int8 Llama decoder (width 64, 16 heads of 4, MLP 256) run over 64 tokens in ' +
    'parallel: causal mask, RoPE, iRMSNorm, iHardswish-gated MLP. The KV-cache inputs are empty; the ' +
    'filled caches are outputs, and the empty Concats are what Siracusa\'s lowering skips.'],
  'microllama-decode': ['microLlama decode (1 token)',
    'The same network and weights, one token at a time: the 64th token attends to the 63 cached keys and ' +
    'values (the prefill\'s own caches) and appends its own. Its outputs equal the last row of the prefill ' +
    'bit for bit: compare the two to see what a KV cache saves.'],
};

function entryOf(id: string): ModelEntry {
  const [name, description] = DESCRIPTIONS[id];
  return { id, name, description, files: { model: `${id}/network.onnx`, inputs: `${id}/inputs.npz`, outputs: `${id}/outputs.npz` } };
}

/** npz array names: the graph's I/O names, with '/' (a folder in a zip) replaced by '.'. */
const npzName = (t: string) => t.replace(/\//g, '.');

/** DOS timestamps in a zip are local time: a date built from local fields is the same bytes in every time zone. */
const ZIP_TIME = new Date(1980, 0, 1, 0, 0, 0);

/** An .npz of int64 arrays (as Deeploy's test networks store them), byte-identical on every run. */
export function int64Npz(arrays: { name: string; value: IntTensor }[]): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const { name, value } of arrays)
    files[`${npzName(name)}.npy`] = writeNpy({ dtype: 'int64', shape: value.shape, data: fromIntTensor(value, 'int64') });
  return zipSync(files, { level: 9, mtime: ZIP_TIME });
}

function finish(id: string, b: GraphBuilder): BuiltModel {
  const graph = b.graph();
  const onnx = writeOnnx(graph);
  // The golden outputs: the reference interpreter on the file as written (not the builder's values).
  const ran = interpret(readOnnx(onnx, `${id}/network.onnx`), b.inputValues, { inputsName: `${id}/inputs.npz` });
  const outputValues = ran.map((t) => ({ shape: t.shape, data: t.data as Float64Array }));
  // ... which must agree with what the builder computed node by node.
  b.outputValues().forEach((v, i) => {
    if (v.data.some((x, j) => x !== outputValues[i].data[j])) throw new Error(`${id}: output ${i} differs between builder and interpreter`);
  });
  return {
    entry: entryOf(id), builder: b, graph, onnx, outputValues,
    inputs: int64Npz(b.inputs.map((v, i) => ({ name: v.name, value: b.inputValues[i] }))),
    outputs: int64Npz(b.outputs.map((v, i) => ({ name: v.name, value: outputValues[i] }))),
  };
}

/** Builds every built-in model in memory, in the order the app lists them. */
export function buildModels(seed = SEED): BuiltModel[] {
  const prefill = finish('microllama-prefill', microLlama('microllama-prefill', seed, PREFILL));
  const caches = prefill.outputValues.slice(1);
  const decode = finish('microllama-decode',
    microLlama('microllama-decode', seed, DECODE, { calibration: prefill.builder.calibration, caches }));
  return [
    finish('adder', adder(seed)),
    finish('mini-mobilenetv2', miniMobileNetV2(seed)),
    finish('mini-resnet', miniResNet(seed)),
    finish('transformer-block', transformerBlock(seed)),
    prefill,
    decode,
  ];
}

/** Every file of the models directory, by path relative to it. */
export function modelFiles(models: BuiltModel[]): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const m of models) {
    files.set(m.entry.files.model, m.onnx);
    files.set(m.entry.files.inputs, m.inputs);
    files.set(m.entry.files.outputs, m.outputs);
  }
  files.set('index.json', new TextEncoder().encode(`${JSON.stringify(models.map((m) => m.entry), null, 2)}\n`));
  return files;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Writes the files that differ from what `dir` holds; returns the paths written. */
export function writeModels(dir: string, files: Map<string, Uint8Array>): string[] {
  const written: string[] = [];
  for (const [path, bytes] of files) {
    const full = join(dir, path);
    if (existsSync(full) && sameBytes(new Uint8Array(readFileSync(full)), bytes)) continue;
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, bytes);
    written.push(path);
  }
  return written;
}

/** Paths in `files` that `dir` lacks or holds different bytes for. */
export function staleFiles(dir: string, files: Map<string, Uint8Array>): string[] {
  return [...files].filter(([path, bytes]) => {
    const full = join(dir, path);
    return !existsSync(full) || !sameBytes(new Uint8Array(readFileSync(full)), bytes);
  }).map(([path]) => path);
}

// ---------------------------------------------------------------------------------------------
// Summary

function opHistogram(g: Graph): string {
  const h = new Map<string, number>();
  for (const n of g.nodes) h.set(n.op, (h.get(n.op) ?? 0) + 1);
  return [...h].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([op, n]) => `${op} ${n}`).join(', ');
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const pct = (f: number) => `${(100 * f).toFixed(1)}%`;

function statLine(label: string, a: Pick<Activation, 'min' | 'max' | 'std' | 'clipped' | 'zeros' | 'hist'>): string {
  return `    ${label.padEnd(44)} [${String(a.min).padStart(7)}, ${String(a.max).padStart(7)}] std ${a.std.toFixed(1).padStart(7)}` +
    `  clip ${pct(a.clipped).padStart(5)}  zero ${pct(a.zeros).padStart(5)}  ${sparkline(a.hist)}`;
}

export function summary(models: BuiltModel[], verbose = false): string {
  const out: string[] = [];
  for (const m of models) {
    const { builder: b, graph: g } = m;
    out.push(`${m.entry.id}: ${g.nodes.length} nodes (${opHistogram(g)})`);
    out.push(`  ${b.parameterCount()} parameters; network.onnx ${kb(m.onnx.length)}, inputs.npz ${kb(m.inputs.length)}, outputs.npz ${kb(m.outputs.length)}`);
    out.push('  outputs:');
    g.outputs.forEach((o, i) => out.push(statLine(`${o.name} [${o.shape.join(',')}]`, tensorStats(m.outputValues[i].data))));
    const acts = b.activations.filter((a) => a.kind === 'int8');
    const worstClip = acts.reduce((w, a) => (a.clipped > w.clipped ? a : w), acts[0]);
    const leastSpread = acts.reduce((w, a) => (a.std < w.std ? a : w), acts[0]);
    if (acts.length) {
      out.push(`  ${acts.length} int8 activations: most clipped ${worstClip.tensor} (${pct(worstClip.clipped)}), ` +
        `least spread ${leastSpread.tensor} (std ${leastSpread.std.toFixed(1)})`);
    }
    const shown = verbose ? b.activations.filter((a) => a.kind !== 'shape')
      : b.activations.filter((a) => a.kind === 'int8' || a.kind === 'prob').filter((a) => !/^layer[1-6]\//.test(a.tensor));
    if (shown.length) {
      out.push(verbose ? '  activations:' : '  activations (int8 and softmax; llama layers 0 and 7 only, --verbose for all):');
      for (const a of shown) out.push(statLine(`${a.tensor} (${a.kind})`, a));
    }
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------

export const DEFAULT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../public/models');

function main(argv: string[]): number {
  const arg = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dir = resolve(arg('--out') ?? DEFAULT_DIR);
  const t0 = performance.now();
  const models = buildModels();
  const files = modelFiles(models);
  const ms = performance.now() - t0;
  if (argv.includes('--check')) {
    const stale = staleFiles(dir, files);
    if (stale.length) {
      console.error(`models: ${stale.length} file(s) in ${dir} are missing or out of date: ${stale.join(', ')}\nrun npm run models`);
      return 1;
    }
    console.log(`models: ${files.size} files in ${dir} are up to date (${ms.toFixed(0)} ms)`);
    return 0;
  }
  const written = writeModels(dir, files);
  const quiet = argv.includes('--quiet');
  if (!quiet) console.log(summary(models, argv.includes('--verbose')));
  console.log(`models: ${models.length} models built in ${ms.toFixed(0)} ms; ` +
    (written.length ? `wrote ${written.length} file(s) to ${dir}` : `${dir} already up to date`));
  return 0;
}

if (/generate\.ts$/.test(process.argv[1] ?? '')) process.exitCode = main(process.argv.slice(2));
