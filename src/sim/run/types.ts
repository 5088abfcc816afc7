// What running the generated program reports: plain data, the run stage's result.
import type { Energy } from '../energy';
import type { CodegenResult } from '../../compiler/codegen/types';
import type { Config } from '../../compiler/config';
import type { Trap } from '../machine';
import type { RunProfile } from '../profile/types';
import type { CoreStats, IcacheStats, SiracusaResult } from '../siracusa';
import type { ProgramView } from '../profile/program';

export interface RunResult {
  /** 'host': built with the host C compiler and run natively; 'simulator': the Siracusa simulator. */
  target: 'host' | 'simulator';
  compiler: string;
  /** The program's console output: at most OUTPUT_LIMIT bytes (src/sim/console.ts), its first and its latest half, with a line between them when bytes were dropped. */
  stdout: string;
  /** Bytes of output over the limit: counted, not kept (absent when none). */
  stdoutDropped?: number;
  exitCode: number;
  /** From `Runtime: N cycles` and `Errors: E out of T`; undefined when the program printed none. */
  cycles?: number;
  errors?: number;
  total?: number;
  /** The first mismatching elements the harness printed (`Mismatch in output O at index I: got G, expected E`). */
  mismatches?: OutputMismatch[];
  /** The simulator's statistics (target 'simulator'). */
  sim?: SimRunStats;
  /** Where the cycles went (a profiled simulator run): layers, tiles, phases, cores, the timeline, the pc heat. */
  profile?: RunProfile;
  /** The program's code, functions and line table (the builtin toolchain's build): the code pane's assembly view. */
  program?: ProgramView;
}

export interface OutputMismatch { output: number; index: number; got: number; expected: number }

/** How the builtin toolchain built the program (`--cc builtin`). */
export interface BuildStats {
  /** Translation units compiled now, and taken from the object cache. */
  compiled: number;
  cached: number;
  compileMs: number;
  linkMs: number;
  /** Per unit compiled now: its path and milliseconds, in total and per stage (preprocess, parse, ...). */
  units: { path: string; ms: number; stages?: Record<string, number> }[];
}

/** What a run on the Siracusa simulator measured. Plain data. */
export interface SimRunStats {
  /** Harts 0..7 (the workers) and 8 (the controller). */
  cores: CoreStats[];
  dma: SiracusaResult['dma'];
  l3: SiracusaResult['l3'];
  /** N-EUREKA: tasks run, busy cycles, bytes over its L1 port, bytes from the weight memory. */
  neureka: SiracusaResult['neureka'];
  /** Instructions retired by all cores. */
  instructions: number;
  /** Simulated instructions per second of wall-clock time, in millions. */
  mips: number;
  /**
   * The run's estimated energy (src/sim/energy.ts: GVSoC's Siracusa power-model values), of the
   * network's run (the harness marks it) or, in a program that marks none, of the whole program.
   */
  energy: Energy & { scope: 'network' | 'program' };
  /** The instruction cache over all cores (src/sim/as/icache.ts): line fetches, L0 misses, refills from L2, the cycles cores stalled on them. */
  icache: IcacheStats & { stallCycles: number };
  buildMs: number;
  runMs: number;
  /** Turning the simulator's log into the run's profile, after the run (a profiled run). */
  profileMs?: number;
  /** The builtin toolchain's build (compile and link). */
  build?: BuildStats;
  /** Set when a core trapped; fn is the function holding pc and line its source line (file:line), from the ELF's debug info. */
  trap?: Trap & { fn?: string; line?: string };
}

/** What the run stage hands a runner besides the program: progress, cancel, the user's edits. */
export interface RunContext {
  progress?: (fraction: number, message: string) => void;
  /** Aborted: stop (between compiled files, between simulated chunks). */
  signal?: AbortSignal;
  /** Files replacing generated or library ones, by path ('Network.c', 'kernels/gemm.c'): the code pane's edits. */
  edits?: Readonly<Record<string, string>>;
  /** The simulator's cycle budget (default MAX_CYCLES): an endless loop stops there. */
  maxCycles?: number;
  /** Record the run's profile (RunResult.profile); the simulated cycles are the same either way. */
  profile?: boolean;
  /** Instruction fetches never miss (the instruction cache model off): to compare code laid out differently, or the cost of the misses. */
  idealFetch?: boolean;
}

/** Builds and runs the generated program: the run stage's runner (--cc builtin, clang, host). */
export type Runner = (code: CodegenResult, config: Config, ctx?: RunContext) => Promise<RunResult> | RunResult;
