// The host side of a simulated machine: memory map, loading an ELF, per-core state, and the
// single-core run loop (runElf) that services system calls between stretches of wasm
// execution. The Siracusa cluster's run loop is in siracusa.ts.
import { fail } from '../common/errors';
import { disassemble } from './disasm';
import { parseElf } from './elf';
import type { SimExports } from './wasm';
import { BoundedOutput, type OutputSink } from './console';

export interface Region { name: 'L2' | 'L1' | 'L3' | 'WMEM'; base: number; size: number; offset: number }

/**
 * Why a run stopped: the program exited, trapped, ran out of its cycle budget, every core
 * slept with nobody left to wake them (cluster only), or the host cancelled it.
 */
export type StopReason = 'exit' | 'trap' | 'limit' | 'deadlock' | 'cancelled';

export interface Trap {
  /** RISC-V mcause number and its name. */
  cause: number;
  name: string;
  pc: number;
  /** The instruction word at pc and its disassembly. */
  insn: number;
  disasm: string;
  /** The faulting address (access faults) or the instruction word (illegal instruction). */
  tval: number;
  /** The core that trapped (hart id; 8 is the cluster controller). */
  core: number;
  /** A store outside the core's write guard (cause GUARD_CAUSE): what the guard allowed, and the store's size. */
  guard?: GuardBreak;
}

/** What a guarded core (hal.h "write guard") was allowed when it stored `bytes` bytes at the trap's tval. */
export interface GuardBreak {
  /** The layer index hal_guard_begin gave. */
  layer: number;
  bytes: number;
  /** [lo, hi) of each window: hal_guard_begin's first, then hal_guard_allow's. */
  windows: [number, number][];
  /** The core's stack region [lo, hi). */
  stack: [number, number];
  /**
   * What the guarded core did: a store outside its windows; a write to the guard's own
   * registers (tval: the register); a DMA / uDMA transfer writing outside them (tval: the
   * destination); an N-EUREKA task; ending the program (the exit register or ecall); waiting for
   * a fork job anywhere but its dispatcher, with its stack pointer anywhere but its stack's top.
   */
  why: GuardWhy;
}

export type GuardWhy = 'store' | 'registers' | 'dma' | 'npu' | 'exit' | 'dispatch';
/** GUARD_WHY codes (src/sim/as/guard.ts GW_*). */
const GUARD_WHYS: readonly GuardWhy[] = ['store', 'registers', 'dma', 'npu', 'exit', 'dispatch'];

/** The custom trap cause of a store that broke the write guard (src/sim/as/layout.ts CAUSE_GUARD). */
export const GUARD_CAUSE = 24;

export interface RunResult {
  stopped: StopReason;
  /** The code passed to exit(); null unless stopped is 'exit'. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Bytes of output beyond the limit (src/sim/console.ts OUTPUT_LIMIT), counted, not kept. */
  stdoutDropped: number;
  stderrDropped: number;
  cycles: number;
  instructions: number;
  trap?: Trap;
}

export interface RunOptions {
  /** Stop after about this many cycles (default 10^10). */
  maxCycles?: number;
  /** Instructions per call into wasm between checks (default 10^7). */
  chunk?: number;
}

export const TRAP_NAMES: Record<number, string> = {
  0: 'misaligned instruction fetch', 1: 'instruction access fault', 2: 'illegal instruction',
  3: 'breakpoint', 5: 'load access fault', 7: 'store access fault', [GUARD_CAUSE]: 'store outside the write guard',
};

/** Why the wasm run loop returned (src/sim/as/layout.ts). */
export const STOP = { budget: 0, ecall: 1, trap: 2, sleep: 3, exit: 4, yield: 5, deadlock: 6 } as const;
const SYS_WRITE = 64;
const SYS_EXIT = 93;
const SYS_EXIT_GROUP = 94;
const ENOSYS = 38;
const EBADF = 9;
const EFAULT = 14;
const REG_A0 = 10;
const REG_A7 = 17;

/** Core record fields, by index of the wasm export coreField(i). */
const CORE_FIELDS = [
  'pc', 'cause', 'trapPc', 'trapInsn', 'trapTval', 'cycles', 'instret', 'hwloop', 'hartid',
  'state', 'wait', 'stallBank', 'stallL2', 'idle', 'stallPeriph', 'stallLoadUse', 'stallBranch',
  'guardLayer', 'guardCount', 'guardWin', 'guardStackLo', 'guardStackHi', 'guardBytes', 'tcdmAcc',
  'icFetch', 'icMiss', 'icRefillL2', 'stallIcache', 'guardOn', 'guardWhy',
] as const;
type CoreField = (typeof CORE_FIELDS)[number];

