// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The cluster DMA (MCHAN-like, our register layout: src/sim/README.md) and the SoC's uDMA
// channel to L3. The bytes move when a command is accepted; its completion cycle comes from a
// timing model fixed at that moment, and software that waits for the id sleeps until then
// (on hardware the data is only valid after the wait too).
//
// Cluster DMA timing, GVSoC's MCHAN v7 in its Siracusa configuration (src/sim/gvsoc-facts.md
// section 4): one engine, transfers in order. A transfer is accepted DMA_SETUP cycles after the
// push and its first data reaches L1 DMA_L2_LAT later (about 3 cycles in all: MCHAN does not
// wait for L2's latency), or when the previous transfer's data is through; then every row moves
// at 8 B/cycle (two 4-byte TCDM ports per direction) in 256 B bursts: ceil(row bytes / 8)
// cycles per row. At most DMA_QUEUE transfers are in flight; a push beyond that waits for the
// oldest.
import {
  CAUSE_LOAD_FAULT, DMA_IDS, DMA_RING, IC_L1, IC_L2, IDLE, L1_BASE, L1_SIZE, L2_BASE, L2_SIZE, L3_BASE,
  L3_SIZE, MEM_L1, MEM_L2, MEM_L3,
} from './layout';
import { icacheInvalidate } from './core';
import { addStall, curCore, curS, fullNow, setFaultAt, setGuardFault } from './mem';
import { GW_DMA, guardAllowsRange, guardOn } from './guard';
import { EV_DMA, EV_UDMA, IDLE_DMA, IDLE_UDMA, profEngine, profIdle } from './profile';
import { TR_DMA_END, TR_DMA_START, TR_DMA_WAIT, TR_L3, traceAt, traceEvent, traceMode } from './trace';

export const DMA_L1: u32 = 0x00; // RW: L1 address
export const DMA_L2: u32 = 0x04; // RW: L2 address
export const DMA_ROW_BYTES: u32 = 0x08; // RW: bytes per row (the whole length for 1D)
export const DMA_L2_STRIDE: u32 = 0x0c; // RW: L2 bytes from one row's start to the next
export const DMA_ROWS: u32 = 0x10; // RW: rows (1 for 1D)
export const DMA_PUSH_IN: u32 = 0x14; // R: queue L2 -> L1 with the registers above; returns the id
export const DMA_PUSH_OUT: u32 = 0x18; // R: queue L1 -> L2; returns the id
export const DMA_WAIT: u32 = 0x1c; // W: id; the writer sleeps until that transfer is complete
export const DMA_OUTSTANDING: u32 = 0x20; // R: transfers not complete at the reader's cycle

export const DMA_SETUP: u64 = 2;
export const DMA_L2_LAT: u64 = 1;
export const DMA_BEAT: u32 = 8;
export const DMA_QUEUE: u32 = 16;

let l1: u32 = 0;
let l2: u32 = 0;
let rowBytes: u32 = 0;
let stride: u32 = 0;
let rows: u32 = 1;
let nextId: u32 = 1;
let engineFree: u64 = 0;
export let dmaBytes: u64 = 0;
export let dmaBusy: u64 = 0;
export let dmaTransfers: u32 = 0;

// uDMA (L3): copies block the writer for UDMA_LAT + bytes / UDMA_BYTES_PER_CYCLE cycles.
export const UDMA_L2: u32 = 0x00; // W: L2 address
export const UDMA_L3: u32 = 0x04; // W: L3 address
export const UDMA_SIZE_REG: u32 = 0x08; // W: bytes
export const UDMA_CMD: u32 = 0x0c; // W: 1 = L3 -> L2, 2 = L2 -> L3 (starts the copy, blocks)
export const UDMA_LAT: u64 = 100;
export const UDMA_BYTES_PER_CYCLE: u64 = 1;
let ul2: u32 = 0;
let ul3: u32 = 0;
let usize_: u32 = 0;
let udmaFree: u64 = 0;
export let l3Bytes: u64 = 0;
export let l3Busy: u64 = 0;

