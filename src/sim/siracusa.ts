// Running a program on the Siracusa cluster: 8 workers and the controller in the wasm
// scheduler (src/sim/as/cluster.ts), with the host driving it in chunks of cycles so that a
// caller can cancel between chunks, servicing system calls, draining the console and
// collecting per-core and DMA statistics.
import { fail } from '../common/errors';
import type { Machine, StopReason, Trap } from './machine';
import { STOP } from './machine';
import { BoundedOutput } from './console';
import type { TraceMode, TraceRecord } from './trace';
import { TRACE_MODE_BITS, readTrace } from './trace';
import { ProfileLog, type ProfileSetup, type RawProfile } from './profile/log';

export const WORKERS = 8;
export const CONTROLLER = 8;
export const CLUSTER_CORES = 9;

export interface SiracusaOptions {
  /** Stop after about this many cycles (default 10^10). */
  maxCycles?: number;
  /** Record a trace: 'events' (sleep, wake, stalls, DMA, fork, barrier) or 'pc' (plus every instruction; slow). */
  trace?: TraceMode | boolean;
  /** Cycles per call into wasm between cancel checks (default 2 * 10^6). */
  chunkCycles?: number;
  /** Cores are interleaved in quanta of this many cycles (default 128). */
  quantum?: number;
  /** Polled between chunks; true stops the run ('cancelled'). */
  shouldStop?: () => boolean;
  /** Record the profile (src/sim/profile): the same cycles, plus where they went. */
  profile?: ProfileSetup;
  /** Instruction fetches never miss (the instruction cache model, src/sim/as/icache.ts, off). */
  idealFetch?: boolean;
}

export interface CoreStats {
  /** Hart id: 0..7 workers, 8 the controller. */
  core: number;
  instructions: number;
  /** Cycles lost, by cause: pipeline (load-use, branches, multi-cycle ops), TCDM bank conflicts, L2 latency, peripheral accesses, instruction cache refills. */
  stalls: { pipeline: number; bank: number; l2: number; periph: number; icache: number; loadUse?: number; branch?: number };
  /** Cycles asleep (clock-gated) or blocked on a DMA / uDMA wait. */
  idle: number;
  /** Loads and stores to L1 (TCDM bank accesses; src/sim/energy.ts charges them). */
  tcdmAccesses: number;
  /** Instruction cache (src/sim/as/icache.ts): 16-byte lines fetched from the core's L0, those that missed it, those also refilled from L2. */
  icache: IcacheStats;
}

export interface IcacheStats { fetches: number; misses: number; l2Refills: number }

export interface SiracusaResult {
  stopped: StopReason;
  exitCode: number | null;
  /** The program's output, at most OUTPUT_LIMIT bytes of each stream (src/sim/console.ts: the first and the latest half, a line between them saying how many were dropped). */
  stdout: string;
  stderr: string;
  /** Bytes of output beyond the limit, counted and not kept. */
  stdoutDropped: number;
  stderrDropped: number;
  /** The core that ended the program (stopped 'exit'; 8: the controller, as the harness does). */
  exitCore?: number;
  /** The cluster's cycle count when the run stopped (the stopping core's clock). */
  cycles: number;
  cores: CoreStats[];
  dma: { bytes: number; busyCycles: number; transfers: number };
  l3: { bytes: number; busyCycles: number };
  /** N-EUREKA: tasks run, cycles busy, bytes through its L1 / L2 port, weight bytes over the weight memory's link. */
  neureka: { tasks: number; busyCycles: number; bytes: number; wmemBytes: number };
  /** What all cores did between the program's hal_measure(1) and hal_measure(0) (the harness: RunNetwork). */
  measured?: { cycles: number; instructions: number; tcdmAccesses: number; dmaBytes: number };
  trap?: Trap;
  /** Which core waits for what, when stopped is 'deadlock'. */
  deadlock?: string;
  trace?: { records: TraceRecord[]; dropped: number };
  profile?: RawProfile;
}

