// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The measured section (cluster_ctrl CC_MEASURE: the harness writes 1 before RunNetwork and 0
// after it): what all cores did inside it, for the host's energy estimate (src/sim/energy.ts),
// so the harness's filling of inputs and checking of outputs is not counted. The write asks the
// scheduler to take the writing core out of its run loop (its retired instructions reach its
// record only then); the snapshot is taken there, the cycle at the write.
import { INSTRET, TCDM_ACC } from './layout';
import { coreState } from './core';
import { dmaBytes } from './dma';
import { WORKERS } from './eu';

let pending: i32 = -1; // 1: a start, 0: an end, waiting for the snapshot
let pendingCycle: u64 = 0;
let open_: bool = false;
let startCycle: u64 = 0;
let startInstr: u64 = 0;
let startTcdm: u64 = 0;
let startDma: u64 = 0;

export let measCycles: u64 = 0;
export let measInstr: u64 = 0;
export let measTcdm: u64 = 0;
export let measDma: u64 = 0;
export let measSections: u32 = 0;

export function measureReset(): void {
  pending = -1; open_ = false;
  measCycles = 0; measInstr = 0; measTcdm = 0; measDma = 0; measSections = 0;
}

/** A CC_MEASURE write at `cycle` (the writer's clock). */
export function measureRequest(start: bool, cycle: u64): void {
  pending = start ? 1 : 0;
  pendingCycle = cycle;
}

/** After a core left its run loop: takes a requested snapshot. */
export function measureSettle(): void {
  if (pending < 0) return;
  let instr: u64 = 0, tcdm: u64 = 0;
  for (let c = 0; c <= WORKERS; c++) { /* the workers and the controller */
    const S = coreState(c);
    instr += load<u64>(S + INSTRET);
    tcdm += load<u64>(S + TCDM_ACC);
  }
  if (pending == 1) {
    open_ = true;
    startCycle = pendingCycle; startInstr = instr; startTcdm = tcdm; startDma = dmaBytes;
  } else if (open_) {
    open_ = false;
    measCycles += pendingCycle - startCycle;
    measInstr += instr - startInstr;
    measTcdm += tcdm - startTcdm;
    measDma += dmaBytes - startDma;
    measSections++;
  }
  pending = -1;
}
