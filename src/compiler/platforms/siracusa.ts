// Siracusa: an 8-core RV32 cluster with a 256 KiB L1 scratchpad, 2 MiB L2 and 16 MiB L3 behind
// DMA (sizes and addresses: siracusa-memory.ts). Its kernels are fused, requantized and channels-last, so the lowering fuses every op
// with its requant, moves convolutions to NHWC and cleans up the Transposes that leaves.
import { rqAddParts } from '../ops/requantized';
import type { TileView } from '../tiling/rules';
import { SIRACUSA_COSTS } from './siracusa-costs';
import { typeInputs } from '../passes/front/type-inputs';
import { dropIdentity } from '../passes/front/drop-identity';
import { sanitizeNames } from '../passes/front/sanitize-names';
import { nameIo } from '../passes/front/name-io';
import { dropEmptyInputs } from '../passes/front/drop-empty-inputs';
import { duplicateSharedConstants } from '../passes/front/duplicate-shared-constants';
import { foldConstants } from '../passes/front/fold-constants';
import { skipEmptyConcat } from '../passes/cleanup/skip-empty-concat';
import { dropIdentityRequants } from '../passes/requant/drop-identity-requants';
import { splitRequantPerConsumer } from '../passes/requant/split-requant-per-consumer';
import { mergeTrueIntegerDiv } from '../passes/requant/merge-true-integer-div';
import { mergeIntegerDiv } from '../passes/requant/merge-integer-div';
import { mergeIGelu } from '../passes/requant/merge-igelu';
import { mergeIHardswish } from '../passes/requant/merge-ihardswish';
import { fuseConvRequant } from '../passes/requant/fuse-conv-requant';
import { constAddIntoRequant } from '../passes/requant/const-add-into-requant';
import { fuseGemmRequant } from '../passes/requant/fuse-gemm-requant';
import { fuseAddRequants } from '../passes/requant/fuse-add-requants';
import { dropEmptyBias } from '../passes/cleanup/drop-empty-bias';
import { dropSingletonReduceMean } from '../passes/cleanup/drop-singleton-reduce-mean';
import { normalizeGemm } from '../passes/layout/normalize-gemm';
import { nchwToNhwc } from '../passes/layout/nchw-to-nhwc';
import { splitTransposesPerConsumer } from '../passes/layout/split-transposes-per-consumer';
import { squashTransposesAroundAdd } from '../passes/layout/squash-transposes-around-add';
import { mergeTransposePairs } from '../passes/layout/merge-transpose-pairs';
import { foldTransposesIntoConstants } from '../passes/layout/fold-transposes-into-constants';
import { dropIdentityTransposes } from '../passes/layout/drop-identity-transposes';
import { cseTransposes } from '../passes/layout/cse-transposes';
import { foldConstantReshapes } from '../passes/cleanup/fold-constant-reshapes';
import { mergeReshapes } from '../passes/cleanup/merge-reshapes';
import { dropOutputReshape } from '../passes/cleanup/drop-output-reshape';
import type { Pass } from '../passes/types';
import { clusterKernels } from './siracusa-kernels';
import { PLATFORM_LIMITS } from './limits';
import { SIRACUSA_MAP } from './siracusa-memory';
import type { Engine, MemoryLevel, Platform } from './types';

// The pipeline listing in four named groups, which Siracusa + N-EUREKA composes with its own pass.

/** front: make the graph tidy and self-contained. */
export const FRONT_PASSES: readonly Pass[] = [
  typeInputs,                   // graph inputs typed from their values (int8, uint8, ...)
  dropIdentity,                 // Identity nodes go
  sanitizeNames,                // names become C identifiers
  nameIo,                       // graph I/O named input_i / output_i
  dropEmptyInputs,              // empty KV-cache inputs become empty constants
  duplicateSharedConstants,     // each node owns its constants
  foldConstants,                // constant subgraphs are evaluated
];

