// The fuzz and round-trip corpus: every folder with a network.onnx under a root (the shared
// Deeploy test vectors), found by walking the tree, never from a list of names. Node only.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scopeOf } from './scope';

export interface TestCase {
  /** Path of the folder relative to the root, e.g. "Kernels/Integer/Add/Regular". */
  name: string;
  dir: string;
  onnx: Uint8Array;
  inputs?: Uint8Array;
  outputs?: Uint8Array;
}

/** The shared test vectors: ../shared/deeploy-tests beside the repository. */
export const SHARED_TESTS = new URL('../../../shared/deeploy-tests/', import.meta.url);

/**
 * Folders under `root` holding a network.onnx, sorted by name: those today's playground runs
 * (scope.ts: integer networks of built-in ops), or with 'all' every one.
 */
export function findTestDirs(root: URL | string = SHARED_TESTS, which: 'inside' | 'all' = 'inside'): string[] {
  const base = typeof root === 'string' ? root : fileURLToPath(root);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir).sort()) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e === 'network.onnx') found.push(dir);
    }
  };
  walk(base);
  return found.sort().filter((d) => which === 'all' || scopeOf(d).inside);
}

export function loadTestCase(dir: string, root: URL | string = SHARED_TESTS): TestCase {
  const base = typeof root === 'string' ? root : fileURLToPath(root);
  const opt = (f: string) => (existsSync(join(dir, f)) ? new Uint8Array(readFileSync(join(dir, f))) : undefined);
  return {
    name: relative(base, dir),
    dir,
    onnx: new Uint8Array(readFileSync(join(dir, 'network.onnx'))),
    inputs: opt('inputs.npz'),
    outputs: opt('outputs.npz'),
  };
}

export function loadCorpus(root: URL | string = SHARED_TESTS): TestCase[] {
  return findTestDirs(root).map((d) => loadTestCase(d, root));
}
