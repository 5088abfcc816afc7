// The run profile's timeline as Chrome trace-event JSON (the JSON Object Format), which Perfetto
// and chrome://tracing open: one complete ("X") event per span, on thread = the span's lane of
// process 0, and metadata ("M") events naming the process and the lanes and keeping their order.
// Trace times are microseconds: cycles divided by the cluster clock in MHz (500 MHz unless told),
// stated in otherData so a reader can turn them back into cycles. Pure: the Run pane downloads it,
// the CLI writes it (`dpg run --trace FILE`).
import type { RunProfile } from './types';
import { PHASES } from './types';

/** The cluster clock the trace's times assume unless told otherwise. */
export const TRACE_CLOCK_MHZ = 500;

export interface TraceMeta {
  /** Clock used to turn cycles into microseconds (default TRACE_CLOCK_MHZ). */
  clockMHz?: number;
  /** The model that ran, the configuration, anything else worth keeping: copied into otherData. */
  [key: string]: unknown;
}

export interface TraceEvent {
  name: string;
  ph: 'X' | 'M';
  pid: number;
  tid: number;
  /** Microseconds. */
  ts?: number;
  dur?: number;
  cat?: string;
  args?: Record<string, unknown>;
}

export interface TraceFile {
  traceEvents: TraceEvent[];
  displayTimeUnit: 'ns' | 'ms';
  otherData: Record<string, unknown>;
}

export function traceEvents(profile: RunProfile, meta: TraceMeta = {}): TraceFile {
  const clockMHz = meta.clockMHz ?? TRACE_CLOCK_MHZ;
  if (!(clockMHz > 0)) throw new Error(`trace clock must be a positive frequency in MHz, got ${clockMHz}`);
  const us = (cycles: number) => cycles / clockMHz;
  const events: TraceEvent[] = [
    { name: 'process_name', ph: 'M', pid: 0, tid: 0, args: { name: 'Siracusa' } },
  ];
  profile.lanes.forEach((lane, i) => {
    events.push({ name: 'thread_name', ph: 'M', pid: 0, tid: lane.id, args: { name: lane.name } });
    events.push({ name: 'thread_sort_index', ph: 'M', pid: 0, tid: lane.id, args: { sort_index: i } });
  });
  const layers = new Map(profile.layers.map((l) => [l.index, l]));
  const { spans } = profile;
  for (let i = 0; i < spans.count; i++) {
    const phase = PHASES[spans.phase[i]!] ?? 'other';
    const layer = spans.layer[i]! >= 0 ? layers.get(spans.layer[i]!) : undefined;
    const tile = spans.tile[i]!;
    const start = spans.start[i]!, end = spans.end[i]!;
    const args: Record<string, unknown> = { phase, startCycle: start, cycles: end - start };
    if (layer) { args.layer = layer.node; args.op = layer.op; }
    if (tile >= 0) args.tile = tile;
    events.push({
      name: layer ? `${layer.node} ${phase}` : phase, cat: phase, ph: 'X', pid: 0, tid: spans.lane[i]!,
      ts: us(start), dur: us(end - start), args,
    });
  }
  const { clockMHz: _, ...rest } = meta;
  return {
    traceEvents: events,
    displayTimeUnit: 'ns',
    otherData: {
      ...rest,
      clock: `${clockMHz} MHz: ts and dur are simulated cycles / ${clockMHz} (microseconds); args.startCycle and args.cycles are cycles`,
      clockMHz,
      totalCycles: profile.total,
      networkCycles: profile.end - profile.start,
      ...(profile.dropped > 0 ? { droppedEvents: profile.dropped } : {}),
    },
  };
}
