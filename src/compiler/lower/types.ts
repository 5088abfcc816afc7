// What the lower stage produces: the pass-by-pass snapshots, the kernel each node of the
// final graph is bound to, and the semantic check of every snapshot. Plain data.
import type { PlatformName } from '../config';
import type { Snapshot } from '../passes/types';

/** 'cpu': the Generic platform's single host core; 'cluster': Siracusa's RISC-V cluster; 'neureka': the N-EUREKA NPU. */
export type EngineName = 'cpu' | 'cluster' | 'neureka';

export interface Binding {
  node: string;
  engine: EngineName;
  /** Kernel name in the kernel library, e.g. "RequantizedConv2d_HWC_s8". */
  kernel: string;
  /** Why this kernel (layout, dtypes, shape class), for the properties panel. */
  reason: string;
  /** Data-layout work codegen must do for this kernel (e.g. N-EUREKA's bit-serial weights). */
  notes?: string[];
}

export interface BindingFailure {
  node: string;
  op: string;
  /** Names the missing capability, e.g. "no cluster kernel for MaxPool with dilation 2". */
  reason: string;
}

export interface SemanticCheck {
  /** Index into snapshots. */
  snapshot: number;
  /** Output elements that differ from the input graph's outputs on the same inputs. */
  errors: number;
  total: number;
  /** Set when the snapshot could not be run at all (the interpreter's error message). */
  error?: string;
  /** When outputs differ: the first tensor (in evaluation order) whose value changed in this pass. */
  firstDifferent?: string;
}

/** How a graph input is typed for the kernels (Deeploy infers it from the input values). */
export interface InputTyping {
  /** Graph input name in the final graph (input_i), and its position in inputs.npz. */
  name: string;
  index: number;
  /** Type the values need (smallest of uint8, int8, uint16, int16, uint32, int32 holding them). */
  dtype: string;
  /** Type the kernels see: Generic makes unsigned inputs signed. */
  kernelDtype: string;
  /** Added to every value before the network runs (Generic: -2^(w-1) for unsigned inputs); 0 otherwise. */
  offset: number;
  /** Where the type comes from. */
  source: 'inputs.npz' | 'declared' | 'assumed int8';
}

export interface LowerResult {
  platform: PlatformName;
  snapshots: Snapshot[];
  bindings: Record<string, Binding>;
  failures: BindingFailure[];
  /** One per changed snapshot; a pass with errors > 0 changed the network's outputs. */
  checks: SemanticCheck[];
  /** Where the check inputs came from: the user's inputs.npz, or seeded random values. */
  checkInputs: 'inputs.npz' | 'random';
  /** Set when no check could run: the input graph itself fails on the check inputs (e.g. random values dividing by zero). */
  checkError?: string;
  /** Types of the remaining graph inputs as the kernels see them. */
  inputTypes?: InputTyping[];
}
