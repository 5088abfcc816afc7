// Node only: `dpg run --cc builtin`. The builtin toolchain's run (builtin.ts) with the simulator
// loaded from disk and an object cache on disk beside the in-memory one, in
// $TMPDIR/dpg-cc-objects (like the clang build's), keyed by the compiler's own sources too: an
// object made by an older compiler is never reused.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CodegenResult } from '../../compiler/codegen/types';
import type { Config } from '../../compiler/config';
import type { AsmObject } from '../asm/types';
import type { Machine } from '../machine';
import { nodeMachine } from '../node';
import { DEFAULT_CACHE, runBuiltin, type BuildOptions, type CachedUnit, type ObjectCache, type UnitDeps } from './builtin';
import type { RunContext, RunResult } from './types';

export const OBJECT_DIR = join(tmpdir(), 'dpg-cc-objects');
const SIM_DIR = fileURLToPath(new URL('../', import.meta.url));

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Every source file of the compiler, assembler and the headers it embeds: the cache's notion of "the compiler". */
function compilerFingerprint(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const f of readdirSync(dir).sort()) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|h)$/.test(f) && !/\.test(-data)?\.ts$/.test(f)) hash.update(f).update('\0').update(readFileSync(p));
    }
  };
  for (const d of ['cc', 'asm']) walk(join(SIM_DIR, d));
  return hash.digest('hex');
}

/**
 * Taken when this module loads, with the compiler's modules: taken at the first compile instead,
 * a process that loaded the compiler before its sources were edited would file its objects under
 * the edited compiler's name.
 */
const FINGERPRINT = compilerFingerprint();

interface StoredUnit {
  deps: [string, string | null][];
  object: Omit<AsmObject, 'sections'> & { sections: (Omit<AsmObject['sections'][number], 'data'> & { data: string })[] };
  asm: string;
}

const toStored = (deps: UnitDeps, u: CachedUnit): StoredUnit => ({
  deps: deps.map(([p, t]) => [p, t === undefined ? null : sha(t)]),
  object: { ...u.object, sections: u.object.sections.map((s) => ({ ...s, data: Buffer.from(s.data).toString('base64') })) },
  asm: u.asm,
});

const fromStored = (s: StoredUnit): CachedUnit => ({
  object: { ...s.object, sections: s.object.sections.map((x) => ({ ...x, data: new Uint8Array(Buffer.from(x.data, 'base64')) })) },
  asm: s.asm,
  files: s.deps.map(([p]) => p),
});

/**
 * Objects on disk: one file per unit key and main file text, holding the last few variants (their
 * included files' hashes). A corrupt or unreadable file is a miss.
 */
export class DiskObjectCache implements ObjectCache {
  constructor(private readonly dir = OBJECT_DIR) {}

  private fileOf(key: string, main: string, read: (path: string) => string | undefined): string {
    return join(this.dir, `${sha(`${FINGERPRINT}\0${key}\0${read(main) ?? ''}`).slice(0, 32)}.json`);
  }

  private load(file: string): StoredUnit[] {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as StoredUnit[];
    } catch {
      return [];
    }
  }

  get(key: string, main: string, read: (path: string) => string | undefined): CachedUnit | undefined {
    const hashes = new Map<string, string | null>();
    const hashOf = (p: string) => {
      if (!hashes.has(p)) { const t = read(p); hashes.set(p, t === undefined ? null : sha(t)); }
      return hashes.get(p);
    };
    const hit = this.load(this.fileOf(key, main, read)).find((s) => s.deps.every(([p, h]) => hashOf(p) === h));
    return hit && fromStored(hit);
  }

  put(key: string, main: string, deps: UnitDeps, unit: CachedUnit): void {
    const texts = new Map(deps);
    const file = this.fileOf(key, main, (p) => texts.get(p));
    const variants = [toStored(deps, unit), ...this.load(file)].slice(0, 4);
    mkdirSync(this.dir, { recursive: true });
    // Write and rename: a concurrent reader sees the old file or the new one, never half of one.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(variants));
    renameSync(tmp, file);
  }
}

/** Memory first, then disk; a disk hit is kept in memory too. */
export function layeredCache(memory: ObjectCache, disk: ObjectCache): ObjectCache {
  return {
    get(key, main, read) {
      const m = memory.get(key, main, read);
      if (m) return m;
      const d = disk.get(key, main, read);
      if (d?.files) memory.put(key, main, d.files.map((p) => [p, read(p)] as const), d);
      return d;
    },
    put(key, main, deps, unit) {
      memory.put(key, main, deps, unit);
      disk.put(key, main, deps, unit);
    },
  };
}

let machine: Promise<Machine> | undefined;
const disk = new DiskObjectCache();
const cache = layeredCache(DEFAULT_CACHE, disk);

/** `--cc builtin` in Node: the builtin toolchain, the disk-backed cache, the simulator from disk; `opt` and `disable` choose how it compiles. */
export function runBuiltinNode(code: CodegenResult, config: Config, opts: RunContext & Pick<BuildOptions, 'opt' | 'disable'> = {}): Promise<RunResult> {
  return runBuiltin(code, config, { ...opts, cache, machine: () => (machine ??= nodeMachine()) });
}
