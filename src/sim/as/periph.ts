// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The peripheral windows (register maps: src/sim/README.md): address decode, cluster_ctrl
// (exit, console), the timer, and memEvent, which the executor calls after an access that
// raised a memory event. Peripheral registers are words; a narrower access sees / writes the
// low bytes.
import {
  CONSOLE, CONSOLE_SIZE, MEV_EXIT, MEV_IO_WRITE, MEV_SLEEP, MEV_STALL, PERIPH_BASE, SCRATCH, STALL_PERIPH,
  UDMA_BASE,
} from './layout';
import { dmaRead, dmaWrite, udmaWrite } from './dma';
import { euRead, euWrite, WORKERS } from './eu';
import { neurekaRead, neurekaWrite } from './neureka';
import { addStall, curS, fault, fullNow, l2Gate, rawSetFault, setEvent, setFaultAt, setGuardFault, takeStall } from './mem';
import { GW_EXIT, GW_NPU, GW_REGS, guardOn, guardRead, guardWrite } from './guard';
import { measureRequest, measureReset } from './measure';

// Windows inside PERIPH_BASE (4 KiB-aligned blocks as in GVSoC's map).
export const CLUSTER_CTRL: u32 = 0x0000;
export const TIMER: u32 = 0x0400;
export const EVENT_UNIT: u32 = 0x0800;
export const NEUREKA: u32 = 0x1000; // N-EUREKA task registers (neureka.ts), 0x1000..0x13ff
export const GUARD: u32 = 0x1400; // the running core's write guard (guard.ts)
export const DMA: u32 = 0x1800;

// cluster_ctrl registers.
export const CC_EXIT: u32 = 0x00; // W: end the simulation with this exit code
export const CC_PUTCHAR: u32 = 0x04; // W: one byte to stdout
export const CC_WORKERS: u32 = 0x08; // R: number of worker cores (8)
export const CC_CTRL_HART: u32 = 0x0c; // R: hart id of the cluster controller (8)
export const CC_MEASURE: u32 = 0x10; // W: 1 starts, 0 ends the measured section (measure.ts)

// timer registers: the reading core's cycle counter.
export const TIMER_LO: u32 = 0x00;
export const TIMER_HI: u32 = 0x04;

/** Cycles a peripheral access takes beyond the instruction's own (cluster peripheral bus). */
export const PERIPH_EXTRA: i32 = 1;

const IO_SINK: usize = SCRATCH + 0x900;
let ioAddr: u32 = 0;

export let exitCode: i32 = 0;
export let consoleLen: u32 = 0;
/** Set when the scheduler should look again (a core was woken, the console needs draining). */
export let yieldReq: bool = false;
export let consoleFull: bool = false;

export function requestYield(): void { yieldReq = true; }
export function takeYield(): bool { const y = yieldReq; yieldReq = false; return y; }
export function periphReset(): void { exitCode = 0; consoleLen = 0; yieldReq = false; consoleFull = false; measureReset(); }
export function consoleDrained(): void { consoleLen = 0; consoleFull = false; }

/** A peripheral load at a: its value goes to the sink the load reads from. */
export function ioRead(a: u32, now: u32): usize {
  store<u32>(IO_SINK, readReg(a & ~3, now));
  if (fault != MEV_SLEEP) addStall(PERIPH_EXTRA, STALL_PERIPH);
  return IO_SINK + <usize>(a & 3);
}

/** A peripheral store at a: the store lands in the sink; memEvent commits it. */
export function ioWriteAt(a: u32): usize {
  store<u32>(IO_SINK, 0);
  ioAddr = a;
  rawSetFault(MEV_IO_WRITE);
  return IO_SINK + <usize>(a & 3);
}

function readReg(a: u32, now: u32): u32 {
  if (a - UDMA_BASE < 0x100) { setFaultAt(a, false); return 0; } // the uDMA registers are write-only
  const o = a - PERIPH_BASE;
  const block = o & ~0x3ff;
  const off = o & 0x3ff;
  if (block == CLUSTER_CTRL) {
    if (off == CC_WORKERS) return <u32>WORKERS;
    if (off == CC_CTRL_HART) return <u32>WORKERS;
  } else if (block == TIMER) {
    const t = fullNow(now);
    if (off == TIMER_LO) return <u32>t;
    if (off == TIMER_HI) return <u32>(t >> 32);
  } else if (block == EVENT_UNIT) {
    return euRead(off, a, now);
  } else if (block == NEUREKA) {
    return neurekaRead(off, a, now);
  } else if (block == GUARD) {
    const v = guardRead(curS, off);
    if (v >= 0) return <u32>v;
  } else if (block == DMA || block == DMA + 0x400) {
    return dmaRead(o - DMA, a, now);
  }
  setFaultAt(a, false);
  return 0;
}

function writeReg(a: u32, v: u32, now: u32): void {
  if (a - UDMA_BASE < 0x100) { udmaWrite(a - UDMA_BASE, a, v, now); return; }
  const o = a - PERIPH_BASE;
  const block = o & ~0x3ff;
  const off = o & 0x3ff;
  if (block == CLUSTER_CTRL) {
    if (off == CC_EXIT) {
      if (guardOn) { setGuardFault(a, GW_EXIT); return; } // a guarded kernel does not end the program
      exitCode = <i32>v; setEvent(MEV_EXIT); return;
    }
    if (off == CC_PUTCHAR) { putchar(v); return; }
    if (off == CC_MEASURE) { measureRequest(v != 0, fullNow(now)); requestYield(); return; }
  } else if (block == EVENT_UNIT) {
    euWrite(off, a, v, now);
    return;
  } else if (block == NEUREKA) {
    if (guardOn && off == 0) { setGuardFault(a, GW_NPU); return; } // COMMIT: the task would write where it likes
    neurekaWrite(off, a, v, now);
    return;
  } else if (block == GUARD) {
    const r = guardWrite(curS, off, v, l2Gate != 0);
    if (r == 1) return;
    if (r == 2) { setGuardFault(a, GW_REGS); return; }
  } else if (block == DMA || block == DMA + 0x400) {
    dmaWrite(o - DMA, a, v, now);
    return;
  }
  setFaultAt(a, true);
}

/** One byte of stdout; when the buffer is nearly full the host is asked to drain it. */
function putchar(v: u32): void {
  store<u8>(CONSOLE + <usize>consoleLen, <u8>v);
  consoleLen++;
  if (consoleLen >= CONSOLE_SIZE - 16) { consoleFull = true; yieldReq = true; }
}

/**
 * After an access that raised a memory event: commits a peripheral store, then returns the
 * instruction's extra cycles (>= 0), -1 to sleep (re-execute when woken), -2 for a trap
 * (fault holds the cause), -3 for exit.
 */
export function memEvent(now: u32): i32 {
  if (fault == MEV_IO_WRITE) {
    rawSetFault(0);
    addStall(PERIPH_EXTRA, STALL_PERIPH);
    writeReg(ioAddr & ~3, load<u32>(IO_SINK), now);
  }
  const f = fault;
  if (f > 0 && f < MEV_STALL) return -2;
  rawSetFault(0);
  const s = takeStall();
  if (f == MEV_SLEEP) return -1;
  if (f == MEV_EXIT) return -3;
  return s;
}
