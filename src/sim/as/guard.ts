// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The write guard (hal.h "write guard"; registers in src/sim/README.md): a per-core peripheral
// with which the code that forks a kernel declares where the kernel may write. While a core is
// guarded, each of its stores to memory (L1, L2) must fall inside one of its windows (the layer's
// output buffer, up to GUARD_WINDOWS in all) or inside its own stack; any other store stops the
// run with CAUSE_GUARD before it writes (the core's record keeps the layer, the windows, the
// store's size and what broke the guard, GUARD_WHY, for the host's message).
//
// The guard cannot be undone from inside (issue 39): the windows and the stack region are
// declared before LAYER starts the guard, and while it is on every write to its registers is a
// CAUSE_GUARD trap (GW_REGS); it does not end at END nor at the job's DONE, only when the core is
// back in its fork dispatcher (eu.ts euSlept: at the dispatcher's pc, its stack pointer at the
// stack's top), where no code of the kernel can run any more. A guarded core's DMA and uDMA
// transfers may write only inside its windows (GW_DMA), it cannot start an N-EUREKA task
// (GW_NPU) nor end the program (GW_EXIT). The console, the timer and the event unit's reads stay
// open to it.
//
// The check costs nothing while no core is guarded beyond one test of `guardOn` in storeSlow,
// which every cluster store passes through (l2Gate sends L2 there too). The bare core (runElf)
// takes L2 stores on the inlined fast path, so it refuses to start a guard.
import {
  CAUSE_GUARD, GUARD_BYTES, GUARD_COUNT, GUARD_WHY, GUARD_LAYER, GUARD_NEXT_LO, GUARD_ON, GUARD_STACK_HI,
  GUARD_STACK_LO, GUARD_WIN, GUARD_WINDOWS, PERIPH_BASE, PERIPH_SIZE, REGS, UDMA_BASE, UDMA_SIZE,
} from './layout';

// Register offsets inside the guard's window (PERIPH_BASE + 0x1400); each core sees its own.
// Every write faults with CAUSE_GUARD while the core is guarded.
export const GUARD_REG_LAYER: u32 = 0x00; // W: start guarding for this layer (stack bounds and windows first); R: the layer, or 0xffffffff
export const GUARD_REG_LO: u32 = 0x04; // W: start of the next window
export const GUARD_REG_BYTES: u32 = 0x08; // W: its size: adds [LO, LO + BYTES) to the next guard's windows
export const GUARD_REG_STACK_LO: u32 = 0x0c; // W: the core's stack region, lowest address
export const GUARD_REG_STACK_HI: u32 = 0x10; // W: ... and its top (exclusive)
export const GUARD_REG_END: u32 = 0x14; // W: forget the windows declared (unguarded only)

// What broke a guard (GUARD_WHY; src/sim/machine.ts GuardWhy names them in this order).
export const GW_STORE: u32 = 0; // a store outside the windows and the stack
export const GW_REGS: u32 = 1; // a write to the guard's own registers
export const GW_DMA: u32 = 2; // a DMA / uDMA transfer writing outside the windows (tval: the destination)
export const GW_NPU: u32 = 3; // an N-EUREKA task
export const GW_EXIT: u32 = 4; // the exit register (or an ecall exit, host side)
export const GW_DISPATCH: u32 = 5; // a read of WAIT_FORK elsewhere than the dispatcher

/** The running core's GUARD_ON (set with the core by setCurrent, and by its own register writes). */
export let guardOn: bool = false;

export function guardLoad(S: usize): void { guardOn = load<i32>(S + GUARD_ON) != 0; }

/** Whether the guarded core at record S may store `size` bytes at a. */
export function guardAllows(S: usize, a: u32, size: u32): bool {
  if (a - PERIPH_BASE < PERIPH_SIZE || a - UDMA_BASE < UDMA_SIZE) return true;
  // Offsets from each region's start: no overflow at the top of the address space.
  const so = a - load<u32>(S + GUARD_STACK_LO);
  const sn = load<u32>(S + GUARD_STACK_HI) - load<u32>(S + GUARD_STACK_LO);
  if (so < sn && sn - so >= size) return true;
  const n = load<i32>(S + GUARD_COUNT);
  for (let i = 0; i < n; i++) {
    const w = S + GUARD_WIN + (<usize>i << 3);
    const o = a - load<u32>(w);
    const len = load<u32>(w, 4);
    if (o < len && len - o >= size) return true;
  }
  return false;
}

/** Records the size of the store that broke the guard (the host's message). */
export function guardBroken(S: usize, size: u32): i32 { return guardDeny(S, GW_STORE, size); }

/** Records what broke the guard and the access's size; returns the trap cause. */
export function guardDeny(S: usize, why: u32, size: u32): i32 {
  store<u32>(S + GUARD_BYTES, size);
  store<u32>(S + GUARD_WHY, why);
  return CAUSE_GUARD;
}

/** Whether every byte of [a, a + len) may be written by the guarded core S (a DMA destination). */
export function guardAllowsRange(S: usize, a: u32, len: u32): bool {
  return len == 0 || guardAllows(S, a, len);
}

/** Not guarded any more, no windows declared (the core is back in its dispatcher: eu.ts euSlept). */
export function guardClear(S: usize, current: bool): void {
  store<i32>(S + GUARD_ON, 0);
  store<i32>(S + GUARD_COUNT, 0);
  if (current) guardOn = false;
}

export function guardRead(S: usize, off: u32): i64 {
  if (off == GUARD_REG_LAYER) return load<i32>(S + GUARD_ON) != 0 ? <i64>load<u32>(S + GUARD_LAYER) : <i64>0xffffffff;
  return -1; // write-only
}

/**
 * A register write by the running core (record S): 1 done; 0 a bad one (the caller raises a
 * store access fault): an unknown offset, a fifth window, a guard started on the bare core or
 * with the stack pointer outside the stack region the HAL wrote (its bounds would be wrong);
 * 2 any write while guarded (the caller raises CAUSE_GUARD; GUARD_WHY says GW_REGS).
 */
export function guardWrite(S: usize, off: u32, v: u32, cluster: bool): i32 {
  if (load<i32>(S + GUARD_ON) != 0) { guardDeny(S, GW_REGS, 4); return 2; }
  switch (off) {
    case GUARD_REG_LAYER: {
      const sp = load<u32>(S + REGS + 8);
      const lo = load<u32>(S + GUARD_STACK_LO);
      const hi = load<u32>(S + GUARD_STACK_HI);
      if (!cluster || lo >= hi || sp - lo > hi - lo) return 0;
      store<u32>(S + GUARD_LAYER, v);
      store<i32>(S + GUARD_ON, 1);
      guardOn = true;
      return 1;
    }
    case GUARD_REG_LO: store<u32>(S + GUARD_NEXT_LO, v); return 1;
    case GUARD_REG_BYTES: {
      const n = load<i32>(S + GUARD_COUNT);
      if (n >= GUARD_WINDOWS) return 0;
      const w = S + GUARD_WIN + (<usize>n << 3);
      store<u32>(w, load<u32>(S + GUARD_NEXT_LO));
      store<u32>(w, v, 4);
      store<i32>(S + GUARD_COUNT, n + 1);
      return 1;
    }
    case GUARD_REG_STACK_LO: store<u32>(S + GUARD_STACK_LO, v); return 1;
    case GUARD_REG_STACK_HI: store<u32>(S + GUARD_STACK_HI, v); return 1;
    case GUARD_REG_END: store<i32>(S + GUARD_COUNT, 0); return 1;
    default: return 0;
  }
}
