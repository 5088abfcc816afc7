// The tile stage on every shared Deeploy test and built-in model, at the L1 sizes the tutorial
// uses: a plan the independent checker accepts, or an actionable "does not fit" whose suggested
// L1 then works.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PlaygroundError } from '../../common/errors';
import { DEFAULT_CONFIG, type Config, type PlatformName } from '../config';
import { findTestDirs, SHARED_TESTS } from '../../testing/corpus';
import { bindNpzInputs } from '../interpret/npz-io';
import { lowerGraph } from '../lower/lower';
import { readNpz } from '../npz';
import { readOnnx } from '../onnx/read';
import { inferTypes } from '../shapes/infer';
import type { MilpSolver } from './milp';
import { nodeMilp } from '../../pipeline/node/milp';
import { planMemory } from './plan';
import { missing, SHARED_TESTS as SHARED_TESTS_NEED } from '../../testing/requires';

const MODELS = fileURLToPath(new URL('../../../public/models/', import.meta.url));
const builtins = existsSync(join(MODELS, 'index.json'))
  ? (JSON.parse(readFileSync(join(MODELS, 'index.json'), 'utf8')) as { id: string }[]).map((m) => join(MODELS, m.id)).filter((d) => existsSync(join(d, 'network.onnx')))
  : [];
const dirs = [...(missing(SHARED_TESTS_NEED) ? [] : findTestDirs(SHARED_TESTS)), ...builtins];
const L1_SIZES = [8000, 16000, 32000, 64000];
const CONFIGS: [PlatformName, boolean][] = [['siracusa', false], ['siracusa-neureka', true]];

let solver: MilpSolver;
beforeAll(async () => { solver = await nodeMilp(); });

describe.each(CONFIGS)('tiling every shared test and built-in model on %s (double buffering %s)', (platform, doubleBuffer) => {
  it.each(dirs.map((d) => [d.replace(/.*deeploy-tests\/|.*public\/models\//, ''), d]))('%s', async (_name, dir) => {
    const g = inferTypes(readOnnx(readFileSync(join(dir, 'network.onnx')), 'network.onnx'));
    const inputs = bindNpzInputs(g, readNpz(readFileSync(join(dir, 'inputs.npz')), 'inputs.npz'), 'inputs.npz').inputs;
    const base: Config = { ...DEFAULT_CONFIG, platform, doubleBuffer };
    const lower = lowerGraph(g, base, { check: 'none', inputs });
    expect(lower.failures).toEqual([]);
    for (const l1 of L1_SIZES) {
      const cfg = { ...base, l1 };
      try {
        const plan = await planMemory(lower, cfg, { solver });
        expect(plan.check.problems, `L1 ${l1}`).toEqual([]);
        expect(plan.levels[0].used, `L1 ${l1}`).toBeLessThanOrEqual(l1);
      } catch (e) {
        if (!(e instanceof PlaygroundError) || e.data.code !== 'does-not-fit') throw e;
        const need = Number(/an L1 of at least (\d+) B/.exec(e.data.hint ?? '')?.[1]);
        expect(need, e.message).toBeGreaterThan(l1);
        expect((await planMemory(lower, { ...cfg, l1: need }, { solver })).check.ok, `suggested L1 ${need}`).toBe(true);
      }
    }
  });
});
