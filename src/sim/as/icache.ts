// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The cluster's instruction cache, as GVSoC's Siracusa configures it (gvsoc-facts.md section 1:
// gvsoc-pulp pulp/chips/siracusa/cluster.json, the hierarchical cache): a private L0 per core
// (8 sets x 4 ways of 16-byte lines for a worker, 32 sets for the controller) refilled from an
// L1 shared by all nine cores (8 banks interleaved on the line, 8 sets x 4 ways each, 4 KiB),
// refilled from L2. A hit costs nothing; an L0 miss that hits the L1 stalls the core 2 cycles
// (the L0's refill latency); an L1 miss 18 (the L1's refill latency 2 and the way to L2 through
// the cluster and SoC interconnects, 2 + 12, then the L0's 2). Victims are chosen pseudo-randomly
// by an 8-bit LFSR per cache, as GVSoC does. Not modelled: several cores waiting on one L1 bank's
// refill (GVSoC serialises them; we charge each its own latency at its own clock).
//
// The core fetches a 16-byte line into its fetch buffer and looks up the L0 again only when the
// pc leaves that line (the run loop checks; IC_LINE in the core record is the buffered line).
import { IC_FETCH, IC_LINE, IC_MISS, IC_REFILL_L2, ICACHE_TAGS, MAX_CORES, STALL_ICACHE } from './layout';
import { coreState } from './core';

const WAYS: u32 = 4;
const L0_SETS: u32 = 8; // a worker's: 512 B
const L0_CC_SETS: u32 = 32; // the controller's (hart 8): 2 KiB
const CC_HART: i32 = 8;
const CACHED_CORES: i32 = 9; // the 8 workers and the controller
const L1_BANKS: u32 = 8;
const L1_SETS: u32 = 8;
/** Stall of an L0 miss that hits the L1; of one that also misses it (code refilled from L2). */
export const L0_REFILL_CYCLES: i32 = 2;
export const L2_REFILL_CYCLES: i32 = 18;

// Tags (line + 1; 0 is empty), way by way inside a set: the L0s (room for the controller's 32
// sets in every core's slot), then the L1 banks, then one LFSR word per cache.
const L0_SLOT: usize = <usize>(L0_CC_SETS * WAYS * 4);
const L1_TAGS: usize = ICACHE_TAGS + <usize>CACHED_CORES * L0_SLOT;
const LFSRS: usize = L1_TAGS + <usize>(L1_BANKS * L1_SETS * WAYS * 4);
const LFSR_COUNT: i32 = CACHED_CORES + <i32>L1_BANKS;
export const ICACHE_END: usize = LFSRS + <usize>LFSR_COUNT * 4;
// 0x13644: below SCRATCH (layout.ts); cluster.test.ts checks it through icacheEnd().

/** Turned on by the cluster (clusterReset), off for the bare core (runElf: ideal fetch). */
export let icacheModel: bool = false;

/** Empty caches, every core's fetch buffer empty; `on` says whether fetches are timed at all. */
export function icacheReset(on: bool): void {
  icacheModel = on;
  memory.fill(ICACHE_TAGS, 0, LFSRS - ICACHE_TAGS);
  for (let i = 0; i < LFSR_COUNT; i++) store<u32>(LFSRS + (<usize>i << 2), 1);
  for (let c = 0; c < MAX_CORES; c++) store<u32>(coreState(c) + IC_LINE, 0xffffffff);
}

/** The next victim way of cache `i` (Galois LFSR x^8 + x^6 + x^5 + x^4 + 1). */
function victim(i: i32): u32 {
  const p = LFSRS + (<usize>i << 2);
  const x = load<u32>(p);
  const nx = (x >> 1) ^ ((0 - (x & 1)) & 0xb8);
  store<u32>(p, nx);
  return nx & (WAYS - 1);
}

/** Turns fetch timing on or off (the host: an ideal-fetch run). */
export function setIcacheModel(on: i32): void { icacheModel = on != 0; }

/** Looks `tag` up in the WAYS ways at `set`; on a miss fills a victim chosen by LFSR `lfsr`. */
function lookup(set: usize, tag: u32, lfsr: i32): bool {
  for (let w: u32 = 0; w < WAYS; w++) if (load<u32>(set + (<usize>w << 2)) == tag) return true;
  store<u32>(set + (<usize>victim(lfsr) << 2), tag);
  return false;
}

@inline function bump(p: usize, by: u64): void { store<u64>(p, load<u64>(p) + by); }

/** Core `core` (record S) fetches the line holding pc into its buffer: the stall in cycles. */
export function icacheFetch(S: usize, core: i32, pc: u32): i32 {
  const line = pc >> 4;
  store<u32>(S + IC_LINE, line);
  bump(S + IC_FETCH, 1);
  const tag = line + 1;
  const sets: u32 = core == CC_HART ? L0_CC_SETS : L0_SETS;
  const l0 = ICACHE_TAGS + <usize>core * L0_SLOT + (<usize>(line & (sets - 1)) << 4);
  if (lookup(l0, tag, core)) return 0;
  bump(S + IC_MISS, 1);
  const bank = line & (L1_BANKS - 1);
  const l1 = L1_TAGS + (<usize>(bank * L1_SETS + ((line >> 3) & (L1_SETS - 1))) << 4);
  let stall = L0_REFILL_CYCLES;
  if (!lookup(l1, tag, CACHED_CORES + <i32>bank)) { bump(S + IC_REFILL_L2, 1); stall = L2_REFILL_CYCLES; }
  bump(S + STALL_ICACHE, <u64>stall);
  return stall;
}
