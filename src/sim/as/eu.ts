// @ts-nocheck -- AssemblyScript (compiled by asc, see src/sim/gen/build.ts), not TypeScript.
// The event unit (our register layout: src/sim/README.md): fork / join of worker teams, the
// hardware barrier, software events, and sleeping cores. A core that must wait leaves its run
// loop before the access (MEV_SLEEP) and re-executes it when woken; the wake-up cycle comes
// from the cores' own clocks (e.g. the last arrival at a barrier), so the order in which the
// scheduler ran the cores does not change the timing.
import {
  CAUSE_GUARD, CORE_RUN, CORE_SLEEP, CYCLES, DISPATCH_PC, EVENTS, EVT_AT, FORK_AT, FORK_ARG_OF, FORK_FN_OF,
  GUARD_COUNT, GUARD_ON, GUARD_STACK_HI, HARTID, IDLE, MEV_SLEEP, PC, PERIPH_BASE, REGS, STATE, STOP_CAUSE,
  TEAM, TEAM_INDEX, TRAP_INSN, TRAP_PC, TRAP_TVAL, WAIT,
} from './layout';
import { coreState, insnAt } from './core';
import { GW_DISPATCH, guardClear, guardDeny } from './guard';
import { addStall, curCore, curS, fullNow, setEvent, setFaultAt } from './mem';
import { requestYield } from './periph';
import { profIdle, profJob } from './profile';
import { TR_BARRIER, TR_FORK, TR_SLEEP, TR_WAKE, traceAt, traceEvent, traceMode } from './trace';

// Register offsets inside the event unit's window.
export const EU_CORE_ID: u32 = 0x00; // R: the caller's hart id
export const EU_TEAM_SIZE: u32 = 0x04; // R: cores in the caller's fork (1 outside a fork)
export const EU_TEAM_INDEX: u32 = 0x08; // R: the caller's index in its fork (0 outside)
export const EU_FORK_FN: u32 = 0x0c; // W: function of the next fork
export const EU_FORK_ARG: u32 = 0x10; // W: argument of the next fork; R: the caller's job argument
export const EU_FORK: u32 = 0x14; // W: core mask (bits 0..7): dispatch the job to those workers
export const EU_WAIT_FORK: u32 = 0x18; // R, blocking: a worker's next job; returns its function
export const EU_DONE: u32 = 0x1c; // W: a worker finished its job
export const EU_JOIN: u32 = 0x20; // R, blocking: until every core of the last fork wrote DONE
export const EU_BARRIER: u32 = 0x24; // R, blocking: the hardware barrier of the caller's team
export const EU_EVT_TRIGGER: u32 = 0x28; // W: core mask (bits 0..8): set their software event
export const EU_EVT_WAIT: u32 = 0x2c; // R, blocking: until the caller's software event is set (clears it)

// Pending event bits (core record EVENTS).
const EV_FORK: u32 = 1;
const EV_BARRIER: u32 = 2;
const EV_SW: u32 = 4;

// What a sleeping core waits for (core record WAIT).
export const WAIT_FORK: i32 = 1;
export const WAIT_JOIN: i32 = 2;
export const WAIT_BARRIER: i32 = 3;
export const WAIT_EVENT: i32 = 4;

// Latencies in cycles from the triggering access to the woken core's first cycle: GVSoC's event
// unit (gvsoc-pulp pulp/event_unit/eu_v3_impl.cpp; gvsoc-facts.md section 5) takes
// EU_WAKEUP_LATENCY 2 from the event to the core's clock and EU_WAKEUP_REQ_LATENCY 6 to answer
// the core's wait request, for a dispatched fork, a barrier, the join's and software events alike.
export const FORK_LAT: u64 = 8;
export const BARRIER_LAT: u64 = 8;
export const JOIN_LAT: u64 = 8;
export const EVENT_LAT: u64 = 8;

export const WORKERS: i32 = 8;

let forkFn: u32 = 0;
let forkArg: u32 = 0;
let team: u32 = 0; // cores of the fork not joined yet
let teamDone: u32 = 0;
let lastDone: u64 = 0;
let joiner: i32 = -1;
let arrived: u32 = 0;
let lastArrival: u64 = 0;

export function euReset(): void {
  forkFn = 0; forkArg = 0; team = 0; teamDone = 0; lastDone = 0; joiner = -1; arrived = 0; lastArrival = 0;
}

