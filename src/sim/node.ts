// Node-only: the built wasm core from disk, built first if missing or older than its sources.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMachine } from './index';
import type { Machine } from './machine';

export const WASM_PATH = fileURLToPath(new URL('./build/sim.wasm', import.meta.url));

function newestSource(): number {
  let t = 0;
  for (const dir of ['isa', 'as', 'gen']) {
    const d = fileURLToPath(new URL(`./${dir}/`, import.meta.url));
    for (const f of readdirSync(d)) if (f.endsWith('.ts') && !f.endsWith('.test.ts')) t = Math.max(t, statSync(join(d, f)).mtimeMs);
  }
  return t;
}

let building: Promise<void> | undefined;
/** The wasm bytes, rebuilding them (npm run build:sim) when stale. */
export async function simWasmBytes(): Promise<Uint8Array> {
  if (!existsSync(WASM_PATH) || statSync(WASM_PATH).mtimeMs < newestSource()) {
    building ??= import('./gen/build').then((m) => m.buildSim({ quiet: true })).then(() => undefined);
    await building;
  }
  return new Uint8Array(readFileSync(WASM_PATH));
}

export async function nodeMachine(): Promise<Machine> {
  return createMachine(await simWasmBytes());
}