/** What a system call did: the program exited with a code, or it continues (having written `wrote` bytes). */
export type EcallOutcome = { exit: number; wrote?: undefined } | { exit?: undefined; wrote: number } | undefined;

export class Machine {
  readonly regions: readonly Region[];
  private readonly field: Record<CoreField, number>;

  constructor(readonly wasm: SimExports) {
    this.regions = [
      { name: 'L2', base: wasm.l2Base() >>> 0, size: wasm.l2Size(), offset: wasm.memL2() },
      { name: 'L1', base: wasm.l1Base() >>> 0, size: wasm.l1Size(), offset: wasm.memL1() },
      { name: 'L3', base: wasm.l3Base() >>> 0, size: wasm.l3Size(), offset: wasm.memL3() },
      { name: 'WMEM', base: wasm.wmemBase() >>> 0, size: wasm.wmemSize(), offset: wasm.memWmem() },
    ];
    this.field = Object.fromEntries(CORE_FIELDS.map((f, i) => [f, wasm.coreField(i)])) as Record<CoreField, number>;
  }

  /** Views are made per access: the memory has a fixed size, but this stays correct if it grows. */
  private get bytes(): Uint8Array { return new Uint8Array(this.wasm.memory.buffer); }
  private get view(): DataView { return new DataView(this.wasm.memory.buffer); }

  /** The wasm offset of [addr, addr + len) if it lies inside one region. */
  offsetOf(addr: number, len: number): number | undefined {
    const a = addr >>> 0;
    for (const r of this.regions) if (a >= r.base && a + len <= r.base + r.size) return r.offset + (a - r.base);
    return undefined;
  }

  private mapped(addr: number, len: number, what: string): number {
    const off = this.offsetOf(addr, len);
    if (off === undefined) {
      const map = this.regions.map((r) => `${r.name} 0x${r.base.toString(16)}..0x${(r.base + r.size).toString(16)}`).join(', ');
      fail('bad-file', `${what} at 0x${(addr >>> 0).toString(16)} (${len} bytes) is outside the memory map (${map})`);
    }
    return off;
  }

  write(addr: number, data: Uint8Array): void {
    this.bytes.set(data, this.mapped(addr, data.length, 'write'));
    for (const r of this.regions) if (addr >>> 0 >= r.base && (addr >>> 0) < r.base + r.size) this.dirty.add(r.name);
  }

  read(addr: number, len: number): Uint8Array {
    const off = this.mapped(addr, len, 'read');
    return this.bytes.slice(off, off + len);
  }

  readWord(addr: number): number { return this.view.getUint32(this.mapped(addr, 4, 'read'), true); }
  writeWord(addr: number, v: number): void { this.view.setUint32(this.mapped(addr, 4, 'write'), v >>> 0, true); }

  /** Regions that may hold non-zero bytes (L3 and the weight memory are large and rarely used). */
  private dirty = new Set<Region['name']>(['L2', 'L1', 'L3', 'WMEM']);

  /** Zeroes all memory and empties the instruction cache. */
  clearMemory(): void {
    for (const r of this.regions) if (this.dirty.has(r.name)) this.bytes.fill(0, r.offset, r.offset + r.size);
    this.dirty = new Set(['L2', 'L1']);
    this.wasm.flushICache();
  }

  /** Marks L3 and the weight memory as possibly written (a cluster program ran). */
  touchAll(): void { for (const r of this.regions) this.dirty.add(r.name); }

  /** Call after writing code into memory behind the simulator's back. */
  codeChanged(): void { this.wasm.flushICache(); }

  // ---------------------------------------------------------------- cores
  resetCore(core: number, pc: number, hartid = core): void {
    if ((pc & 1) !== 0) fail('bad-file', `entry point 0x${(pc >>> 0).toString(16)} is not halfword aligned`);
    this.wasm.resetCore(core, pc >>> 0, hartid);
  }