export function dmaReset(): void {
  l1 = 0; l2 = 0; rowBytes = 0; stride = 0; rows = 1; nextId = 1; engineFree = 0;
  dmaBytes = 0; dmaBusy = 0; dmaTransfers = 0;
  ul2 = 0; ul3 = 0; usize_ = 0; udmaFree = 0; l3Bytes = 0; l3Busy = 0;
  memory.fill(DMA_RING, 0, <usize>DMA_IDS * 8);
}

@inline function endOf(id: u32): u64 { return load<u64>(DMA_RING + (<usize>(id & (DMA_IDS - 1)) << 3)); }

export function dmaRead(off: u32, a: u32, now: u32): u32 {
  switch (off) {
    case DMA_L1: return l1;
    case DMA_L2: return l2;
    case DMA_ROW_BYTES: return rowBytes;
    case DMA_L2_STRIDE: return stride;
    case DMA_ROWS: return rows;
    case DMA_PUSH_IN: return push(true, a, now);
    case DMA_PUSH_OUT: return push(false, a, now);
    case DMA_OUTSTANDING: {
      const t = fullNow(now);
      let k: u32 = 0;
      for (let i: u32 = 1; i <= DMA_QUEUE && i < nextId; i++) if (endOf(nextId - i) > t) k++;
      return k;
    }
    default: setFaultAt(a, false); return 0;
  }
}

export function dmaWrite(off: u32, a: u32, v: u32, now: u32): void {
  switch (off) {
    case DMA_L1: l1 = v; return;
    case DMA_L2: l2 = v; return;
    case DMA_ROW_BYTES: rowBytes = v; return;
    case DMA_L2_STRIDE: stride = v; return;
    case DMA_ROWS: rows = v; return;
    case DMA_WAIT: {
      // An id never issued is a program bug; ids older than the ring are long complete.
      if (v == 0 || v >= nextId) { setFaultAt(a, true); return; }
      if (nextId - v > DMA_IDS) return;
      const t = fullNow(now);
      const end = endOf(v);
      if (end > t) { addStall(<i32>(end - t), IDLE); traceEvent(TR_DMA_WAIT, now, v, <u32>(end - t)); profIdle(curCore, t, end, IDLE_DMA); }
      return;
    }
    default: setFaultAt(a, true);
  }
}

/** Whether [addr, addr + len) lies in [base, base + size). */
@inline function inside(addr: u32, len: u64, base: u32, size: u32): bool {
  const o = addr - base;
  return o < size && <u64>o + len <= <u64>size;
}