/** Wakes `core` if it sleeps on `kind`: its clock jumps to `at` and the gap counts as idle. */
function wake(core: i32, kind: i32, at: u64): void {
  const S = coreState(core);
  if (load<i32>(S + STATE) != CORE_SLEEP || load<i32>(S + WAIT) != kind) return;
  store<i32>(S + STATE, CORE_RUN);
  const c = load<u64>(S + CYCLES);
  if (at > c) {
    store<u64>(S + IDLE, load<u64>(S + IDLE) + (at - c));
    store<u64>(S + CYCLES, at);
    profIdle(core, c, at, <u16>kind);
  }
  if (traceMode & 1) traceAt(TR_WAKE, core, at > c ? at : c, 0, <u32>(at > c ? at - c : 0));
  requestYield();
}

/** The caller goes to sleep; it re-executes the access when woken. */
function sleep(kind: i32, now: u32): void {
  store<i32>(curS + STATE, CORE_SLEEP);
  store<i32>(curS + WAIT, kind);
  setEvent(MEV_SLEEP);
  traceEvent(TR_SLEEP, now, 0, kind);
}

/** Waits (as idle time) until `at` when the caller is early (waiting for `kind`). */
function idleUntil(at: u64, now: u32, kind: i32): void {
  const t = fullNow(now);
  if (at > t) { addStall(<i32>(at - t), IDLE); profIdle(curCore, t, at, <u16>kind); }
}

@inline function has(S: usize, ev: u32): bool { return (load<u32>(S + EVENTS) & ev) != 0; }
@inline function clear(S: usize, ev: u32): void { store<u32>(S + EVENTS, load<u32>(S + EVENTS) & ~ev); }

export function euRead(off: u32, a: u32, now: u32): u32 {
  const S = curS;
  switch (off) {
    case EU_CORE_ID: return load<u32>(S + HARTID);
    case EU_TEAM_SIZE: { const t = load<u32>(S + TEAM); return t == 0 ? 1 : <u32>popcnt(t); }
    case EU_TEAM_INDEX: return load<u32>(S + TEAM) == 0 ? 0 : load<u32>(S + TEAM_INDEX);
    case EU_FORK_ARG: return load<u32>(S + FORK_ARG_OF);
    case EU_WAIT_FORK:
      // A guarded core, or one whose dispatcher is not known yet, first sleeps: euSlept then
      // checks (or learns) where it is, and wakes it at once if its job is waiting.
      if (load<i32>(S + GUARD_ON) != 0 || load<u32>(S + DISPATCH_PC) == 0) { sleep(WAIT_FORK, now); return 0; }
      if (has(S, EV_FORK)) {
        clear(S, EV_FORK);
        const at = load<u64>(S + FORK_AT);
        idleUntil(at, now, WAIT_FORK);
        const t = fullNow(now);
        profJob(curCore, at > t ? at : t, false);
        return load<u32>(S + FORK_FN_OF);
      }
      sleep(WAIT_FORK, now);
      return 0;
    case EU_JOIN:
      if (team == 0) return 0;
      if (teamDone == team) { team = 0; idleUntil(lastDone + JOIN_LAT, now, WAIT_JOIN); return 0; }
      joiner = curCore;
      sleep(WAIT_JOIN, now);
      return 0;
    case EU_BARRIER: return barrier(S, now);
    case EU_EVT_WAIT:
      if (has(S, EV_SW)) { clear(S, EV_SW); idleUntil(load<u64>(S + EVT_AT), now, WAIT_EVENT); return 1; }
      sleep(WAIT_EVENT, now);
      return 0;
    default:
      setFaultAt(a, false);
      return 0;
  }
}

function barrier(S: usize, now: u32): u32 {
  if (has(S, EV_BARRIER)) { clear(S, EV_BARRIER); return 0; }
  const t = load<u32>(S + TEAM);
  if (t == 0) return 0; // outside a fork: a team of one
  const me: u32 = 1 << <u32>curCore;
  arrived |= me;
  const at = fullNow(now);
  if (at > lastArrival) lastArrival = at;
  if ((arrived & t) != t) { sleep(WAIT_BARRIER, now); return 0; }
  // The last arrival releases everybody at the latest arrival's cycle plus the latency.
  const release = lastArrival + BARRIER_LAT;
  traceEvent(TR_BARRIER, now, t, 0);
  arrived = 0;
  lastArrival = 0;
  for (let c = 0; c < WORKERS; c++) {
    if (((t >> <u32>c) & 1) == 0 || c == curCore) continue;
    const C = coreState(c);
    store<u32>(C + EVENTS, load<u32>(C + EVENTS) | EV_BARRIER);
    wake(c, WAIT_BARRIER, release);
  }
  idleUntil(release, now, WAIT_BARRIER);
  return 0;
}

