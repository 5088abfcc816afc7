// A RunProfile with its typed arrays as plain number arrays: JSON and Playwright's page.evaluate
// carry it (the browser benchmarks send a profile from Node into the page this way).
import type { PcHeat, RunProfile, Spans } from '../../../sim/profile/types';

type Plain<T> = { [K in keyof T]: T[K] extends ArrayLike<number> ? number[] : T[K] };

export interface ProfileWire extends Omit<RunProfile, 'spans' | 'heat'> {
  spans: Plain<Spans>;
  heat: Plain<PcHeat>;
}

export function profileToWire(p: RunProfile): ProfileWire {
  const s = p.spans;
  return {
    ...p,
    spans: {
      count: s.count, lane: [...s.lane], phase: [...s.phase], layer: [...s.layer], tile: [...s.tile], start: [...s.start], end: [...s.end],
    },
    heat: { pc: [...p.heat.pc], cycles: [...p.heat.cycles], stalls: [...p.heat.stalls] },
  };
}

export function profileFromWire(w: ProfileWire): RunProfile {
  const s = w.spans;
  return {
    ...w,
    spans: {
      count: s.count, lane: Uint8Array.from(s.lane), phase: Uint8Array.from(s.phase), layer: Int32Array.from(s.layer),
      tile: Int32Array.from(s.tile), start: Float64Array.from(s.start), end: Float64Array.from(s.end),
    },
    heat: { pc: Uint32Array.from(w.heat.pc), cycles: Float64Array.from(w.heat.cycles), stalls: Float64Array.from(w.heat.stalls) },
  };
}
