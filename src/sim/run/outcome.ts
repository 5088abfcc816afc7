// What a run of the generated program reports, from its console output and the simulator's
// result: the run stage's RunResult, or a RunError (trap, cycle limit, deadlock, cancel) that
// carries it. Pure: the Node runners (clang-19, host) and the builtin one (worker and CLI) share it.
import type { LayerCode } from '../../compiler/codegen/types';
import type { Trap } from '../machine';
import { energyOf } from '../energy';
import type { CoreStats, SiracusaResult } from '../siracusa';
import { RunError } from './error';
import type { OutputMismatch, RunResult, SimRunStats } from './types';
import type { RunProfile } from '../profile/types';
import { droppedPhrase, OUTPUT_LIMIT } from '../console';

/** Default cycle budget: far above microLlama's tens of millions, low enough that a hang ends. */
export const MAX_CYCLES = 2e9;

/**
 * The harness's verdict, `Runtime: N cycles` then `Errors: E out of T`, read only as the last two
 * lines of the output (the harness prints them after the network, then exits): a kernel that
 * prints such lines itself is followed by the harness's own, and one that stops the program
 * before them (exit from a guarded core) is an error of the run. The harness's first
 * `Mismatch in output ...` lines are read from anywhere.
 */
export function parseRunOutput(stdout: string): Pick<RunResult, 'cycles' | 'errors' | 'total' | 'mismatches'> {
  const last = /(?:^|\n)Runtime: (\d+) cycles\nErrors: (\d+) out of (\d+)\s*$/.exec(stdout);
  const mismatches: OutputMismatch[] = [...stdout.matchAll(/^Mismatch in output (\d+) at index (\d+): got (-?\d+), expected (-?\d+)$/gm)]
    .map((m) => ({ output: Number(m[1]), index: Number(m[2]), got: Number(m[3]), expected: Number(m[4]) }));
  return {
    cycles: last ? Number(last[1]) : undefined, errors: last ? Number(last[2]) : undefined, total: last ? Number(last[3]) : undefined,
    ...(mismatches.length ? { mismatches } : {}),
  };
}

/** What a run says about output it dropped (RunResult.stdoutDropped): `12345 bytes of output dropped (limit 1048576 B)`. */
export function droppedSummary(r: Pick<RunResult, 'stdoutDropped'>): string | undefined {
  return r.stdoutDropped ? droppedPhrase(r.stdoutDropped) : undefined;
}

export function statsOf(r: SiracusaResult, buildMs: number, runMs: number): SimRunStats {
  const sum = (f: (c: CoreStats) => number) => r.cores.reduce((s, c) => s + f(c), 0);
  const instructions = sum((c) => c.instructions), tcdmAccesses = sum((c) => c.tcdmAccesses);
  const icache = {
    fetches: sum((c) => c.icache.fetches), misses: sum((c) => c.icache.misses), l2Refills: sum((c) => c.icache.l2Refills),
    stallCycles: sum((c) => c.stalls.icache),
  };
  // The network's run when the program marked it (the harness does), else the whole program.
  const scope = r.measured ? 'network' : 'program';
  return {
    cores: r.cores, dma: r.dma, l3: r.l3, neureka: r.neureka, instructions, mips: instructions / Math.max(runMs, 1e-3) / 1e3, buildMs, runMs,
    energy: { ...energyOf(r.measured ?? { cycles: r.cycles, instructions, tcdmAccesses, dmaBytes: r.dma.bytes }), scope },
    icache,
  };
}

/** `98.7 % of 1.2 M line fetches hit the cores' L0, 0.1 % came from L2; 2.1 k refill stall cycles`. */
export function icacheSummary(ic: SimRunStats['icache']): string {
  if (ic.fetches === 0) return 'not modelled (ideal fetch): no refill stalls';
  const pct = (a: number) => (ic.fetches > 0 ? `${((100 * a) / ic.fetches).toFixed(ic.fetches - a < ic.fetches / 1000 ? 2 : 1)} %` : '-');
  const n = (x: number) => (x >= 1e6 ? `${(x / 1e6).toFixed(1)} M` : x >= 1e4 ? `${(x / 1e3).toFixed(1)} k` : String(x));
  return `${pct(ic.fetches - ic.misses)} of ${n(ic.fetches)} line fetches hit the cores' L0, ${pct(ic.l2Refills)} came from L2; ${n(ic.stallCycles)} refill stall cycles`;
}

const hex = (n: number) => `0x${(n >>> 0).toString(16).padStart(8, '0')}`;

const span = ([lo, hi]: [number, number]) => `[${hex(lo)}, ${hex(hi)})`;

/**
 * A store outside the write guard, in the words of the code: `layer 0 "lrelu" (iLeakyReLU,
 * kernel iLeakyReLU_s8_s8): core 3 wrote 4 bytes at 0x10003ffe, outside its output buffer
 * [0x10002000, 0x10004000) at iLeakyReLU.c:17`. The layer is named from codegen's layers when
 * the runner has them (the index is the one hal_guard_begin got).
 */
