// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The wasm linear memory map and the per-core state record. The host reads the state record
// through src/sim/machine.ts and sizes the wasm memory from MEM_END (src/sim/gen/build.ts).

// Simulated address space (Siracusa, GVSoC map). Bases and sizes: those of
// src/compiler/platforms/siracusa-memory.ts, which this file cannot import (checked by its test).
export const L2_BASE: u32 = 0x1c000000;
export const L2_SIZE: u32 = 0x200000; // 2 MiB
export const L1_BASE: u32 = 0x10000000;
export const L1_SIZE: u32 = 0x40000; // 256 KiB TCDM
export const L1_BANKS: u32 = 16; // word-interleaved
export const WMEM_BASE: u32 = 0x10400000;
export const WMEM_SIZE: u32 = 0x400000; // 4 MiB N-EUREKA weight memory (NPU only)
export const L3_BASE: u32 = 0x80000000;
export const L3_SIZE: u32 = 0x1000000; // 16 MiB off-chip RAM (uDMA only)
/** Cluster peripherals: cluster_ctrl, timer, event unit, N-EUREKA (reserved), DMA. */
export const PERIPH_BASE: u32 = 0x10200000;
export const PERIPH_SIZE: u32 = 0x2000;
/** The SoC's uDMA channel to L3 (our own layout, GVSoC's uDMA window). */
export const UDMA_BASE: u32 = 0x1a102000;
export const UDMA_SIZE: u32 = 0x100;

// Wasm memory: fixed regions above the first 64 KiB (AssemblyScript's static data; the
// simulator never allocates on the heap).
export const CORES: usize = 0x10000; // per-core state records
export const MAX_CORES: i32 = 16;
export const CORE_SIZE: usize = 512;
/** The instruction cache model's tags (icache.ts): each core's private L0, the shared L1's banks, their LFSRs. */
export const ICACHE_TAGS: usize = 0x12000;
export const SCRATCH: usize = 0x14000; // decode results for the host, fault / io sinks
/** TCDM bank reservations: one u32 cycle stamp per (cycle mod STAMP_SLOTS, bank). */
export const BANK_STAMPS: usize = 0x20000;
export const STAMP_SLOTS: u32 = 1024;
export const CONSOLE: usize = 0x30000; // stdout bytes written through cluster_ctrl PUTCHAR
export const CONSOLE_SIZE: u32 = 0x10000;
export const DMA_RING: usize = 0x40000; // completion cycle (u64) of the last DMA_IDS transfers
export const DMA_IDS: u32 = 256;
export const MEM_L1: usize = 0x100000; // L1 bytes
export const MEM_L2: usize = 0x200000; // L2 bytes
/** Predecoded instruction caches: one 8-byte entry per halfword of L2 / L1. */
export const IC_L2: usize = 0x400000;
export const IC_L1: usize = 0xc00000;
export const MEM_WMEM: usize = 0xd00000; // weight memory bytes
export const MEM_L3: usize = 0x1100000; // L3 bytes
/** Trace ring: TRACE_ENTRIES records of 16 bytes (see trace.ts). */
export const TRACE: usize = 0x2100000;
export const TRACE_ENTRIES: u32 = 0x10000;
/** The profile (profile.ts): heat (2 x u32 per code halfword), regions (u16 per halfword), the event log. */
export const PROF_SPAN_MAX: u32 = 0x80000; // 512 KiB of code
export const PROF_HEAT: usize = 0x2200000;
export const PROF_REGION: usize = 0x2400000;
export const PROF_LOG: usize = 0x2480000;
export const PROF_ENTRIES: u32 = 0x20000; // 64-byte records: 8 MiB
export const MEM_END: usize = 0x2c80000;