/** requantization: every op absorbs the requant around it. */
export const REQUANT_PASSES: readonly Pass[] = [
  skipEmptyConcat,              // Concat with an empty KV cache is a copy: gone
  dropIdentityRequants,         // requants that change no value go (after Concat/Reshape/Transpose)
  splitRequantPerConsumer,      // a requant feeding an Add or Concat and others: one copy each
  mergeTrueIntegerDiv,          // TrueIntegerDiv folds into the requant's mul
  mergeIntegerDiv,              // IntegerDiv + requant -> RQIntegerDiv
  mergeIGelu,                   // iGELU + requant -> RequantizediGELU
  mergeIHardswish,              // iHardswish + requant -> RequantizediHardswish
  fuseConvRequant,              // Conv + requant -> RequantizedConv
  constAddIntoRequant,          // a bias Add disappears into the requant after it
  fuseGemmRequant,              // Gemm/MatMul + requant -> RequantizedGemm
  fuseAddRequants,              // Add + input/output requants -> RequantizedAdd
  dropEmptyBias,                // all-zero biases go
  dropSingletonReduceMean,      // means over size-1 axes become Reshapes
];

/** layout: what the kernels read. */
export const LAYOUT_PASSES: readonly Pass[] = [
  normalizeGemm,                // RequantizedGemm as A [M,K] x B [N,K] (transB = 1)
  nchwToNhwc,                   // convs, pools, pads channels-last, Transposes around them
];

/** clean-up: the Transposes and Reshapes the layout left. */
export const CLEANUP_PASSES: readonly Pass[] = [
  // Transposes
  splitTransposesPerConsumer,   // one Transpose per reader
  squashTransposesAroundAdd,    // T(a) + T(b) -> T(a + b)
  mergeTransposePairs,          // T(T(x)) -> one Transpose (identity when they cancel)
  foldTransposesIntoConstants,  // Transposes of weights are applied now
  dropIdentityTransposes,       // identity Transposes go, size-1 moves become Reshapes
  cseTransposes,                // identical Transposes of one tensor: one is kept
  // Reshapes
  foldConstantReshapes,         // Reshapes of constants are applied now
  mergeReshapes,                // Reshape chains collapse
  dropOutputReshape,            // graph outputs are written in their producer's shape
];

/** `passes` with `extra` right after `after` (a platform's own step inside a shared group). */
export function insertAfter(passes: readonly Pass[], after: Pass, ...extra: Pass[]): Pass[] {
  const i = passes.indexOf(after);
  if (i < 0) throw new Error(`insertAfter: ${after.name} is not in the group`);
  return [...passes.slice(0, i + 1), ...extra, ...passes.slice(i + 1)];
}

const passes = [...FRONT_PASSES, ...REQUANT_PASSES, ...LAYOUT_PASSES, ...CLEANUP_PASSES];

const { L1, L2, L3 } = SIRACUSA_MAP;

export const SIRACUSA_MEMORY: MemoryLevel[] = [
  { name: 'L1', bytes: L1.bytes, base: L1.base, doc: 'cluster TCDM: 16 banks of 16 KiB, word-interleaved, 1-cycle access; tiles live here' },
  { name: 'L2', bytes: L2.bytes, doc: 'on-chip SoC SRAM (4 banks); 15 cycles a core access from the cluster; the cluster DMA moves tiles L2 <-> L1' },
  { name: 'L3', bytes: L3.bytes, doc: 'off-chip HyperRAM behind the uDMA, much slower than L2; L3 -> L2 copies block' },
];

/** A core's share of elements from which dpg_unary builds its 256-entry table (LUT8_MIN in kernels/elementwise.c). */
export const LUT8_MIN = 1024;

/**
 * Kernel paths that the fit prices apart:
 * - dpg_rq_add skips an input's requantizer when it is the identity (mul 1, add 0, shift 0), a
 *   third of its work (the layer's attributes);
 * - requantized iHardswish on 8-bit input builds a lookup table per call once a core's share of
 *   the tile reaches LUT8_MIN: some 6000 cycles per tile, then a few cycles per element instead of
 *   some twenty (the tile's size).
 */
