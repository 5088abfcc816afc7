// What the tile stage produces: per layer the chosen tiling, per memory level every buffer
// with its address and lifetime (the "Tetris" timeline), and the checker's verdict. Plain data
// for codegen, the memory pane and `dpg compile --out`. It is the whole contract between tiling
// and codegen: codegen reads the tiles' regions, element sizes, buffers and settings from here
// and never calls back into the tiler.
import type { MemLevel } from '../config';
import type { RuleKind } from './rules';
import type { Region } from './region';

export type { Region };

/** A time step is one tile of one layer; layers follow each other in graph order. */
export interface LayerSteps {
  node: string;
  /** First step and number of steps (tiles; 1 for an untiled layer, 0 for an alias). */
  start: number;
  count: number;
}

export type BufferRole = 'input' | 'weight' | 'const' | 'output' | 'scratch' | 'activation' | 'constant' | 'staging';

export interface Buffer {
  /**
   * Unique in the plan, e.g. "L1:Conv_0:input0": a label for display and the memory pane's keys.
   * Code finds a buffer by its typed fields (level, role, tensor, node, k), never by this.
   */
  id: string;
  /** Memory level name: L1, L2, L3, WMEM (Generic: RAM). */
  level: string;
  /** Byte offset inside the level. */
  offset: number;
  /** Bytes, including every copy (double-buffered tiles: 2 x tile bytes). */
  bytes: number;
  /** Lifetime in steps: [start, end). */
  start: number;
  end: number;
  role: BufferRole;
  /** Tensor stored (for scratch: the layer's name). */
  tensor: string;
  /** Layer that owns a tile buffer (L1) or produces an activation. */
  node?: string;
  /** A tile buffer's tensor: its position in the layer's LayerTiling.tensors (scratch has none). */
  k?: number;
  /** Tile shape for tile buffers, full shape otherwise. */
  shape: number[];
  /** 2 for double-buffered tiles (ping at offset, pong at offset + bytes / 2). */
  copies: 1 | 2;
  /** Buffers sharing this one's memory (Reshape aliases), by tensor name. */
  aliases?: string[];
}

export interface TensorTiling {
  tensor: string;
  role: 'input' | 'weight' | 'const' | 'output';
  /** Input position (outputs: 0). */
  index: number;
  shape: number[];
  /** Largest tile; equal to shape when the tensor is whole in every tile. */
  tile: number[];
  elemBytes: number;
  /** Loaded once per layer and kept (whole in every tile), not per tile. */
  stays: boolean;
  /** Read by the engine from another level (N-EUREKA weights in WMEM): no L1 buffer, no DMA. */
  direct?: string;
  /** Bytes moved by DMA over the layer (halos counted each time). */
  bytesMoved: number;
  transfers: number;
}

export interface LayerTiling {
  node: string;
  op: string;
  engine: string;
  kernel: string;
  /** The op's rule, e.g. "conv rows x cols x out-channels". */
  rule: string;
  /** Which rule it is: codegen gives conv, pool and pad tiles their own pads. */
  ruleKind: RuleKind;
  output: number[];
  /** Chosen output tile; equal to output when the layer runs as one tile. */
  tile: number[];
  tiles: number;
  tensors: TensorTiling[];
  /** Per tile (row-major over the output's tile grid): the region of every tensor, in `tensors` order. */
  regions: Region[][];
  /** L1 bytes the layer's buffers take. */
  l1Bytes: number;
  bytesMoved: number;
  /** The cost model's estimate, cycles (what the objective minimised), and the kernel (or kernel/variant) whose fitted costs priced it. */
  estCycles: number;
  costKey: string;
  /** No earlier layer ran its kernel (the estimate adds its code's first fetch from L2). */
  firstUse: boolean;
  /** The layer's work (MACs, elements) over the cores a tile keeps busy: the estimate's kernel term (src/pipeline/cost-fit.ts fits against it). */
  coreWork: number;
  /** Its output elements, and output rows (elements over the last dim), over those cores: the estimate's per-output and per-row terms. */
  coreOutputs: number;
  coreRows: number;
  /** How the choice was made. */
  solve: { candidates: number; status: 'optimal' | 'feasible' | 'single'; ms: number; cached: boolean; vars: number; rows: number };
}

export interface LevelPlan {
  name: string;
  capacity: number;
  /** Highest byte used (max over time of offset + bytes). */
  used: number;
  buffers: Buffer[];
  /** How its addresses were decided. */
  allocator: string;
  /** Lower bound on `used`: the most bytes live at one step. */
  lowerBound: number;
}

export interface PlanCheck {
  ok: boolean;
  /** Each problem found, in words; empty when ok. */
  problems: string[];
  buffersChecked: number;
  pairsChecked: number;
}

export interface TilePlan {
  platform: string;
  /** False: no layer is tiled; every layer runs in place on its home buffers. */
  tiled: boolean;
  /** The settings the code follows: cores a layer may fork on, the L1 budget, double buffering, profiling. */
  cores: number;
  l1: number;
  doubleBuffer: boolean;
  profileTiling: MemLevel | null;
  homeLevel: string;
  steps: number;
  layers: LayerSteps[];
  tilings: LayerTiling[];
  levels: LevelPlan[];
  check: PlanCheck;
  /** MILPs solved, reused from identical layers, and total time. */
  solver: { milps: number; reused: number; ms: number };
  ms: number;
}
