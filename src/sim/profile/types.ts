// The run profile: what the simulator measured, cut into network -> layer -> tile -> phase ->
// core, plus every span of the timeline and the cycles per instruction. Plain, serialisable data
// (it crosses the worker boundary): the Run pane, the code pane's heat and the exports read it.
// Built by src/sim/profile/build.ts from the simulator's event log, the codegen's layer map and
// the program's line table; recording it costs the simulated program no cycle.

/** What the controller (or a core) is doing in a span. */
export type Phase =
  | 'dma-in' // issuing the tile's input transfers
  | 'dma-wait' // blocked until a transfer completes
  | 'kernel' // the kernel: forked to the workers (or the NPU task), until they joined
  | 'dma-out' // issuing the tile's output transfers
  | 'control' // the tile loop's bookkeeping, the layer's setup
  | 'barrier' // a worker waiting at a barrier / for the join
  | 'busy' // a worker running its job
  | 'transfer' // a DMA / uDMA transfer, an NPU task (their own lanes)
  | 'other'; // outside the network's layers (startup, the harness's checks)

export const PHASES: readonly Phase[] = ['dma-in', 'dma-wait', 'kernel', 'dma-out', 'control', 'barrier', 'busy', 'transfer', 'other'];
/** The phases a layer's controller time is split into (they add up to the layer's cycles). */
export const LAYER_PHASES = ['dma-in', 'dma-wait', 'kernel', 'dma-out', 'control'] as const;
export type LayerPhase = (typeof LAYER_PHASES)[number];

/** Where a core's cycles went: instructions retired plus stall cycles by cause (they add up to its cycles). */
export interface CoreCycles {
  /** Cycles the core was running (retired + stalls), and asleep / blocked (idle). */
  cycles: number;
  instructions: number;
  stalls: {
    loadUse: number; // an instruction reading the register the previous load writes
    branch: number; // taken branches and jumps
    multi: number; // multi-cycle instructions: mul, div, CSR, misaligned accesses
    bank: number; // TCDM bank conflicts
    l2: number; // L2 latency from the cluster
    periph: number; // peripheral accesses (event unit, DMA registers, timer)
    icache: number; // instruction cache refills (the core's L0 missed)
  };
  /** Cycles waiting: at barriers and the join (workers), for the DMA, uDMA or the workers (controller). */
  idle: number;
  /** Loads and stores to L1 (TCDM accesses, for the energy estimate: src/sim/energy.ts). */
  tcdmAccesses: number;
}

export interface TileProfile {
  /** Tile number inside its layer (kernel calls counted from 0). */
  index: number;
  start: number;
  end: number;
  /** Controller cycles by phase; their sum is end - start. */
  phases: Record<LayerPhase, number>;
}

export interface LayerProfile {
  /** Layer index in the codegen's layer list, node name (final graph), operator, kernel, engine. */
  index: number;
  node: string;
  op: string;
  kernel: string;
  engine: string;
  /** First cycle and cycle after the last of its controller spans (layers run one after another). */
  start: number;
  end: number;
  /** Controller cycles spent in the layer (sum of its spans). */
  cycles: number;
  /** Controller cycles by phase; their sum is `cycles`. */
  phases: Record<LayerPhase, number>;
  tiles: TileProfile[];
  /** Per worker core (index = hart): what its jobs inside the layer spent. */
  cores: CoreCycles[];
  /** Bytes moved by the cluster DMA and the uDMA for the layer; N-EUREKA task cycles. */
  dmaBytes: number;
  npuCycles: number;
  /** The tiler's cost estimate for the layer (cycles), when the layer was tiled. */
  estimate?: number;
}

/** One lane of the timeline. */
export interface Lane {
  id: number;
  name: string;
  kind: 'controller' | 'worker' | 'dma' | 'udma' | 'npu';
}

/**
 * Every span of the timeline, columnar (tens of thousands of them: typed arrays, drawn on a
 * canvas). Span i is on lane lane[i] from start[i] to end[i] (cycles), in layer layer[i]
 * (-1: none) and tile tile[i] (-1: none), doing PHASES[phase[i]]. Sorted by lane, then start.
 */
export interface Spans {
  count: number;
  lane: Uint8Array;
  phase: Uint8Array;
  layer: Int32Array;
  tile: Int32Array;
  start: Float64Array;
  end: Float64Array;
}

/** Cycles attributed to each instruction address (summed over the cores that ran it). */
export interface PcHeat {
  /** Addresses, ascending; cycles[i] retired plus stalled there, stalls[i] of them stall cycles. */
  pc: Uint32Array;
  cycles: Float64Array;
  stalls: Float64Array;
}

/** Cycles per source line (file:line from the program's line table), hottest first. */
export interface LineHeat { file: string; line: number; cycles: number; stalls: number }

export interface RunProfile {
  /** The network's run: from the first layer's first cycle to the last layer's end. */
  start: number;
  end: number;
  /** Total simulated cycles of the program (startup and checks included). */
  total: number;
  /** Cycles of RunNetwork's own code between the layers (calls, returns): with the layers' cycles, the network's. */
  runNetwork: number;
  lanes: Lane[];
  layers: LayerProfile[];
  spans: Spans;
  heat: PcHeat;
  lines: LineHeat[];
  /** Per core (index = hart, 8 the controller) over the whole run. */
  cores: CoreCycles[];
  /** Events the simulator could not record (its log overflowed): the profile is incomplete when > 0. */
  dropped: number;
}
