// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The wasm module's exports: the host (src/sim/wasm.ts) sees only numbers and the memory.
import * as L from './layout';
import { coreState } from './core';
import { dmaBusy, dmaBytes, dmaTransfers, l3Busy, l3Bytes } from './dma';
import { NUM_OPS, TABLE_HASH } from './gen/exec';
import { neurekaBusy, neurekaPortBytes, neurekaTasks, neurekaWmemBytes } from './neureka';
import { consoleLen, exitCode as exitCodeOf } from './periph';
import { stopCore as stopCoreOf } from './cluster';
import { traceCount } from './trace';
import { ICACHE_END } from './icache';
import { measCycles, measDma, measInstr, measSections, measTcdm } from './measure';

export { run, decode, decodedImm } from './gen/exec';
export { resetCore, flushICache } from './core';
export { bareMode, clusterReset, clusterRun, setQuantum } from './cluster';
export { consoleDrained } from './periph';
// Exported so that binaryen keeps it out of line: storeSlow, which every cluster store calls,
// stays small (only the test of guardOn in it).
export { guardAllows } from './guard';
export { setTrace } from './trace';
export { profDrained, setProfile } from './profile';
import { profCount as profCountOf, profDropped as profDroppedOf } from './profile';
export function profCount(): u32 { return profCountOf; }
export function profDropped(): u32 { return profDroppedOf; }
export function profLog(): usize { return L.PROF_LOG; }
export function profHeat(): usize { return L.PROF_HEAT; }
export function profRegions(): usize { return L.PROF_REGION; }
export function profSpanMax(): u32 { return L.PROF_SPAN_MAX; }

export function tableHash(): u32 { return TABLE_HASH; }
export function icacheEnd(): usize { return ICACHE_END; }
export { setIcacheModel } from './icache';
export function numOps(): i32 { return NUM_OPS; }
export function maxCores(): i32 { return L.MAX_CORES; }
export function coreBase(core: i32): usize { return coreState(core); }
export function memL2(): usize { return L.MEM_L2; }
export function memL1(): usize { return L.MEM_L1; }
export function memL3(): usize { return L.MEM_L3; }
export function memWmem(): usize { return L.MEM_WMEM; }
export function memEnd(): usize { return L.MEM_END; }
export function l2Base(): u32 { return L.L2_BASE; }
export function l2Size(): u32 { return L.L2_SIZE; }
export function l1Base(): u32 { return L.L1_BASE; }
export function l1Size(): u32 { return L.L1_SIZE; }
export function l3Base(): u32 { return L.L3_BASE; }
export function l3Size(): u32 { return L.L3_SIZE; }
export function wmemBase(): u32 { return L.WMEM_BASE; }
export function wmemSize(): u32 { return L.WMEM_SIZE; }
export function consoleBase(): usize { return L.CONSOLE; }
export function consoleLength(): u32 { return consoleLen; }
export function exitCode(): i32 { return exitCodeOf; }
export function stopCore(): i32 { return stopCoreOf; }
export function traceBase(): usize { return L.TRACE; }
export function traceEntries(): u32 { return L.TRACE_ENTRIES; }
export function traceRecorded(): u32 { return traceCount; }
/** Cluster DMA and uDMA counters: 0 bytes, 1 busy cycles, 2 transfers, 3 L3 bytes, 4 L3 busy cycles. */
export function dmaStat(i: i32): f64 {
  switch (i) {
    case 0: return <f64>dmaBytes;
    case 1: return <f64>dmaBusy;
    case 2: return <f64>dmaTransfers;
    case 3: return <f64>l3Bytes;
    case 4: return <f64>l3Busy;
    default: return -1;
  }
}
/** The measured section (measure.ts): cycles, instructions, TCDM accesses, DMA bytes, sections closed. */
export function measureStat(i: i32): f64 {
  switch (i) {
    case 0: return <f64>measCycles;
    case 1: return <f64>measInstr;
    case 2: return <f64>measTcdm;
    case 3: return <f64>measDma;
    case 4: return <f64>measSections;
    default: return -1;
  }
}
/** N-EUREKA counters: 0 tasks, 1 busy cycles, 2 bytes through the L1 / L2 port, 3 weight bytes over the weight memory's link. */
export function neurekaStat(i: i32): f64 {
  switch (i) {
    case 0: return <f64>neurekaTasks;
    case 1: return <f64>neurekaBusy;
    case 2: return <f64>neurekaPortBytes;
    case 3: return <f64>neurekaWmemBytes;
    default: return -1;
  }
}
/** Offsets in the core record, in the order of CORE_FIELDS in src/sim/machine.ts. */
export function coreField(i: i32): i32 {
  switch (i) {
    case 0: return <i32>L.PC;
    case 1: return <i32>L.STOP_CAUSE;
    case 2: return <i32>L.TRAP_PC;
    case 3: return <i32>L.TRAP_INSN;
    case 4: return <i32>L.TRAP_TVAL;
    case 5: return <i32>L.CYCLES;
    case 6: return <i32>L.INSTRET;
    case 7: return <i32>L.HWLOOP;
    case 8: return <i32>L.HARTID;
    case 9: return <i32>L.STATE;
    case 10: return <i32>L.WAIT;
    case 11: return <i32>L.STALL_BANK;
    case 12: return <i32>L.STALL_L2;
    case 13: return <i32>L.IDLE;
    case 14: return <i32>L.STALL_PERIPH;
    case 15: return <i32>L.STALL_LOADUSE;
    case 16: return <i32>L.STALL_BRANCH;
    case 17: return <i32>L.GUARD_LAYER;
    case 18: return <i32>L.GUARD_COUNT;
    case 19: return <i32>L.GUARD_WIN;
    case 20: return <i32>L.GUARD_STACK_LO;
    case 21: return <i32>L.GUARD_STACK_HI;
    case 22: return <i32>L.GUARD_BYTES;
    case 23: return <i32>L.TCDM_ACC;
    case 24: return <i32>L.IC_FETCH;
    case 25: return <i32>L.IC_MISS;
    case 26: return <i32>L.IC_REFILL_L2;
    case 27: return <i32>L.STALL_ICACHE;
    case 28: return <i32>L.GUARD_ON;
    case 29: return <i32>L.GUARD_WHY;
    default: return -1;
  }
}