/**
 * Cycles a system call (ecall) takes on a cluster core, beyond a cycle per byte it writes. The
 * Siracusa runtime makes none (its console is the PUTCHAR register); a program that does leaves
 * the simulator for the host each time, so each must cost enough simulated time that a loop of
 * them ends at the cycle limit in seconds, not hours (issue 39). A trap into a handler and back
 * costs hundreds of cycles on a real core. The bare core (runElf) charges nothing.
 */
export const ECALL_CYCLES = 1000;

const WAIT_NAMES: Record<number, string> = { 1: 'a fork', 2: 'the join', 3: 'the barrier', 4: 'an event' };

/** One run of a program on the cluster, advanced chunk by chunk. */
export class SiracusaRun {
  private readonly out = new BoundedOutput();
  private readonly err = new BoundedOutput();
  private readonly maxCycles: number;
  private readonly chunk: number;
  private until = 0;
  private final?: SiracusaResult;
  private readonly log?: ProfileLog;

  constructor(private readonly m: Machine, elf: Uint8Array, private readonly opts: SiracusaOptions = {}) {
    this.maxCycles = opts.maxCycles ?? 1e10;
    this.chunk = opts.chunkCycles ?? 2e6;
    if (!(this.maxCycles > 0) || !(this.chunk >= 1)) fail('bad-config', 'maxCycles and chunkCycles must be positive', 'runSiracusa');
    const entry = m.loadSegments(elf);
    m.touchAll();
    const w = m.wasm;
    w.clusterReset(entry >>> 0);
    if (opts.idealFetch) w.setIcacheModel(0);
    w.setQuantum(opts.quantum ?? 128);
    const mode = opts.trace === true ? 'events' : opts.trace || undefined;
    w.setTrace(mode ? TRACE_MODE_BITS[mode] : 0);
    w.setProfile(0, 0, 0);
    if (opts.profile) this.log = new ProfileLog(m, opts.profile);
  }

  get done(): SiracusaResult | undefined { return this.final; }

  /** Runs one chunk; returns the result once the program stopped. */
  step(): SiracusaResult | undefined {
    if (this.final) return this.final;
    if (this.opts.shouldStop?.()) return this.finish('cancelled');
    const w = this.m.wasm;
    this.until = Math.min(this.maxCycles, this.until + this.chunk);
    for (;;) {
      const why = w.clusterRun(this.until);
      this.drainConsole();
      this.log?.drain();
      const core = w.stopCore();
      switch (why) {
        case STOP.budget:
          return this.until >= this.maxCycles ? this.finish('limit') : undefined;
        case STOP.yield:
          continue;
        case STOP.ecall: {
          const r = this.m.serviceEcall(core, this.out, this.err);
          if (r?.exit !== undefined) {
            // A guarded kernel does not end the program (the harness's verdict would be its own).
            if (this.m.guarded(core)) { this.m.guardExitTrap(core); return this.finish('trap', null, core); }
            return this.finish('exit', r.exit, core);
          }
          // A system call costs its core ECALL_CYCLES plus a cycle per byte written: the host's
          // work per simulated cycle stays bounded, so an ecall flood reaches the cycle limit.
          this.m.addCycles(core, ECALL_CYCLES + (r?.wrote ?? 0));
          continue;
        }
        case STOP.exit: return this.finish('exit', w.exitCode(), core);
        case STOP.trap: return this.finish('trap', null, core);
        case STOP.deadlock: return this.finish('deadlock');
        default: fail('internal', `the cluster returned an unknown stop code ${why}`);
      }
    }
  }

  /** The console's bytes since the last drain, from wasm memory into the bounded stdout (no copy of what is dropped). */
  private drainConsole(): void {
    const w = this.m.wasm;
    const n = w.consoleLength();
    if (n > 0) this.out.write(new Uint8Array(w.memory.buffer, w.consoleBase(), n));
    w.consoleDrained();
  }