  private base(core: number): number { return this.wasm.coreBase(core); }
  reg(core: number, r: number): number { return r === 0 ? 0 : this.view.getInt32(this.base(core) + r * 4, true); }
  setReg(core: number, r: number, v: number): void { if (r !== 0) this.view.setInt32(this.base(core) + r * 4, v | 0, true); }
  pc(core: number): number { return this.view.getUint32(this.base(core) + this.field.pc, true); }
  setPc(core: number, pc: number): void { this.view.setUint32(this.base(core) + this.field.pc, pc >>> 0, true); }
  cycles(core: number): number { return Number(this.view.getBigUint64(this.base(core) + this.field.cycles, true)); }
  instret(core: number): number { return Number(this.view.getBigUint64(this.base(core) + this.field.instret, true)); }
  /** A 64-bit counter of the core record (cycles, stalls, idle) as a number. */
  counter(core: number, f: 'stallBank' | 'stallL2' | 'idle' | 'stallPeriph' | 'stallLoadUse' | 'stallBranch' | 'tcdmAcc'
    | 'icFetch' | 'icMiss' | 'icRefillL2' | 'stallIcache'): number {
    return Number(this.view.getBigUint64(this.base(core) + this.field[f], true));
  }
  /** A 32-bit field of the core record. */
  view32(core: number, f: 'wait' | 'state'): number { return this.view.getInt32(this.base(core) + this.field[f], true); }
  /** 0 running, 1 asleep, 2 off (src/sim/as/layout.ts). */
  coreState(core: number): number { return this.view.getInt32(this.base(core) + this.field.state, true); }
  /** Hardware loop L's [start, end, count]. */
  hwloop(core: number, L: 0 | 1): [number, number, number] {
    const b = this.base(core) + this.field.hwloop + L * 12;
    return [this.view.getUint32(b, true), this.view.getUint32(b + 4, true), this.view.getUint32(b + 8, true)];
  }

  trap(core: number): Trap {
    const b = this.base(core);
    const cause = this.view.getInt32(b + this.field.cause, true);
    const pc = this.view.getUint32(b + this.field.trapPc, true);
    const insn = this.view.getUint32(b + this.field.trapInsn, true);
    const u32 = (off: number) => this.view.getUint32(b + off, true);
    const trap: Trap = {
      cause, name: TRAP_NAMES[cause] ?? `cause ${cause}`, pc, insn,
      disasm: disassemble(insn, pc).text, tval: u32(this.field.trapTval),
      core: this.view.getInt32(b + this.field.hartid, true),
    };
    if (cause === GUARD_CAUSE) {
      const f = this.field;
      const windows = Array.from({ length: u32(f.guardCount) }, (_, i): [number, number] => {
        const lo = u32(f.guardWin + 8 * i);
        return [lo, lo + u32(f.guardWin + 8 * i + 4)];
      });
      trap.guard = {
        layer: u32(f.guardLayer), bytes: u32(f.guardBytes), windows, stack: [u32(f.guardStackLo), u32(f.guardStackHi)],
        why: GUARD_WHYS[u32(f.guardWhy)] ?? 'store',
      };
    }
    return trap;
  }

  /** Whether the core runs under a write guard (hal.h "write guard"). */
  guarded(core: number): boolean { return this.view.getInt32(this.base(core) + this.field.guardOn, true) !== 0; }

  /**
   * Stops a guarded core that ended the program with an ecall, as the exit register does in
   * wasm (guard.ts GW_EXIT): the trap's fields in its record, pc at the ecall.
   */
  guardExitTrap(core: number): void {
    const b = this.base(core), f = this.field, v = this.view;
    const pc = (this.pc(core) - 4) >>> 0; // the run loop stepped past the ecall
    v.setInt32(b + f.cause, GUARD_CAUSE, true);
    v.setUint32(b + f.trapPc, pc, true);
    v.setUint32(b + f.trapInsn, 0x00000073, true);
    v.setUint32(b + f.trapTval, pc, true);
    v.setUint32(b + f.guardBytes, 0, true);
    v.setUint32(b + f.guardWhy, GUARD_WHYS.indexOf('exit'), true);
  }

  /** Adds cycles to a core's clock, as peripheral stall cycles (a cluster ecall's cost). */
  addCycles(core: number, n: number): void {
    const b = this.base(core), v = this.view;
    v.setBigUint64(b + this.field.cycles, v.getBigUint64(b + this.field.cycles, true) + BigInt(n), true);
    v.setBigUint64(b + this.field.stallPeriph, v.getBigUint64(b + this.field.stallPeriph, true) + BigInt(n), true);
  }

  /** Runs a core for at most `budget` instructions; returns the raw stop code. */
  step(core: number, budget: number): number { return this.wasm.run(core, budget, 0); }

  // ---------------------------------------------------------------- programs
  /**
   * Loads an ELF's segments (memory cleared first; L3 and weight-memory sections too) and
   * returns its entry point. loadElf then starts one bare core; siracusa.ts the cluster.
   */
  loadSegments(bytes: Uint8Array, name = 'program.elf'): number {
    const elf = parseElf(bytes, name);
    this.clearMemory();
    for (const s of elf.segments) {
      const off = this.offsetOf(s.vaddr, s.memsz);
      if (off === undefined) {
        const map = this.regions.map((r) => `${r.name} 0x${r.base.toString(16)}..0x${(r.base + r.size).toString(16)}`).join(', ');
        fail('bad-file', `segment at 0x${s.vaddr.toString(16)} (${s.memsz} bytes) is outside the Siracusa memory map (${map})`,
          name, `link the program for ${this.regions.map((r) => `${r.name === 'WMEM' ? 'the weight memory' : r.name} (0x${r.base.toString(16)})`).join(', ').replace(/, ([^,]*)$/, ' or $1')}`);
      }
      this.write(s.vaddr, s.data);
    }
    this.wasm.flushICache();
    if ((elf.entry & 1) !== 0) fail('bad-file', `entry point 0x${(elf.entry >>> 0).toString(16)} is not halfword aligned`, name);
    return elf.entry;
  }

