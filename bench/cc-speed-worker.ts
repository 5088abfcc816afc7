// The cc-speed benchmark's worker: the builtin toolchain (src/sim/run/builtin.ts) as the app's
// pipeline worker runs it, bundled by Vite (no tsx wrappers), in a fresh worker, so the first
// build is as cold (JIT) as the app's first run. It runs in Chromium's Worker and in a Node worker
// thread (bench/cc-speed.ts gives it `self`, `postMessage` and `onmessage` there); it imports no
// Node module. Requests and replies are plain data.
import type { CodegenResult } from '../src/compiler/codegen/types';
import type { Config } from '../src/compiler/config';
import { createMachine } from '../src/sim/index';
import { buildSiracusa, MemoryObjectCache, runBuiltin } from '../src/sim/run/builtin';
import type { BuildStats } from '../src/sim/run/types';

export type CcSpeedRequest =
  /** Builds the program `times` times, each with an empty object cache (the first is the worker's cold build). */
  | { kind: 'build'; code: CodegenResult; runtime: string; times: number }
  /** Runs the program (cache filled), then with `file` replaced by `text`: the edit loop. */
  | { kind: 'edit'; code: CodegenResult; config: Config; wasmBase64: string; file: string; text: string };

export interface BuildFigures {
  /** buildSiracusa's whole time: compile + link. */
  ms: number;
  compileMs: number;
  linkMs: number;
  /** Milliseconds per stage, summed over the units (preprocess, parse, lower, opt, codegen, assemble; link). */
  stages: Record<string, number>;
  slowest: string;
}

export interface EditFigures {
  /** From the edited program handed over to the new Runtime: compile, link, simulate. */
  ms: number;
  compiled: number;
  cached: number;
  compileMs: number;
  linkMs: number;
  runMs: number;
  cycles: number;
  errors: number;
  /** The first run's whole time (everything compiled, cold). */
  firstMs: number;
}

export type CcSpeedReply = { ok: BuildFigures[] | EditFigures } | { error: string };

function figures(ms: number, s: BuildStats): BuildFigures {
  const stages: Record<string, number> = {};
  for (const u of s.units) for (const [k, v] of Object.entries(u.stages ?? {})) stages[k] = (stages[k] ?? 0) + v;
  stages.link = s.linkMs;
  const slow = [...s.units].sort((a, b) => b.ms - a.ms)[0];
  return { ms, compileMs: s.compileMs, linkMs: s.linkMs, stages, slowest: slow ? `${slow.path} ${slow.ms.toFixed(0)} ms` : '' };
}

async function handle(req: CcSpeedRequest): Promise<BuildFigures[] | EditFigures> {
  if (req.kind === 'build') {
    const out: BuildFigures[] = [];
    for (let i = 0; i < req.times; i++) {
      const t0 = performance.now();
      const b = await buildSiracusa(req.code, req.runtime, { cache: new MemoryObjectCache() });
      out.push(figures(performance.now() - t0, b.stats));
    }
    return out;
  }
  const wasm = Uint8Array.from(atob(req.wasmBase64), (c) => c.charCodeAt(0));
  const machine = createMachine(wasm);
  const cache = new MemoryObjectCache();
  const t0 = performance.now();
  await runBuiltin(req.code, req.config, { cache, machine: () => machine });
  const firstMs = performance.now() - t0;
  const t1 = performance.now();
  const r = await runBuiltin(req.code, req.config, { cache, machine: () => machine, edits: { [req.file]: req.text } });
  const ms = performance.now() - t1;
  const b = r.sim?.build;
  return {
    ms, compiled: b?.compiled ?? NaN, cached: b?.cached ?? NaN, compileMs: b?.compileMs ?? NaN, linkMs: b?.linkMs ?? NaN,
    runMs: r.sim?.runMs ?? NaN, cycles: r.cycles ?? NaN, errors: r.errors ?? NaN, firstMs,
  };
}

const scope = self as unknown as { onmessage: ((e: { data: CcSpeedRequest }) => void) | null; postMessage(m: unknown): void };
scope.onmessage = (e) => {
  handle(e.data).then(
    (ok) => scope.postMessage({ ok } satisfies CcSpeedReply),
    (err: unknown) => scope.postMessage({ error: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err) } satisfies CcSpeedReply),
  );
};
scope.postMessage('ready');