function costVariant(v: TileView, kernel: string, tile: readonly number[], cores: number): string | undefined {
  if (v.node.op === 'RequantizediHardswish' && /^[^_]+_[su]8_/.test(kernel)) {
    const perCore = Math.ceil(tile.reduce((a, b) => a * b, 1) / Math.max(1, cores));
    return perCore >= LUT8_MIN ? 'table' : undefined;
  }
  if (v.node.op !== 'RequantizedAdd') return undefined;
  const ids = rqAddParts(v.attrs as Record<string, number | undefined>, v.where).slice(0, 2)
    .filter((q) => q.mul === 1 && q.add === 0 && q.shift === 0).length;
  return ids ? `${ids} identity input${ids > 1 ? 's' : ''}` : undefined;
}

/** dpg_rq_gemm's block of outputs, a core's unit of work (RB_M x RB_N in kernels/gemm.c). */
export const RQ_GEMM_BLOCK = { rows: 2, cols: 4 };

/**
 * dpg_rq_gemm deals blocks of 2 x 4 outputs to the cores: a tile whose blocks do not split evenly
 * (16 x 13: 32 blocks, a quarter of them one column wide) keeps some cores busier than 1/8.
 */
function coreShare(_v: TileView, kernel: string, tile: readonly number[], cores: number): number | undefined {
  if (!/^Requantized(Gemm|MatMul)_/.test(kernel) || tile.length < 2) return undefined;
  const M = tile[tile.length - 2], N = tile[tile.length - 1];
  const batch = tile.slice(0, -2).reduce((a, b) => a * b, 1);
  const blocks = batch * Math.ceil(M / RQ_GEMM_BLOCK.rows) * Math.ceil(N / RQ_GEMM_BLOCK.cols);
  const busiest = Math.ceil(blocks / Math.max(1, cores)) * RQ_GEMM_BLOCK.rows * RQ_GEMM_BLOCK.cols;
  return Math.min(1, busiest / (batch * M * N));
}

/**
 * A requantized GEMM runs fastest on whole 2 x 4 blocks: a block cut short runs a column at a
 * time. A preference, not a constraint (a 10-wide classifier still tiles a column at a time when
 * L1 is that small): the tiler also costs each maximal tile rounded down to it (64 x 28 beats the
 * maximal 64 x 29 by 7 %).
 */
function preferredMultiples(v: TileView): number[] {
  const r = v.output.length;
  if (v.node.op !== 'RequantizedGemm' || r < 2) return v.output.map(() => 1);
  return v.output.map((_, i) => (i === r - 1 ? RQ_GEMM_BLOCK.cols : i === r - 2 ? RQ_GEMM_BLOCK.rows : 1));
}

export const CLUSTER: Engine = {
  name: 'cluster', title: 'RISC-V cluster', cores: 8,
  doc: '8 RV32IMC + Xpulp worker cores (hardware loops, post-increment loads, 4x int8 SIMD dot products) sharing L1, fork/join through the event unit',
  // Kernels take any tile shape. Their costs are fitted to the simulator (siracusa-costs.json);
  // a kernel the fit has not seen: ~2 int8 MACs per cycle per core with the SIMD dot products.
  tiling: { opsPerCycle: 2, tileOverhead: 300, kernelCosts: SIRACUSA_COSTS.kernels, commandCycles: SIRACUSA_COSTS.commandCycles, costVariant, coreShare, preferredMultiples },
};

export const siracusa: Platform = {
  name: 'siracusa',
  title: 'Siracusa',
  description: 'The Siracusa SoC: an 8-core RISC-V cluster with L1/L2/L3 scratchpads and DMA. Every op is fused with its requant; convolutions run channels-last.',
  passes,
  memory: SIRACUSA_MEMORY,
  engines: [CLUSTER],
  kernels: clusterKernels,
  userEngine: 'cluster',
  inputTyping: 'as-is',
  runtime: 'siracusa',
  limits: PLATFORM_LIMITS.siracusa,
};
