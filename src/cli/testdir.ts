// Loads what `-t` names: a Deeploy test folder (network.onnx, inputs.npz, outputs.npz) or a
// bare .onnx file (inputs.npz / outputs.npz beside it are used when present).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fail } from '../common/errors';
import type { PipelineInput } from '../pipeline/run';

export function loadTest(path: string | undefined): PipelineInput {
  if (!path) fail('bad-config', 'no model given', '-t', 'pass -t <test folder | model.onnx>');
  if (!existsSync(path)) fail('bad-file', 'no such file or folder', path);
  let dir = path;
  let model = join(path, 'network.onnx');
  if (statSync(path).isFile()) {
    dir = dirname(path);
    model = path;
  } else if (!existsSync(model)) {
    fail('bad-file', 'the folder has no network.onnx', path, 'a test folder holds network.onnx, inputs.npz and outputs.npz');
  }
  const optional = (name: string) => {
    const p = join(dir, name);
    return existsSync(p) ? new Uint8Array(readFileSync(p)) : undefined;
  };
  return {
    model: new Uint8Array(readFileSync(model)),
    modelName: statSync(path).isFile() ? basename(model) : model,
    inputs: optional('inputs.npz'),
    outputs: optional('outputs.npz'),
  };
}