  private finish(stopped: StopReason, exitCode: number | null = null, core = -1): SiracusaResult {
    const m = this.m;
    const w = m.wasm;
    const clocks = Array.from({ length: CLUSTER_CORES }, (_, c) => m.cycles(c));
    const cycles = core >= 0 ? clocks[core] : Math.max(...clocks);
    const cores: CoreStats[] = clocks.map((own, c) => {
      const bank = m.counter(c, 'stallBank');
      const l2 = m.counter(c, 'stallL2');
      const periph = m.counter(c, 'stallPeriph');
      const icache = m.counter(c, 'stallIcache');
      const idle = m.counter(c, 'idle');
      const instructions = m.instret(c);
      // A core asleep at the end was idle from its last cycle to the end.
      const tail = m.coreState(c) === 1 && cycles > own ? cycles - own : 0;
      const stalls: CoreStats['stalls'] = { pipeline: own - instructions - bank - l2 - periph - icache - idle, bank, l2, periph, icache };
      // Counted apart from the rest of the pipeline's stalls only by the profiled run loop.
      if (this.log) { stalls.loadUse = m.counter(c, 'stallLoadUse'); stalls.branch = m.counter(c, 'stallBranch'); }
      return {
        core: c, instructions, stalls, idle: idle + tail, tcdmAccesses: m.counter(c, 'tcdmAcc'),
        icache: { fetches: m.counter(c, 'icFetch'), misses: m.counter(c, 'icMiss'), l2Refills: m.counter(c, 'icRefillL2') },
      };
    });
    const r: SiracusaResult = {
      stopped, exitCode, stdout: this.out.text(), stderr: this.err.text(),
      stdoutDropped: this.out.dropped, stderrDropped: this.err.dropped, ...(stopped === 'exit' ? { exitCore: core } : {}), cycles, cores,
      dma: { bytes: w.dmaStat(0), busyCycles: w.dmaStat(1), transfers: w.dmaStat(2) },
      l3: { bytes: w.dmaStat(3), busyCycles: w.dmaStat(4) },
      neureka: { tasks: w.neurekaStat(0), busyCycles: w.neurekaStat(1), bytes: w.neurekaStat(2), wmemBytes: w.neurekaStat(3) },
      ...(w.measureStat(4) > 0 ? { measured: { cycles: w.measureStat(0), instructions: w.measureStat(1), tcdmAccesses: w.measureStat(2), dmaBytes: w.measureStat(3) } } : {}),
    };
    if (stopped === 'trap') r.trap = m.trap(core);
    if (stopped === 'deadlock') {
      r.deadlock = clocks.map((_, c) => `core ${c} waits for ${WAIT_NAMES[m.view32(c, 'wait')] ?? 'nothing'}`).join('; ');
    }
    if (this.opts.trace) r.trace = readTrace(m);
    if (this.log) r.profile = this.log.finish();
    this.final = r;
    return r;
  }
}

/** Loads an ELF on the cluster and runs it to exit, trap, deadlock, the cycle limit or cancel. */
export function runSiracusa(m: Machine, elf: Uint8Array, opts: SiracusaOptions = {}): SiracusaResult {
  const run = new SiracusaRun(m, elf, opts);
  for (;;) {
    const r = run.step();
    if (r) return r;
  }
}

/** The same, yielding to the event loop between chunks; `signal` cancels. */
export async function runSiracusaAsync(m: Machine, elf: Uint8Array, opts: SiracusaOptions & { signal?: AbortSignal } = {}): Promise<SiracusaResult> {
  const run = new SiracusaRun(m, elf, { ...opts, shouldStop: () => !!opts.signal?.aborted || !!opts.shouldStop?.() });
  for (;;) {
    const r = run.step();
    if (r) return r;
    await new Promise((res) => setTimeout(res, 0));
  }
}
