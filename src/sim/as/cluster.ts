// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The cluster: 8 workers (harts 0..7) and the controller (hart 8), stepped deterministically in
// small quanta of cycles. Each round takes the earliest clock among the running cores and runs
// every running core up to that clock + `quantum`, in an order that rotates every round (the
// first core wins a TCDM bank conflict). With a single running core there is nobody to
// interact with, so it runs on to the chunk's end until it wakes another core (a yield).
// Sleeping cores cost nothing; their clocks jump forward when woken (idle time).
import {
  CORE_OFF, CORE_RUN, CORE_SLEEP, CYCLES, MAX_CORES, PC, STATE, STOP_BUDGET, STOP_DEADLOCK, STOP_SLEEP,
  STOP_TRAP, STOP_YIELD,
} from './layout';
import { coreState, flushICache, resetCore } from './core';
import { icacheReset } from './icache';
import { dmaReset } from './dma';
import { neurekaReset } from './neureka';
import { euReset, euSlept, WORKERS } from './eu';
import { run, runProf } from './gen/exec';
import { profOn } from './profile';
import { clearStamps, setClusterMode, setStampBanks } from './mem';
import { consoleFull, periphReset, takeYield } from './periph';
import { measureSettle } from './measure';
import { TR_PC, traceAt, traceMode } from './trace';

export const CLUSTER_CORES: i32 = WORKERS + 1;
const MAX_SLICE: u64 = 1 << 30;

let quantum: u64 = 128;
let rot: i32 = 0;
export let stopCore: i32 = -1;

export function setQuantum(q: i32): void { quantum = q < 1 ? 1 : <u64>q; }

/** Every cluster core at `entry` (crt0 tells them apart by mhartid), peripherals reset. */
export function clusterReset(entry: u32): void {
  for (let c = 0; c < MAX_CORES; c++) {
    resetCore(c, entry, c);
    store<i32>(coreState(c) + STATE, c < CLUSTER_CORES ? CORE_RUN : CORE_OFF);
  }
  euReset();
  dmaReset();
  neurekaReset();
  periphReset();
  clearStamps();
  setClusterMode(true);
  flushICache();
  icacheReset(true);
  rot = 0;
  stopCore = -1;
}

/** The bare single-core machine (runElf): no cluster timing. */
export function bareMode(): void { setClusterMode(false); icacheReset(false); }

/**
 * Runs the cluster until every running core's clock reaches `until` (STOP_BUDGET), or a core
 * stops it: STOP_ECALL / STOP_TRAP / STOP_EXIT (stopCore says which), STOP_YIELD (the console
 * needs draining), STOP_DEADLOCK (all cores asleep).
 */
export function clusterRun(untilF: f64): i32 {
  const until = <u64>untilF;
  for (;;) {
    let nrun = 0;
    let nsleep = 0;
    let tmin: u64 = u64.MAX_VALUE;
    for (let c = 0; c < CLUSTER_CORES; c++) {
      const S = coreState(c);
      const st = load<i32>(S + STATE);
      if (st == CORE_RUN) {
        nrun++;
        const t = load<u64>(S + CYCLES);
        if (t < tmin) tmin = t;
      } else if (st == CORE_SLEEP) nsleep++;
    }
    if (nrun == 0) return STOP_DEADLOCK;
    if (tmin >= until) return STOP_BUDGET;
    setStampBanks(nrun > 1);
    const q = tmin + quantum;
    const tend: u64 = nrun == 1 || q > until ? until : q;
    rot = rot + 1 == CLUSTER_CORES ? 0 : rot + 1;
    let yielded = false;
    for (let i = 0; i < CLUSTER_CORES && !yielded; i++) {
      const c = i + rot < CLUSTER_CORES ? i + rot : i + rot - CLUSTER_CORES;
      const S = coreState(c);
      while (load<i32>(S + STATE) == CORE_RUN) {
        const t = load<u64>(S + CYCLES);
        if (t >= tend) break;
        const left = tend - t;
        let slice: i32 = left > MAX_SLICE ? <i32>MAX_SLICE : <i32>left;
        if (traceMode & 2) { traceAt(TR_PC, c, t, load<u32>(S + PC), 0); slice = 1; }
        const why = profOn ? runProf(c, slice, true) : run(c, slice, true);
        measureSettle();
        if (takeYield()) {
          if (consoleFull) { stopCore = c; return STOP_YIELD; }
          yielded = true;
        }
        if (why == STOP_BUDGET) { if (yielded) break; continue; }
        if (why == STOP_SLEEP) {
          if (euSlept(c) != 0) { stopCore = c; return STOP_TRAP; }
          if (load<i32>(S + STATE) == CORE_RUN) yielded = true; // woken at once: schedule again
          break;
        }
        stopCore = c;
        return why;
      }
    }
  }
  return STOP_BUDGET; // not reached
}