function push(toL1: bool, a: u32, now: u32): u32 {
  // An empty transfer (no rows or no bytes) is legal: it completes after the setup.
  const total = <u64>rows * <u64>rowBytes;
  const span = total == 0 ? 0 : <u64>(rows - 1) * <u64>stride + <u64>rowBytes; // L2 bytes from the first row's start
  if (total != 0 && (!inside(l1, total, L1_BASE, L1_SIZE) || !inside(l2, span, L2_BASE, L2_SIZE))) {
    setFaultAt(!inside(l1, total, L1_BASE, L1_SIZE) ? l1 : l2, false);
    return 0;
  }
  // A guarded core's transfer writes only inside its windows (guard.ts).
  if (guardOn && total != 0) {
    if (toL1) {
      if (!guardAllowsRange(curS, l1, <u32>total)) { setGuardFault(l1, GW_DMA); return 0; }
    } else {
      for (let r: u32 = 0; r < rows; r++) {
        const at = l2 + r * stride;
        if (!guardAllowsRange(curS, at, rowBytes)) { setGuardFault(at, GW_DMA); return 0; }
      }
    }
  }
  const id = nextId++;
  let issue = fullNow(now);
  // A full queue: wait for the transfer DMA_QUEUE pushes ago.
  if (id > DMA_QUEUE) {
    const oldest = endOf(id - DMA_QUEUE);
    if (oldest > issue) { addStall(<i32>(oldest - issue), IDLE); profIdle(curCore, issue, oldest, IDLE_DMA); issue = oldest; }
  }
  let cycles: u64 = 0;
  for (let r: u32 = 0; total != 0 && r < rows; r++) {
    const p1 = MEM_L1 + <usize>(l1 - L1_BASE) + <usize>(r * rowBytes);
    const p2 = MEM_L2 + <usize>(l2 - L2_BASE) + <usize>(r * stride);
    if (toL1) memory.copy(p1, p2, rowBytes); else memory.copy(p2, p1, rowBytes);
    cycles += <u64>((rowBytes + DMA_BEAT - 1) / DMA_BEAT);
  }
  if (toL1) icacheInvalidate(IC_L1 + (<usize>(l1 - L1_BASE) << 2), <usize>total << 2);
  else icacheInvalidate(IC_L2 + (<usize>(l2 - L2_BASE) << 2), <usize>span << 2);
  const accepted = issue + DMA_SETUP;
  const firstData = accepted + DMA_L2_LAT;
  const start = firstData > engineFree ? firstData : engineFree;
  const end = start + cycles;
  dmaBusy += end - (accepted > engineFree ? accepted : engineFree);
  engineFree = end;
  store<u64>(DMA_RING + (<usize>(id & (DMA_IDS - 1)) << 3), end);
  dmaBytes += total;
  dmaTransfers++;
  profEngine(EV_DMA, curCore, start, end, <u32>total);
  if (traceMode & 1) {
    traceAt(TR_DMA_START, curCore, issue, id, <u32>total);
    traceAt(TR_DMA_END, curCore, end, id, <u32>total);
  }
  return id;
}

export function udmaWrite(off: u32, a: u32, v: u32, now: u32): void {
  switch (off) {
    case UDMA_L2: ul2 = v; return;
    case UDMA_L3: ul3 = v; return;
    case UDMA_SIZE_REG: usize_ = v; return;
    case UDMA_CMD: {
      if ((v != 1 && v != 2) || !inside(ul2, <u64>usize_, L2_BASE, L2_SIZE) || !inside(ul3, <u64>usize_, L3_BASE, L3_SIZE)) {
        setFaultAt(v != 1 && v != 2 ? a : !inside(ul2, <u64>usize_, L2_BASE, L2_SIZE) ? ul2 : ul3, true);
        return;
      }
      // A guarded core: L3 -> L2 only into its windows, never L2 -> L3 (L3 holds no window).
      if (guardOn && usize_ != 0 && (v == 2 || !guardAllowsRange(curS, ul2, usize_))) { setGuardFault(v == 2 ? ul3 : ul2, GW_DMA); return; }
      const p2 = MEM_L2 + <usize>(ul2 - L2_BASE);
      const p3 = MEM_L3 + <usize>(ul3 - L3_BASE);
      if (v == 1) { memory.copy(p2, p3, usize_); icacheInvalidate(IC_L2 + (<usize>(ul2 - L2_BASE) << 2), <usize>usize_ << 2); }
      else memory.copy(p3, p2, usize_);
      const t = fullNow(now);
      const start = t > udmaFree ? t : udmaFree;
      const end = start + UDMA_LAT + (<u64>usize_ + UDMA_BYTES_PER_CYCLE - 1) / UDMA_BYTES_PER_CYCLE;
      udmaFree = end;
      l3Bytes += <u64>usize_;
      l3Busy += end - start;
      addStall(<i32>(end - t), IDLE);
      traceEvent(TR_L3, now, ul3, usize_);
      profEngine(EV_UDMA, curCore, start, end, usize_);
      profIdle(curCore, t, end, IDLE_UDMA);
      return;
    }
    default: setFaultAt(a, true);
  }
}
