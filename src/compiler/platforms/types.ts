// A platform is data plus its code, in one file each: what it is, its pipeline listing (the
// flat list of named passes the pass pane shows), its memory hierarchy, its engines, and the
// kernel catalogue the binder matches nodes against. Nothing else in the compiler asks which
// platform it is: it reads these fields.
import type { KernelSpec } from '../bind/catalogue';
import type { EngineName } from '../lower/types';
import type { Pass } from '../passes/types';
import type { Config, PlatformName } from '../config';
import type { TileView } from '../tiling/rules';

export interface MemoryLevel {
  name: string;
  bytes: number;
  /** Base address, where the memory map is known. */
  base?: number;
  doc: string;
}

export interface Engine {
  name: EngineName;
  title: string;
  /** Cores for a multi-core engine (the configured count may be lower). */
  cores?: number;
  doc: string;
  /** What the tiler must know about this engine's kernels; engines that are never tiled omit it. */
  tiling?: EngineTiling;
}

/** Target constraints and throughput of an engine, as the tiler sees them. */
export interface EngineTiling {
  /** Per output dim, the multiple a tile size must be (unless it is the whole dim); 1 = any. */
  multiples?(v: TileView): number[];
  /** Per output dim, the multiple the kernels run best at: the tiler also costs each maximal tile rounded down to it. */
  preferredMultiples?(v: TileView): number[];
  /** Memory level an input is read from directly instead of L1 (N-EUREKA weights in the weight memory). */
  directInput?(v: TileView, input: number, config: Config): string | undefined;
  /** Fraction of the engine's peak a tile shape reaches (NPU subtiles: a partial subtile wastes PEs); 1 when absent. */
  efficiency?(v: TileView, tile: number[]): number;
  /** Work units (MACs, elements) per cycle on one core, for the tiler's cost model. */
  opsPerCycle: number;
  /** Fixed cycles per tile: fork and barrier, or an NPU task's setup. */
  tileOverhead: number;
  /** Per kernel (binding.kernel, or kernel/variant): its costs fitted to the simulator; they replace the two above. */
  kernelCosts?: Readonly<Record<string, KernelCost>>;
  /**
   * A kernel path that costs differently (fitted apart), chosen by the layer's attributes at
   * compile time ("1 identity input") or by the tile, whose size the kernel looks at when it
   * runs ("table": a lookup table built per call once a core's share is large enough).
   */
  costVariant?(v: TileView, kernel: string, tile: readonly number[], cores: number): string | undefined;
  /**
   * The share of a tile's work its busiest core does, for a kernel that splits the work in units
   * the rule's parallel dims do not show (dpg_rq_gemm: blocks of 2 rows x 4 columns); by default
   * an even split over the cores the parallel dims keep busy.
   */
  coreShare?(v: TileView, kernel: string, tile: readonly number[], cores: number): number | undefined;
  /** Controller cycles per DMA command beyond its bytes' time (fitted; the tiler's default otherwise). */
  commandCycles?: number;
}

/**
 * A kernel family's cost, fitted to the simulator (scripts/calibrate-tiler.ts): cycles =
 * perLayer + perTile x tiles + perWork x work per core + perOutput x output elements per core +
 * perRow x output rows per core.
 */
export interface KernelCost {
  perLayer: number;
  perTile: number;
  perWork: number;
  perOutput: number;
  perRow: number;
  /** Added once, to the first layer running the kernel in the network (its code comes from L2). */
  perFirstUse: number;
  /** Layers the fit used, and those it left out as too far off (another kernel path). */
  samples: number;
  outliers?: number;
}

export interface Platform {
  name: PlatformName;
  title: string;
  description: string;
  /** The pipeline listing: run in this order, one snapshot each. */
  passes: readonly Pass[];
  memory: readonly MemoryLevel[];
  engines: readonly Engine[];
  /** Binding tries the kernels for a node's op in this order; the first that fits wins. */
  kernels: readonly KernelSpec[];
  /** The engine user-written kernels (the new-operator lab) are bound to and forked on. */
  userEngine: EngineName;
  /**
   * How graph inputs are typed for the kernels: 'as-is' keeps the type the values need
   * (uint8 camera data stays uint8); 'signed-offset' makes unsigned inputs signed by
   * subtracting 2^(w-1) (Deeploy's Generic platform), which codegen and kernels compensate.
   */
  inputTyping: 'as-is' | 'signed-offset';
  /**
   * The bare-metal runtime (crt0, link script, register header) in src/compiler/runtime/<dir>
   * that the simulator runs this platform's code on; absent when its code only runs on a host.
   */
  runtime?: string;
  /** The config values the platform can hold. */
  limits: ConfigLimits;
}

/** A config field's range on a platform. `over`, when set, names what the maximum is (the platform's memory less what it reserves), for the error on a larger value. */
export interface Range {
  min: number;
  max: number;
  over?: string;
}

/** What a platform can hold: validateConfig refuses a config outside these ranges. */
export interface ConfigLimits {
  cores: Range;
  l1: Range;
  l2: Range;
  /** Whether it has a weight memory to place NPU weights in. */
  neurekaWmem: boolean;
  /** Config fields the platform does not use at all (the app disables them and says why). */
  ignores?: IgnoredFields;
}

export type TuningField = 'cores' | 'tiled' | 'l1' | 'l2' | 'defaultMemLevel' | 'doubleBuffer' | 'profileTiling';

export interface IgnoredFields {
  fields: readonly TuningField[];
  /** Beside a disabled control, e.g. "not used by Generic". */
  reason: string;
  /** What the platform is, which explains the reason. */
  note: string;
  /** What a compile really does, for the configuration summary. */
  summary: string;
}

export const KiB = 1024;
export const MiB = 1024 * 1024;