  /** Loads an ELF and puts core 0 at its entry, as a bare core (no cluster timing). */
  loadElf(bytes: Uint8Array, name = 'program.elf'): void {
    const entry = this.loadSegments(bytes, name);
    this.wasm.bareMode();
    this.resetCore(0, entry, 0);
  }

  /**
   * Services the Linux-style system call core `core` stopped on: a7 = 64 write(fd, buf, len)
   * to stdout / stderr, a7 = 93 or 94 exit(code); others return -ENOSYS. A write's bytes go
   * straight from the simulated memory to the sink (which keeps what its bound allows: nothing
   * is allocated for them); a buffer that is not wholly inside one memory (a huge length, a bad
   * pointer) returns -EFAULT and writes nothing, a bad descriptor -EBADF.
   */
  serviceEcall(core: number, out: OutputSink, err: OutputSink): EcallOutcome {
    const nr = this.reg(core, REG_A7);
    if (nr === SYS_EXIT || nr === SYS_EXIT_GROUP) return { exit: this.reg(core, REG_A0) };
    if (nr === SYS_WRITE) {
      const fd = this.reg(core, REG_A0);
      const buf = this.reg(core, 11) >>> 0;
      const len = this.reg(core, 12) >>> 0;
      if (fd !== 1 && fd !== 2) { this.setReg(core, REG_A0, -EBADF); return undefined; }
      const off = len === 0 ? 0 : this.offsetOf(buf, len);
      if (off === undefined) { this.setReg(core, REG_A0, -EFAULT); return undefined; }
      (fd === 1 ? out : err).write(this.bytes, off, len);
      this.setReg(core, REG_A0, len);
      return { wrote: len };
    }
    this.setReg(core, REG_A0, -ENOSYS);
    return undefined;
  }

  /** Bytes of wasm memory (the console buffer, the trace ring). */
  wasmBytes(offset: number, len: number): Uint8Array { return this.bytes.slice(offset, offset + len); }
  /** Writes bytes into wasm memory (the profile's region table). */
  wasmWrite(offset: number, data: Uint8Array): void { this.bytes.set(data, offset); }

  /**
   * Runs core 0 until it exits, traps or reaches maxCycles, servicing Linux-style system
   * calls: a7 = 64 write(fd, buf, len) to stdout / stderr, a7 = 93 or 94 exit(code).
   */
  runProgram(opts: RunOptions = {}): RunResult {
    const maxCycles = opts.maxCycles ?? 1e10;
    const chunk = opts.chunk ?? 10_000_000;
    const out = new BoundedOutput();
    const err = new BoundedOutput();
    let stopped: StopReason = 'limit';
    let exitCode: number | null = null;
    let trap: Trap | undefined;
    for (;;) {
      const left = maxCycles - this.cycles(0);
      if (left <= 0) break;
      // Every instruction takes at least one cycle; near the limit, approach it in shrinking
      // steps so that a multi-cycle instruction mix overshoots by at most one instruction.
      const why = this.step(0, left > chunk ? chunk : Math.max(1, Math.floor(left / 4)));
      if (why === STOP.budget) continue;
      if (why === STOP.trap) { stopped = 'trap'; trap = this.trap(0); break; }
      if (why === STOP.sleep || why === STOP.exit) {
        fail('bad-file', 'the program uses the cluster peripherals (event unit / exit register)', 'runElf',
          'run it with runSiracusa, which simulates the whole cluster');
      }
      if (why !== STOP.ecall) fail('internal', `the simulator core returned an unknown stop code ${why}`);
      const done = this.serviceEcall(0, out, err);
      if (done?.exit !== undefined) { stopped = 'exit'; exitCode = done.exit; break; }
    }
    return {
      stopped, exitCode, stdout: out.text(), stderr: err.text(), stdoutDropped: out.dropped, stderrDropped: err.dropped,
      cycles: this.cycles(0), instructions: this.instret(0), ...(trap ? { trap } : {}),
    };
  }
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { all.set(p, o); o += p.length; }
  return all;
}
