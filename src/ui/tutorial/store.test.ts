// The tutorial's store in the app: the recorder turns finished runs and stopped compiles of the
// app's store into run records; a check's pass is kept; progress survives a reload through
// localStorage (a fresh module reading what the last one wrote) and can be set from a link.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONFIG } from '../../compiler/config';
import type { RunResult } from '../../sim/run/types';
import { freshStages } from '../stageViews';
import { rec } from './fixtures';
import { PROGRESS_KEY, RUNS_KEY } from './progress';
import { DECODE } from './steps/part2';

class MemoryStorage {
  items = new Map<string, string>();
  getItem(k: string) { return this.items.get(k) ?? null; }
  setItem(k: string, v: string) { this.items.set(k, v); }
  removeItem(k: string) { this.items.delete(k); }
}

let storage: MemoryStorage;
const load = async () => {
  vi.resetModules();
  return { tut: await import('./store'), app: await import('../store') };
};

beforeEach(() => {
  storage = new MemoryStorage();
  vi.stubGlobal('window', { localStorage: storage });
});
afterEach(() => { vi.unstubAllGlobals(); });

const result = (cycles: number): RunResult => ({ target: 'simulator', compiler: 'builtin', stdout: '', exitCode: 0, cycles, errors: 0, total: 10 });

describe('the recorder', () => {
  it('records each finished run once, with the compiled configuration and the model, and compiles a stage stopped', async () => {
    const { tut, app } = await load();
    const stop = tut.startRecorder();
    const config = { ...DEFAULT_CONFIG, tiled: false, cores: 1 };
    const model = { name: 'network.onnx', bytes: new Uint8Array(), builtinId: DECODE };
    app.useStore.setState({ model, compiledConfig: config, runStatus: 'running', stages: freshStages() });
    const r1 = result(8_000_000);
    app.useStore.setState((s) => ({ stages: { ...s.stages, run: { status: 'done', result: r1 } } }));
    app.useStore.setState({ runStatus: 'done' }); // later updates of the same run add nothing
    expect(tut.useTutorial.getState().runs).toMatchObject([{ seq: 1, model: DECODE, config, cycles: 8_000_000, errors: 0, edited: false }]);
    // A run of edited code is marked so.
    app.useStore.setState({ runStatus: 'running', runEdits: { 'Network.c': 'int x;' } });
    app.useStore.setState((s) => ({ runStatus: 'done', stages: { ...s.stages, run: { status: 'done', result: result(7_000_000) } } }));
    expect(tut.useTutorial.getState().runs[1]).toMatchObject({ seq: 2, edited: true, cycles: 7_000_000 });
    // A compile the tiler stopped.
    const small = { ...DEFAULT_CONFIG, l2: 100_000 };
    app.useStore.setState({ compiledConfig: small, runStatus: 'running', runEdits: {}, stages: freshStages() });
    app.useStore.setState((s) => ({ runStatus: 'failed', stages: { ...s.stages, tile: { status: 'error', error: { code: 'bad-config', what: 'needs 749536 B of L2' } } } }));
    expect(tut.useTutorial.getState().runs[2]).toMatchObject({ seq: 3, config: small, failed: { stage: 'tile', what: 'needs 749536 B of L2' }, layers: [] });
    stop();
    app.useStore.setState((s) => ({ stages: { ...s.stages, run: { status: 'done', result: result(1) } } }));
    expect(tut.useTutorial.getState().runs).toHaveLength(3);
  });
});

describe('progress across reloads and links', () => {
  it('keeps passes, answers, the open step and the runs in localStorage, and reads them back', async () => {
    const first = await load();
    const { tut } = first;
    tut.openTutorial(true);
    tut.goToStep('cores');
    tut.setAnswer('cores', 'speedup', '5');
    tut.useTutorial.setState({ runs: [rec(DECODE, { platform: 'siracusa', tiled: false, cores: 1 }, 8_000_000), rec(DECODE, { platform: 'siracusa', tiled: false, cores: 8 }, 1_600_000)] });
    const r = tut.checkStep('cores', { app: first.app.useStore.getState(), runs: tut.useTutorial.getState().runs, visible: {} });
    expect(r?.status).toBe('passed');
    expect(tut.tutorialProgress()).toEqual({ step: 'cores', passed: ['cores'] });
    expect(storage.getItem(PROGRESS_KEY)).toContain('"speedup":"5"');

    const again = await load(); // a reload
    expect(again.tut.useTutorial.getState()).toMatchObject({ open: true, step: 'cores', passed: ['cores'], answers: { cores: { speedup: '5' } } });
    expect(again.tut.useTutorial.getState().runs.map((x) => x.cycles)).toEqual([8_000_000, 1_600_000]);
    expect(again.tut.stepStatus(again.tut.useTutorial.getState(), 'cores')).toBe('passed');
  });

  it('starts fresh from a malformed store, and takes progress from a link only when it is valid', async () => {
    storage.setItem(PROGRESS_KEY, '{"v":1,"open":true,"step":"cores","passed":["cores","nope"],"answers":{}}');
    storage.setItem(RUNS_KEY, '{"v":1,"runs":[{"seq":"x"}]}');
    const { tut } = await load();
    expect(tut.tutorialProgress()).toEqual({ step: 'graph-add', passed: [] });
    expect(tut.useTutorial.getState().runs).toEqual([]);
    const seen: unknown[] = [];
    const stop = tut.subscribeTutorialProgress((p) => seen.push(p));
    tut.setAnswer('cores', 'speedup', '3'); // not progress
    tut.goToStep('cores');
    stop();
    tut.goToStep('tiling');
    expect(seen).toEqual([{ step: 'cores', passed: [] }]);
    expect(tut.setTutorialProgress({ step: 'tiling', passed: ['graph-add', 'cores'] })).toBe(true);
    expect(tut.tutorialProgress()).toEqual({ step: 'tiling', passed: ['graph-add', 'cores'] });
    expect(tut.setTutorialProgress({ step: 'tiling', passed: ['javascript:alert(1)'] })).toBe(false);
    expect(tut.tutorialProgress()).toEqual({ step: 'tiling', passed: ['graph-add', 'cores'] });
    tut.resetTutorial();
    expect(tut.tutorialProgress()).toEqual({ step: 'graph-add', passed: [] });
  });

  it('a failed check keeps an earlier pass; a new pass is added in tutorial order', async () => {
    const { tut, app } = await load();
    tut.setTutorialProgress({ step: 'cores', passed: ['tiling'] });
    const w = { app: app.useStore.getState(), runs: [], visible: {} };
    expect(tut.checkStep('tiling', w)?.status).toBe('not-yet');
    expect(tut.stepStatus(tut.useTutorial.getState(), 'tiling')).toBe('passed');
    tut.setAnswer('cores', 'speedup', '4');
    const runs = [rec(DECODE, { platform: 'siracusa', tiled: false, cores: 1 }, 8_000_000), rec(DECODE, { platform: 'siracusa', tiled: false, cores: 8 }, 1_600_000)];
    expect(tut.checkStep('cores', { ...w, runs })?.status).toBe('failed');
    expect(tut.stepStatus(tut.useTutorial.getState(), 'cores')).toBe('failed');
    tut.setAnswer('cores', 'speedup', '5');
    expect(tut.checkStep('cores', { ...w, runs })?.status).toBe('passed');
    expect(tut.tutorialProgress().passed).toEqual(['cores', 'tiling']);
  });
});
