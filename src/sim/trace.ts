// Reading the trace ring the wasm cluster writes (src/sim/as/trace.ts): the last N records,
// oldest first, each with its cycle, core, kind and two operands.
import type { Machine } from './machine';

export const TRACE_KINDS = {
  1: 'pc', 2: 'sleep', 3: 'wake', 4: 'bank-conflict', 6: 'dma-start', 7: 'dma-end', 8: 'dma-wait',
  9: 'fork', 10: 'barrier', 11: 'l3-copy',
} as const;
export type TraceKind = (typeof TRACE_KINDS)[keyof typeof TRACE_KINDS];

export interface TraceRecord {
  cycle: number;
  /** Hart id (8 is the cluster controller). */
  core: number;
  kind: TraceKind;
  /** pc / address / DMA id / core mask, by kind (src/sim/README.md). */
  a: number;
  /** wait kind / stall cycles / bytes / function, by kind. */
  b: number;
}

/** 'events': sleep, wake, stalls, DMA, fork, barrier; 'pc': also every instruction's pc. */
export type TraceMode = 'events' | 'pc';
export const TRACE_MODE_BITS: Record<TraceMode, number> = { events: 1, pc: 3 };

/** The records still in the ring (at most its capacity), oldest first; `dropped` were overwritten. */
export function readTrace(m: Machine): { records: TraceRecord[]; dropped: number } {
  const w = m.wasm;
  const total = w.traceRecorded() >>> 0;
  const cap = w.traceEntries();
  const n = Math.min(total, cap);
  const bytes = m.wasmBytes(w.traceBase(), cap * 16);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: TraceRecord[] = [];
  for (let i = total - n; i < total; i++) {
    const o = (i % cap) * 16;
    const kind = TRACE_KINDS[dv.getUint8(o + 5) as keyof typeof TRACE_KINDS] ?? 'pc';
    records.push({
      cycle: dv.getUint32(o, true) + dv.getUint16(o + 6, true) * 2 ** 32, core: dv.getUint8(o + 4), kind,
      a: dv.getUint32(o + 8, true), b: dv.getUint32(o + 12, true),
    });
  }
  return { records, dropped: total - n };
}
