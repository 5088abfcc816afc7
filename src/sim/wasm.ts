// Loading the wasm core (src/sim/build/sim.wasm, built by `npm run build:sim`) in Node or in
// the browser. No DOM and no Node APIs here: the caller hands over bytes, a Response or a URL.
import { fail } from '../common/errors';
import { EXEC_ROWS, FIRST_OP, tableHash } from './isa/table';

/** The wasm module's exports (see src/sim/as/index.ts). */
export interface SimExports {
  memory: WebAssembly.Memory;
  /** budget: instructions, or cycles with cycleMode (1). */
  run(core: number, budget: number, cycleMode: number): number;
  clusterReset(entry: number): void;
  clusterRun(until: number): number;
  bareMode(): void;
  setQuantum(q: number): void;
  setTrace(mode: number): void;
  consoleDrained(): void;
  consoleBase(): number;
  consoleLength(): number;
  exitCode(): number;
  stopCore(): number;
  traceBase(): number;
  traceEntries(): number;
  traceRecorded(): number;
  dmaStat(i: number): number;
  neurekaStat(i: number): number;
  measureStat(i: number): number;
  memL3(): number;
  memWmem(): number;
  l3Base(): number;
  l3Size(): number;
  wmemBase(): number;
  wmemSize(): number;
  decode(word: number): number;
  decodedImm(): number;
  resetCore(core: number, pc: number, hartid: number): void;
  flushICache(): void;
  tableHash(): number;
  /** End of the instruction cache model's tags in wasm memory (src/sim/as/icache.ts). */
  icacheEnd(): number;
  /** 0: instruction fetches never miss, until the next clusterReset. */
  setIcacheModel(on: number): void;
  numOps(): number;
  maxCores(): number;
  coreBase(core: number): number;
  memL2(): number;
  memL1(): number;
  memEnd(): number;
  l2Base(): number;
  l2Size(): number;
  l1Base(): number;
  l1Size(): number;
  coreField(i: number): number;
  /** The profile (src/sim/as/profile.ts): on / off with its code window; the log, heat and region table. */
  setProfile(on: number, lo: number, span: number): void;
  profDrained(): void;
  profCount(): number;
  profDropped(): number;
  profLog(): number;
  profHeat(): number;
  profRegions(): number;
  profSpanMax(): number;
}

export type WasmSource = BufferSource | Response | URL | string | WebAssembly.Module;

/** Instantiates the core; each call gives an independent simulator (its own memory). */
export async function instantiateSim(source: WasmSource): Promise<SimExports> {
  let instance: WebAssembly.Instance;
  if (source instanceof WebAssembly.Module) {
    instance = await WebAssembly.instantiate(source, {});
  } else if (typeof source === 'string' || source instanceof URL || (typeof Response !== 'undefined' && source instanceof Response)) {
    const res = source instanceof Response ? source : await fetch(source);
    if (!res.ok) fail('internal', `could not fetch the simulator core (${res.status})`, String(res.url || source));
    instance = (await WebAssembly.instantiate(await res.arrayBuffer(), {})).instance;
  } else {
    instance = (await WebAssembly.instantiate(source as BufferSource, {})).instance;
  }
  const x = instance.exports as unknown as SimExports;
  if (x.tableHash() >>> 0 !== tableHash() || x.numOps() !== EXEC_ROWS.length + FIRST_OP) {
    fail('internal', 'the simulator core was built from a different ISA table', 'src/sim/build/sim.wasm',
      'rebuild it with `npm run build:sim`');
  }
  if (x.memory.buffer.byteLength < x.memEnd()) {
    fail('internal', 'the simulator core has less memory than its layout needs', 'src/sim/gen/build.ts', 'rebuild with `npm run build:sim`');
  }
  return x;
}