// Per-core state record (offsets in bytes). Registers first: x0..x31, then a sink slot (x32)
// that instructions writing x0 write to instead, so x0 reads stay zero with no check.
export const REGS: usize = 0;
export const PC: usize = 136;
export const STOP_CAUSE: usize = 140; // trap cause (RISC-V mcause numbering)
export const TRAP_PC: usize = 144;
export const TRAP_INSN: usize = 148;
export const TRAP_TVAL: usize = 152;
export const CYCLES: usize = 160; // u64
export const INSTRET: usize = 168; // u64
export const HWLOOP: usize = 176; // [start, end, count] for loop 0, then loop 1
export const HARTID: usize = 200;
export const LOAD_RD: usize = 204; // load-use stall carried across run() calls
export const PREV_W: usize = 208; // previous predecoded entry (jalr dependency stall)
export const CSR_FILE: usize = 212; // mstatus mtvec mepc mcause mscratch mtval mie mip (8 words)
// Cluster state of the core (cluster.ts, eu.ts).
export const STATE: usize = 256; // CORE_RUN / CORE_SLEEP / CORE_OFF
export const WAIT: usize = 260; // what a sleeping core waits for (WAIT_* in eu.ts)
export const STALL_BANK: usize = 264; // u64: cycles lost to TCDM bank conflicts
export const STALL_L2: usize = 272; // u64: cycles waiting for L2 from the cluster
export const IDLE: usize = 280; // u64: cycles asleep (clock-gated) or blocked on DMA / uDMA
export const STALL_PERIPH: usize = 288; // u64: cycles of peripheral accesses
export const EVENTS: usize = 296; // pending event bits (EV_* in eu.ts)
export const FORK_ARG_OF: usize = 300; // the argument of the core's current fork job
export const TEAM: usize = 304; // mask of the core's current fork team (0: none)
export const TEAM_INDEX: usize = 308;
export const FORK_FN_OF: usize = 312; // the function of the core's pending / current fork job
export const FORK_AT: usize = 320; // u64: cycle at which the pending fork job reaches the core
export const EVT_AT: usize = 328; // u64: cycle at which the pending software event arrived
// Counted only while profiling (the profiled run loop): stalls the plain loop lumps together.
export const STALL_LOADUSE: usize = 336; // u64
export const STALL_BRANCH: usize = 344; // u64: taken branches and jumps
// The core's write guard (guard.ts): while GUARD_ON, its stores must fall in a window or its stack.
export const GUARD_ON: usize = 352;
export const GUARD_LAYER: usize = 356; // the layer index hal_guard_begin gave
export const GUARD_COUNT: usize = 360; // windows in use (0..GUARD_WINDOWS)
export const GUARD_NEXT_LO: usize = 364; // GUARD_LO as written, for the next GUARD_BYTES
export const GUARD_STACK_LO: usize = 368; // the core's stack region [lo, hi), written by the HAL
export const GUARD_STACK_HI: usize = 372;
export const GUARD_BYTES: usize = 376; // the size of the store that broke the guard
export const GUARD_WHY: usize = 380; // what broke it (GW_* in guard.ts)
export const GUARD_WIN: usize = 384; // GUARD_WINDOWS x [lo, bytes] (u32 each)
export const GUARD_WINDOWS: i32 = 4;
export const TCDM_ACC: usize = 416; // u64: the core's loads and stores to L1 (TCDM bank accesses: the energy model)
// The instruction cache (icache.ts): the line in the core's fetch buffer, its line fetches from
// its L0, those that missed it, those that also missed the shared L1 (refilled from L2), and
// the cycles the core stalled on refills.
export const IC_LINE: usize = 424; // u32: address >> 4 of the buffered line (0xffffffff: none)
export const IC_FETCH: usize = 432; // u64
export const IC_MISS: usize = 440; // u64
export const IC_REFILL_L2: usize = 448; // u64
export const STALL_ICACHE: usize = 456; // u64
// The pc of the core's fork dispatcher (crt0.S's read of WAIT_FORK), learned the first time the
// core sleeps there (eu.ts euSlept): a guard ends only when its core is back at that read.
export const DISPATCH_PC: usize = 464;

export const CORE_RUN: i32 = 0;
export const CORE_SLEEP: i32 = 1;
export const CORE_OFF: i32 = 2;

// Hardware loop register indices inside a loop's triple.
export const HW_START: i32 = 0;
export const HW_END: i32 = 1;
export const HW_COUNT: i32 = 2;

// Why run() returned.
export const STOP_BUDGET: i32 = 0;
export const STOP_ECALL: i32 = 1;
export const STOP_TRAP: i32 = 2;
export const STOP_SLEEP: i32 = 3; // the core blocked on the event unit; it re-executes the access when woken
export const STOP_EXIT: i32 = 4; // cluster_ctrl EXIT was written
export const STOP_YIELD: i32 = 5; // the scheduler must look (a core was woken, the console is full)
export const STOP_DEADLOCK: i32 = 6; // every core sleeps and nothing can wake them

// Memory events: `fault` (mem.ts) holds a trap cause (< 64) or one of these.
export const MEV_STALL: i32 = 64; // extra cycles in memStall
export const MEV_IO_WRITE: i32 = 65; // a peripheral store to commit (ioAddr, value in IO_SINK)
export const MEV_SLEEP: i32 = 66; // block: leave the run loop before the access
export const MEV_EXIT: i32 = 67;

// Trap causes (RISC-V mcause numbers).
export const CAUSE_FETCH_MISALIGNED: i32 = 0;
export const CAUSE_FETCH_FAULT: i32 = 1;
export const CAUSE_ILLEGAL: i32 = 2;
export const CAUSE_BREAKPOINT: i32 = 3;
export const CAUSE_LOAD_FAULT: i32 = 5;
export const CAUSE_STORE_FAULT: i32 = 7;
/** A guarded core stored outside its windows and stack (guard.ts): a custom cause (24..31 are for custom use). */
export const CAUSE_GUARD: i32 = 24;

// Predecoded entry, word 0: op[8:0] compressed[9] rd[15:10] rs1[20:16] rs2[25:21] aux[31:26];
// word 1: imm.
export const OP_MASK: u32 = 0x1ff;
export const OP_UNDECODED: u32 = 0;
export const OP_ILLEGAL: u32 = 1;
