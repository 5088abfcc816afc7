// What running the generated program reports: plain data, the run stage's result.
import type { CodegenResult } from '../../compiler/codegen/types';
import type { Config } from '../../compiler/config';
import type { Trap } from '../machine';
import type { CoreStats, SiracusaResult } from '../siracusa';

export interface RunResult {
  /** 'host': built with the host C compiler and run natively; 'simulator': the Siracusa simulator. */
  target: 'host' | 'simulator';
  compiler: string;
  /** The program's console output. */
  stdout: string;
  exitCode: number;
  /** From `Runtime: N cycles` and `Errors: E out of T`; undefined when the program printed none. */
  cycles?: number;
  errors?: number;
  total?: number;
  /** The simulator's statistics (target 'simulator'). */
  sim?: SimRunStats;
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
  buildMs: number;
  runMs: number;
  /** Set when a core trapped; fn is the function holding pc and line its source line (file:line), from the ELF's debug info. */
  trap?: Trap & { fn?: string; line?: string };
}

/** Builds and runs the generated program: the run stage's runner (the CLI's --cc host and --cc clang). */
export type Runner = (code: CodegenResult, config: Config) => Promise<RunResult> | RunResult;
