// The Siracusa simulator's public API (no DOM, no Node APIs): load the wasm core, run ELF
// programs, disassemble. See src/sim/README.md for the layout of this folder.
import { Machine } from './machine';
import type { RunOptions, RunResult } from './machine';
import { instantiateSim } from './wasm';
import type { WasmSource } from './wasm';

export { Machine, TRAP_NAMES } from './machine';
export type { RunOptions, RunResult, StopReason, Trap, Region } from './machine';
export { disassemble, disassembleBytes, REG_NAMES } from './disasm';
export type { Disassembled } from './disasm';
export { parseElf } from './elf';
export type { Elf, Segment } from './elf';
export { instantiateSim } from './wasm';
export { runSiracusa, runSiracusaAsync, SiracusaRun, WORKERS, CONTROLLER, CLUSTER_CORES } from './siracusa';
export type { SiracusaOptions, SiracusaResult, CoreStats } from './siracusa';
export { readTrace, TRACE_KINDS } from './trace';
export type { TraceRecord, TraceKind, TraceMode } from './trace';
export type { SimExports, WasmSource } from './wasm';
export { link, linkSiracusa, SIRACUSA_LAYOUT, lineAt, functionAt, sourceAt } from './link';
export type { LinkInput, LinkOptions, LinkResult, ProgramSymbol, LineTable, Layout } from './link';

/** A fresh machine on its own instance of the wasm core. */
export async function createMachine(wasm: WasmSource): Promise<Machine> {
  return new Machine(await instantiateSim(wasm));
}

/** Loads an ELF into `machine` and runs it to exit, trap or the cycle limit. */
export function runElf(machine: Machine, elf: Uint8Array, opts: RunOptions = {}): RunResult {
  machine.loadElf(elf);
  return machine.runProgram(opts);
}
