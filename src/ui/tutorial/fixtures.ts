// Fixtures for the tutorial's tests: a World around an app view, layer facts and run records
// with chosen figures. Pure (the tests that compile real models do it themselves).
import { DEFAULT_CONFIG, type Config } from '../../compiler/config';
import type { AppView, LayerFacts, RunRecord, World } from './types';

export const world = (app: AppView, extra: Partial<World> = {}): World => ({ app, runs: [], visible: { graph: true, code: true, memory: true, run: true }, ...extra });

export function layer(node: string, engine: string, cycles: number, more: Partial<LayerFacts> = {}): LayerFacts {
  return {
    node, op: 'RequantizedGemm', engine, cycles, tiles: 1, npu: 0, dmaBytes: 0, busy: 0, instructions: 0, l2: 0, idle: 0,
    phases: { 'dma-in': 0, 'dma-wait': 0, kernel: cycles, 'dma-out': 0, control: 0 }, ...more,
  };
}

let seq = 0;
/** A finished run of `model` with Errors 0 (unless `more` says otherwise). */
export function rec(model: string, config: Partial<Config>, cycles: number, more: Partial<RunRecord> = {}): RunRecord {
  return { seq: ++seq, model, config: { ...DEFAULT_CONFIG, ...config }, edited: false, cycles, errors: 0, total: 100, network: cycles, layers: [], ...more };
}