/** A write (a bad one sets a store fault). */
export function euWrite(off: u32, a: u32, v: u32, now: u32): void {
  const S = curS;
  switch (off) {
    case EU_FORK_FN: forkFn = v; return;
    case EU_FORK_ARG: forkArg = v; return;
    case EU_FORK: fork(v & 0xff, a, now); return;
    case EU_DONE: {
      const me: u32 = 1 << <u32>curCore;
      if (load<u32>(S + TEAM) == 0 || (team & me) == 0) { setFaultAt(a, true); return; }
      store<u32>(S + TEAM, 0);
      // The guard stays on: a kernel that writes DONE itself and runs on is still checked; it
      // ends when the core is back in its dispatcher (euSlept).
      teamDone |= me;
      const at = fullNow(now);
      profJob(curCore, at, true);
      if (at > lastDone) lastDone = at;
      if (teamDone == team && joiner >= 0) { wake(joiner, WAIT_JOIN, lastDone + JOIN_LAT); joiner = -1; }
      return;
    }
    case EU_EVT_TRIGGER: {
      const at = fullNow(now) + EVENT_LAT;
      for (let c = 0; c <= WORKERS; c++) {
        if (((v >> <u32>c) & 1) == 0) continue;
        const C = coreState(c);
        store<u32>(C + EVENTS, load<u32>(C + EVENTS) | EV_SW);
        store<u64>(C + EVT_AT, at);
        wake(c, WAIT_EVENT, at);
      }
      return;
    }
    default:
      setFaultAt(a, true);
  }
}

/** The event unit's address of WAIT_FORK (the tval of a guard broken there). */
const WAIT_FORK_ADDR: u32 = PERIPH_BASE + 0x800 + EU_WAIT_FORK;

/**
 * After core c left its run loop to sleep (the scheduler calls it; the core's pc is in its
 * record now): at a read of WAIT_FORK, learn the dispatcher's pc the first time (crt0.S's loop:
 * the first read of a worker is there, before any job) and, on a guarded core, end the guard
 * only if it is back there with its stack pointer at its stack's top: the kernel returned, and
 * no code of it can run again. Anywhere else the read is a CAUSE_GUARD trap (returns 1). Then a
 * job already waiting wakes the core, which reads WAIT_FORK again and takes it.
 */
export function euSlept(c: i32): i32 {
  const S = coreState(c);
  if (load<i32>(S + STATE) != CORE_SLEEP || load<i32>(S + WAIT) != WAIT_FORK) return 0;
  const pc = load<u32>(S + PC);
  const d = load<u32>(S + DISPATCH_PC);
  if (load<i32>(S + GUARD_ON) != 0) {
    if (pc != d || load<u32>(S + REGS + 8) != load<u32>(S + GUARD_STACK_HI)) {
      store<i32>(S + STOP_CAUSE, guardDeny(S, GW_DISPATCH, 4));
      store<u32>(S + TRAP_PC, pc);
      store<u32>(S + TRAP_INSN, insnAt(pc));
      store<u32>(S + TRAP_TVAL, WAIT_FORK_ADDR);
      return 1;
    }
    guardClear(S, false);
  } else if (d == 0) {
    store<u32>(S + DISPATCH_PC, pc);
  }
  store<i32>(S + GUARD_COUNT, 0); // windows declared for a guard never started do not carry over
  if (has(S, EV_FORK)) wake(c, WAIT_FORK, load<u64>(S + FORK_AT));
  return 0;
}

/** Dispatches (forkFn, forkArg) to the workers in `mask`; a fork before the last join faults. */
function fork(mask: u32, a: u32, now: u32): void {
  if (mask == 0 || team != 0) { setFaultAt(a, true); return; }
  team = mask;
  teamDone = 0;
  lastDone = 0;
  arrived = 0;
  lastArrival = 0;
  const at = fullNow(now) + FORK_LAT;
  traceEvent(TR_FORK, now, mask, forkFn);
  let index: u32 = 0;
  for (let c = 0; c < WORKERS; c++) {
    if (((mask >> <u32>c) & 1) == 0) continue;
    const C = coreState(c);
    store<u32>(C + FORK_FN_OF, forkFn);
    store<u32>(C + FORK_ARG_OF, forkArg);
    store<u32>(C + TEAM, mask);
    store<u32>(C + TEAM_INDEX, index++);
    store<u32>(C + EVENTS, load<u32>(C + EVENTS) | EV_FORK);
    store<u64>(C + FORK_AT, at);
    wake(c, WAIT_FORK, at);
  }
}
