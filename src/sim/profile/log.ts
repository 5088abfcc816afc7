// Reading the profile the wasm cluster records (src/sim/as/profile.ts): its event log, drained
// after every cluster run call, and the per-pc heat at the end. Raw, as recorded: build.ts turns
// it into the RunProfile the UI reads.
import type { Machine } from '../machine';

/** A core's cumulative counters (low 32 bits) when an event was recorded. */
export interface Counters { instret: number; bank: number; l2: number; periph: number; idle: number; loadUse: number; branch: number; cycle: number; tcdm: number; icache: number }

export interface JobRecord { core: number; start: number; end: number; from: Counters; to: Counters }
export type IdleReason = 'fork' | 'join' | 'barrier' | 'event' | 'dma' | 'udma' | 'npu';
export interface IdleRecord { core: number; from: number; to: number; reason: IdleReason }
export interface EngineRecord { engine: 'dma' | 'udma' | 'npu'; core: number; from: number; to: number; bytes: number }

export interface RawProfile {
  /** The controller's region changes: from cycle[i] on it ran code of region[i] (the host's numbering). */
  regionCycle: number[];
  region: number[];
  jobs: JobRecord[];
  idles: IdleRecord[];
  engines: EngineRecord[];
  /** Code window of the heat: per halfword from `lo`, cycles spent and how many were stalls. */
  heat: { lo: number; cycles: Uint32Array; stalls: Uint32Array };
  /** Records lost to a full log (the profile is incomplete when > 0). */
  dropped: number;
}

const RECORD = 64;

/**
 * Events a run's profile keeps (region changes, jobs, waits, transfers: all kinds together);
 * later ones are counted in `dropped`. The wasm log is bounded and drained after every cluster
 * call, but what the host kept of it grew with the run: a program forking empty jobs for two
 * billion cycles logs tens of millions of events, and the timeline and the trace export
 * (`--trace`) are made from them (issue 39).
 */
export const PROFILE_EVENT_LIMIT = 1 << 19;
const EV = { region: 1, jobStart: 2, jobEnd: 3, idle: 4, dma: 5, udma: 6, npu: 7 } as const;
const REASONS: Record<number, IdleReason> = { 1: 'fork', 2: 'join', 3: 'barrier', 4: 'event', 16: 'dma', 17: 'udma', 18: 'npu' };

/** What the profile records: the code window [lo, lo + span) and, per halfword of it, its region (0: none). */
export interface ProfileSetup {
  lo: number; span: number; regions?: Uint16Array;
  /** Events kept (default PROFILE_EVENT_LIMIT). */
  limit?: number;
}

/** Collects a run's profile chunk by chunk. */
export class ProfileLog {
  private readonly raw: RawProfile;
  private readonly open = new Map<number, Counters & { start: number }>();
  /** Events kept, and those past the limit (not kept). */
  private kept = 0;
  private lost = 0;

  private readonly limit: number;

  constructor(private readonly m: Machine, setup: ProfileSetup) {
    this.limit = setup.limit ?? PROFILE_EVENT_LIMIT;
    const w = m.wasm;
    const span = Math.min(setup.span, w.profSpanMax()) & ~1;
    w.setProfile(1, setup.lo >>> 0, span);
    const table = new Uint16Array(span / 2);
    if (setup.regions) table.set(setup.regions.subarray(0, table.length));
    m.wasmWrite(w.profRegions(), new Uint8Array(table.buffer));
    this.raw = { regionCycle: [], region: [], jobs: [], idles: [], engines: [], heat: { lo: setup.lo >>> 0, cycles: new Uint32Array(0), stalls: new Uint32Array(0) }, dropped: 0 };
  }

  /** Moves the records logged since the last drain out of wasm memory. */
  drain(): void {
    const w = this.m.wasm;
    const n = w.profCount();
    if (n === 0) return;
    const bytes = this.m.wasmBytes(w.profLog(), n * RECORD);
    w.profDrained();
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const r = this.raw;
    for (let i = 0; i < n; i++) {
      const o = i * RECORD;
      // A job's end completes a kept start (it is the same event); anything else past the limit is counted only.
      if (this.kept >= this.limit && !(dv.getUint8(o + 16) === EV.jobEnd && this.open.has(dv.getUint8(o + 17)))) { this.lost++; continue; }
      this.kept++;
      const t0 = Number(dv.getBigUint64(o, true)), t1 = Number(dv.getBigUint64(o + 8, true));
      const kind = dv.getUint8(o + 16), core = dv.getUint8(o + 17), reason = dv.getUint16(o + 18, true), a = dv.getUint32(o + 20, true);
      switch (kind) {
        case EV.region: r.regionCycle.push(t0); r.region.push(a); break;
        case EV.jobStart: this.open.set(core, { ...countersAt(dv, o), start: t0 }); break;
        case EV.jobEnd: {
          const from = this.open.get(core);
          if (from) { this.open.delete(core); r.jobs.push({ core, start: from.start, end: t0, from, to: countersAt(dv, o) }); }
          break;
        }
        case EV.idle: r.idles.push({ core, from: t0, to: t1, reason: REASONS[reason] ?? 'event' }); break;
        case EV.dma: case EV.udma: case EV.npu:
          r.engines.push({ engine: kind === EV.dma ? 'dma' : kind === EV.udma ? 'udma' : 'npu', core, from: t0, to: t1, bytes: a });
          break;
        default: break;
      }
    }
  }

  /** The whole profile, with the heat read now (call once, at the end). */
  finish(): RawProfile {
    this.drain();
    const w = this.m.wasm;
    const span = this.m.wasm.profSpanMax();
    const words = new Uint32Array(this.m.wasmBytes(w.profHeat(), span * 4).buffer);
    const cycles = new Uint32Array(span / 2), stalls = new Uint32Array(span / 2);
    for (let i = 0; i < cycles.length; i++) { cycles[i] = words[2 * i]; stalls[i] = words[2 * i + 1]; }
    this.raw.heat = { lo: this.raw.heat.lo, cycles, stalls };
    this.raw.dropped = w.profDropped() + this.lost;
    w.setProfile(0, 0, 0);
    return this.raw;
  }
}

function countersAt(dv: DataView, o: number): Counters {
  const u = (k: number) => dv.getUint32(o + 24 + 4 * k, true);
  return { instret: u(0), bank: u(1), l2: u(2), periph: u(3), idle: u(4), loadUse: u(5), branch: u(6), cycle: u(7), tcdm: u(8), icache: u(9) };
}
