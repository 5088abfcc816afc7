// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The wasm linear memory map and the per-core state record. Mirrored for the host in
// src/sim/layout.ts; the generator checks both agree.

// Simulated address space (Siracusa, GVSoC map).
export const L2_BASE: u32 = 0x1c000000;
export const L2_SIZE: u32 = 0x200000; // 2 MiB
export const L1_BASE: u32 = 0x10000000;
export const L1_SIZE: u32 = 0x40000; // 256 KiB TCDM

// Wasm memory: fixed regions above the first 64 KiB (AssemblyScript's static data; the
// simulator never allocates on the heap).
export const CORES: usize = 0x10000; // per-core state records
export const MAX_CORES: i32 = 16;
export const CORE_SIZE: usize = 256;
export const SCRATCH: usize = 0x11000; // decode results for the host
export const MEM_L1: usize = 0x100000; // L1 bytes
export const MEM_L2: usize = 0x200000; // L2 bytes
/** Predecoded instruction caches: one 8-byte entry per halfword of L2 / L1. */
export const IC_L2: usize = 0x400000;
export const IC_L1: usize = 0xc00000;
export const MEM_END: usize = 0xd00000;

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

// Hardware loop register indices inside a loop's triple.
export const HW_START: i32 = 0;
export const HW_END: i32 = 1;
export const HW_COUNT: i32 = 2;

// Why run() returned.
export const STOP_BUDGET: i32 = 0;
export const STOP_ECALL: i32 = 1;
export const STOP_TRAP: i32 = 2;

// Trap causes (RISC-V mcause numbers).
export const CAUSE_FETCH_MISALIGNED: i32 = 0;
export const CAUSE_FETCH_FAULT: i32 = 1;
export const CAUSE_ILLEGAL: i32 = 2;
export const CAUSE_BREAKPOINT: i32 = 3;
export const CAUSE_LOAD_FAULT: i32 = 5;
export const CAUSE_STORE_FAULT: i32 = 7;

// Predecoded entry, word 0: op[8:0] compressed[9] rd[15:10] rs1[20:16] rs2[25:21] aux[31:26];
// word 1: imm.
export const OP_MASK: u32 = 0x1ff;
export const OP_UNDECODED: u32 = 0;
export const OP_ILLEGAL: u32 = 1;
