// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The wasm module's exports: the host (src/sim/wasm.ts) sees only numbers and the memory.
import * as L from './layout';
import { coreState } from './core';
import { NUM_OPS, TABLE_HASH } from './gen/exec';

export { run, decode, decodedImm } from './gen/exec';
export { resetCore, flushICache } from './core';

export function tableHash(): u32 { return TABLE_HASH; }
export function numOps(): i32 { return NUM_OPS; }
export function maxCores(): i32 { return L.MAX_CORES; }
export function coreBase(core: i32): usize { return coreState(core); }
export function memL2(): usize { return L.MEM_L2; }
export function memL1(): usize { return L.MEM_L1; }
export function memEnd(): usize { return L.MEM_END; }
export function l2Base(): u32 { return L.L2_BASE; }
export function l2Size(): u32 { return L.L2_SIZE; }
export function l1Base(): u32 { return L.L1_BASE; }
export function l1Size(): u32 { return L.L1_SIZE; }
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
    default: return -1;
  }
}