export function guardMessage(t: Trap & { line?: string }, layers?: readonly LayerCode[]): string {
  const g = t.guard!;
  const l = layers?.[g.layer];
  const layer = `layer ${g.layer}${l ? ` "${l.node}" (${l.op}, kernel ${l.kernel})` : ''}`;
  // hal_guard_allow's windows come first, hal_guard_begin's (the layer's output) last.
  const out = g.windows.at(-1), more = g.windows.slice(0, -1);
  const allowed = out ? `its output buffer ${span(out)}${more.length ? ` and the window${more.length > 1 ? 's' : ''} ${more.map(span).join(', ')}` : ''}` : 'its windows (none)';
  const at = t.line ? ` at ${t.line}` : '';
  switch (g.why) {
    case 'registers': return `${layer}: core ${t.core} wrote the write guard's own register ${hex(t.tval)} while guarded${at}: a guard's windows and stack are fixed before the kernel starts, and it lasts until the core's fork job ends`;
    case 'dma': return `${layer}: core ${t.core} started a DMA transfer that writes at ${hex(t.tval)}, outside ${allowed}${at}`;
    case 'npu': return `${layer}: core ${t.core} started an N-EUREKA task while guarded${at}: a guarded kernel cannot use the NPU`;
    case 'exit': return `${layer}: core ${t.core} tried to end the program while guarded${at}: only the controller ends it, after the network`;
    case 'dispatch': return `${layer}: core ${t.core} waited for a fork job outside its dispatcher (or with its stack pointer off its stack's top)${at}: a guarded job ends by returning from the kernel`;
    default: return `${layer}: core ${t.core} wrote ${g.bytes} byte${g.bytes === 1 ? '' : 's'} at ${hex(t.tval)}, outside ${allowed}${at}`;
  }
}

/**
 * The run stage's result of a finished simulation; a trap (named by `sourceAt`: function and
 * file:line; a store outside the write guard names the layer from `layers`), the cycle limit, a
 * cancel or a deadlock throws a RunError carrying the result.
 */
export function simulatorResult(r: SiracusaResult, o: {
  compiler: string; sim: SimRunStats; maxCycles: number; sourceAt: (pc: number) => { fn?: string; line?: string }; profile?: RunProfile;
  layers?: readonly LayerCode[];
}): RunResult {
  const { sim } = o;
  const result: RunResult = { target: 'simulator', compiler: o.compiler, stdout: r.stdout, exitCode: r.exitCode ?? -1, ...parseRunOutput(r.stdout), sim,
    ...(r.stdoutDropped ? { stdoutDropped: r.stdoutDropped } : {}), ...(o.profile ? { profile: o.profile } : {}) };
  if (r.stopped === 'exit') return result;
  if (r.trap) {
    const t = r.trap;
    sim.trap = { ...t, ...o.sourceAt(t.pc) };
    if (t.guard) {
      throw new RunError({
        code: 'program-fault', where: `run: core ${t.core}${sim.trap.fn ? ` in ${sim.trap.fn}` : ''}${sim.trap.line ? ` (${sim.trap.line})` : ''}`,
        what: guardMessage(sim.trap, o.layers),
        hint: t.guard.why === 'store' || t.guard.why === 'dma'
          ? `the kernel wrote outside the buffers the plan gave its layer (its own stack ${span(t.guard.stack)} is allowed too): an index or a loop bound one too far, or a vector store past the end`
          : 'a user kernel may store into its output buffer and its stack, print, and return; nothing else',
      }, result);
    }
    throw new RunError({
      code: 'internal', where: `run: core ${t.core}${sim.trap.fn ? ` in ${sim.trap.fn}` : ''}${sim.trap.line ? ` (${sim.trap.line})` : ''}`,
      what: `${t.name} at pc ${hex(t.pc)} (${t.disasm}), tval ${hex(t.tval)}, after ${r.cycles} cycles`,
      hint: 'the program faulted on the simulator: a bug in the edited code, in codegen or in the runtime',
    }, result);
  }
  const dropped = r.stdoutDropped ? ` (${r.stdoutDropped} bytes of its output were dropped, over the limit of ${OUTPUT_LIMIT} B)` : '';
  if (r.stopped === 'limit')
    throw new RunError({ code: 'limit', where: 'run', what: `the program did not finish within the cycle limit of ${o.maxCycles} cycles${dropped}`, hint: 'an endless loop, or a program too long for the simulator\'s cycle budget' }, result);
  if (r.stopped === 'cancelled') throw new RunError({ code: 'cancelled', where: 'run', what: `the run was cancelled after ${r.cycles} cycles` }, result);
  throw new RunError({ code: 'internal', where: 'run', what: `the cores deadlocked: ${r.deadlock ?? 'no core can run'}`,
    hint: 'a bug in codegen or the runtime' }, result);
}
