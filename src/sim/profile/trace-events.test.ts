import { describe, expect, it } from 'vitest';
import { traceEvents } from './trace-events';
import type { LayerProfile, RunProfile } from './types';
import { PHASES } from './types';

const layer = (index: number, node: string): LayerProfile => ({
  index, node, op: 'MatMul', kernel: 'gemm', engine: 'cluster', start: 0, end: 0, cycles: 0,
  phases: { 'dma-in': 0, 'dma-wait': 0, kernel: 0, 'dma-out': 0, control: 0 }, tiles: [], cores: [], dmaBytes: 0, npuCycles: 0,
});

/** Three spans: a kernel on the controller in layer 7 tile 2, a worker's busy span, startup outside the layers. */
function profile(): RunProfile {
  const rows = [
    { lane: 0, phase: 'other', layer: -1, tile: -1, start: 0, end: 100 },
    { lane: 0, phase: 'kernel', layer: 7, tile: 2, start: 100, end: 1100 },
    { lane: 3, phase: 'busy', layer: 7, tile: 2, start: 110, end: 1000 },
  ] as const;
  const n = rows.length;
  return {
    start: 100, end: 1100, total: 1200, runNetwork: 0,
    lanes: [{ id: 0, name: 'controller', kind: 'controller' }, { id: 3, name: 'core 2', kind: 'worker' }],
    layers: [layer(7, 'gemm_node')],
    spans: {
      count: n,
      lane: Uint8Array.from(rows.map((r) => r.lane)),
      phase: Uint8Array.from(rows.map((r) => PHASES.indexOf(r.phase))),
      layer: Int32Array.from(rows.map((r) => r.layer)),
      tile: Int32Array.from(rows.map((r) => r.tile)),
      start: Float64Array.from(rows.map((r) => r.start)),
      end: Float64Array.from(rows.map((r) => r.end)),
    },
    heat: { pc: new Uint32Array(0), cycles: new Float64Array(0), stalls: new Float64Array(0) },
    lines: [], cores: [], dropped: 0,
  };
}

describe('traceEvents', () => {
  it('writes one complete event per span, on its lane, in microseconds at 500 MHz', () => {
    const t = traceEvents(profile(), { model: 'tiny' });
    const x = t.traceEvents.filter((e) => e.ph === 'X');
    expect(x).toHaveLength(3);
    expect(x[1]).toEqual({
      name: 'gemm_node kernel', cat: 'kernel', ph: 'X', pid: 0, tid: 0, ts: 0.2, dur: 2,
      args: { phase: 'kernel', startCycle: 100, cycles: 1000, layer: 'gemm_node', op: 'MatMul', tile: 2 },
    });
    expect(x[2]).toMatchObject({ tid: 3, ts: 0.22, dur: 1.78, args: { layer: 'gemm_node', tile: 2, phase: 'busy' } });
    // Outside the layers: named by its phase, no layer or tile.
    expect(x[0]).toMatchObject({ name: 'other', ts: 0, dur: 0.2 });
    expect(x[0]!.args).not.toHaveProperty('layer');
    expect(x[0]!.args).not.toHaveProperty('tile');
    expect(t.displayTimeUnit).toBe('ns');
    expect(t.otherData).toMatchObject({ model: 'tiny', clockMHz: 500, totalCycles: 1200, networkCycles: 1000 });
    expect(String(t.otherData.clock)).toContain('500 MHz');
  });

  it('names every lane (thread_name) and keeps the lanes in the profile\'s order', () => {
    const m = traceEvents(profile()).traceEvents.filter((e) => e.ph === 'M');
    expect(m.filter((e) => e.name === 'thread_name').map((e) => [e.tid, e.args!.name])).toEqual([[0, 'controller'], [3, 'core 2']]);
    expect(m.filter((e) => e.name === 'thread_sort_index').map((e) => [e.tid, e.args!.sort_index])).toEqual([[0, 0], [3, 1]]);
    expect(m.find((e) => e.name === 'process_name')).toMatchObject({ pid: 0, args: { name: 'Siracusa' } });
  });

  it('takes another clock, and survives a JSON round trip as the Object Format', () => {
    const t = traceEvents(profile(), { clockMHz: 1000 });
    const back = JSON.parse(JSON.stringify(t)) as typeof t;
    expect(Array.isArray(back.traceEvents)).toBe(true);
    expect(back.traceEvents.find((e) => e.ph === 'X' && e.cat === 'kernel')).toMatchObject({ ts: 0.1, dur: 1 });
    expect(back.otherData.clockMHz).toBe(1000);
  });

  it('rejects a clock that is not a positive frequency', () => {
    expect(() => traceEvents(profile(), { clockMHz: 0 })).toThrow(/positive frequency/);
  });

  it('records dropped events in otherData', () => {
    const p = { ...profile(), dropped: 12 };
    expect(traceEvents(p).otherData.droppedEvents).toBe(12);
  });
});
