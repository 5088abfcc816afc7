// dpg: the playground's pipeline from the command line. `npm run dpg -- --help`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { artifactsOf } from '../pipeline/artifacts';
import { record, type Results, type StageName, type StageOutcome } from '../pipeline/results';
import { runPipeline } from '../pipeline/run';
import { nodeMilp } from '../pipeline/node/milp';
import type { Runner } from '../pipeline/stages';
import type { SimRunStats } from '../sim/run/types';
import { buildAndRunHost, libraryFiles } from '../sim/run/host';
import { runOnSimulator } from '../sim/run/simulate';
import { CLOCK_HZ, formatEnergy } from '../sim/energy';
import { droppedSummary, icacheSummary } from '../sim/run/outcome';
import { runBuiltinNode } from '../sim/run/builtin-node';
import { fail, formatError, toErrorData, type PlaygroundErrorData } from '../common/errors';
import { helpText, parseArgs, type CliOptions } from './args';
import { ccCommand } from './cc';
import { profileReport } from '../sim/profile/report';
import { layersCsv } from '../sim/profile/table';
import { traceEvents } from '../sim/profile/trace-events';
import type { RunResult } from '../sim/run/types';
import { loadTest } from './testdir';
import { installUserOps } from '../compiler/ops';
import { checkUserOp, kernelSkeleton, makeOpTest, type UserOp, type UserOpSpec } from '../compiler/ops/user';
import { LAB_STEPS, LAB_TEST, labSpec, labTable, labTableText, type LabStepId } from '../pipeline/lab';

export const EXIT = { ok: 0, outputErrors: 1, badInput: 2, notImplemented: 3, internal: 4 } as const;

/** Runs one command; returns the exit status. Output goes through `out` / `err` for tests. */
export async function dpg(argv: string[], out = (s: string) => console.log(s),
  err = (s: string) => console.error(s)): Promise<number> {
  let opts: CliOptions;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    err(`error: ${formatError(toErrorData(e))}`);
    return EXIT.badInput;
  }
  if (opts.help || !opts.command) {
    out(helpText());
    return opts.help ? EXIT.ok : EXIT.badInput;
  }
  try {
    if (opts.command === 'cc') return ccCommand(opts, out, err);
    const ops = loadOps(opts);
    if (opts.command === 'make-test') return makeTest(opts, ops[0], err);
    if (opts.command === 'lab') return await runLab(opts, ops[0], readText(opts.simdKernel!, '--simd-kernel'), out, err);
    const input = { ...loadTest(opts.test), ops };
    const until: StageName = opts.command === 'reference' ? 'reference' : opts.command === 'compile' ? 'codegen' : 'run';
    const results: Results = {};
    const outcomes: StageOutcome[] = [];
    let error: PlaygroundErrorData | undefined;
    const skipped: { stage: StageName; reason: string }[] = [];
    await runPipeline(input, opts.config, (e) => {
      if (e.type === 'stage') { outcomes.push(e); record(results, e); }
      if (e.type === 'skipped') skipped.push(e);
      if (e.type === 'error') error = e.error;
      if (e.type === 'progress' && !opts.json && process.stderr.isTTY) process.stderr.write(`\r${e.stage}: ${e.message}\x1b[K`);
    }, { until, milp: nodeMilp, runner: opts.command === 'run' ? runnerFor(opts) : undefined, profile: opts.profile });
    if (!opts.json && process.stderr.isTTY) process.stderr.write('\r\x1b[K');

    if (opts.out) writeArtifacts(opts.out, outcomes, out);
    const ref = results.reference;
    const missing = skipped.find((s) => s.stage === until || s.stage === 'reference');
    if (opts.json) {
      out(JSON.stringify({
        command: opts.command, config: opts.config, error, skipped,
        reference: ref && { comparison: ref.comparison, ms: ref.ms },
        run: results.run && jsonRun(results.run),
      }, null, 2));
    }
    if (error) {
      if (!opts.json) err(`error: ${cliError(error)}`);
      return error.code === 'internal' ? EXIT.internal : error.code === 'not-implemented' ? EXIT.notImplemented : EXIT.badInput;
    }
    if (!opts.json) for (const s of skipped) err(`note: ${s.reason}`);
    if (opts.command === 'reference') {
      if (!ref?.comparison) {
        err('error: no outputs.npz to compare against: the reference outputs were computed but not checked');
        return EXIT.badInput;
      }
      if (!opts.json) {
        out(`Reference interpreter: ${ref.ms.toFixed(0)} ms`);
        out(`Errors: ${ref.comparison.errors} out of ${ref.comparison.total}`);
      }
      return ref.comparison.errors === 0 ? EXIT.ok : EXIT.outputErrors;
    }
    if (missing && skipped.some((s) => s.stage === until)) {
      err(`error: '${opts.command}' needs the ${until} stage, which did not run: ${skipped.find((s) => s.stage === until)!.reason}`);
      return EXIT.notImplemented;
    }
    const run = results.run;
    if (opts.command === 'run' && run) {
      if (!opts.json) out(run.stdout.replace(/\n$/, ''));
      const dropped = droppedSummary(run);
      if (dropped && !opts.json) err(`warning: ${dropped}`);
      if (!opts.json && run.sim) err(simSummary(run.sim));
      if (!opts.json && run.sim) { err(energySummary(run.sim.energy)); err(`Instruction cache: ${icacheSummary(run.sim.icache)}`); }
      if (opts.profile && !run.profile) err('note: the run was not profiled (no line table for Network.c)');
      if (run.profile) {
        if (opts.profile && !opts.json) err(profileReport(run.profile, run.cycles));
        if (run.profile.dropped > 0) err(`warning: the profile is incomplete: ${run.profile.dropped} events were lost`);
        if (opts.trace) writeOut(opts.trace, JSON.stringify(traceEvents(run.profile, { model: opts.test, config: opts.config })), '--trace', err);
        if (opts.csv) writeOut(opts.csv, layersCsv(run.profile), '--csv', err);
      }
      if (run.errors === undefined) {
        err(`error: the program printed no 'Runtime: N cycles' / 'Errors: E out of T' lines as its last two (exit status ${run.exitCode}${dropped ? `; ${dropped}` : ''})`);
        return EXIT.internal;
      }
      if (run.errors !== 0 && !opts.json) err(`error: ${run.errors} output values differ from the golden ones: ${outputSources(results)}`);
      return run.errors === 0 ? EXIT.ok : EXIT.outputErrors;
    }
    return EXIT.ok;
  } catch (e) {
    err(`error: ${cliError(toErrorData(e))}`);
    return EXIT.badInput;
  }
}

/** Which layer (and kernel, and user kernel file) computed each graph output: where to look when outputs differ. */
function outputSources(results: Results): string {
  const graph = results.lower?.snapshots.at(-1)?.graph, code = results.codegen;
  if (!graph || !code) return 'see the mismatches above';
  return graph.outputs.map((o, i) => {
    const node = graph.nodes.find((n) => n.outputs.includes(o.name));
    const layer = node && code.layers.find((l) => l.node === node.name);
    if (!layer) return `output ${i} '${o.name}' is not computed by a layer`;
    const user = code.files.find((f) => f.kind === 'kernel' && layer.calls.some((c) => f.content.includes(c)));
    return `output ${i} '${o.name}' comes from layer "${layer.node}" (${layer.op}, kernel ${layer.kernel}${user ? ` in ${user.path}` : ''})`;
  }).join('; ');
}

/** The --op-spec files (JSON, checked field by field) with their --kernel files. */
function loadOps(opts: CliOptions): UserOp[] {
  return opts.opSpecs.map((file, i) => {
    let spec: UserOpSpec;
    try {
      spec = JSON.parse(readText(file, '--op-spec')) as UserOpSpec;
    } catch (e) {
      if (e instanceof SyntaxError) fail('bad-file', `is not valid JSON: ${e.message}`, file);
      throw e;
    }
    if (typeof spec !== 'object' || spec === null || !Array.isArray(spec.attrs) || !Array.isArray(spec.inputs) || !spec.output || !Array.isArray(spec.tiling))
      fail('bad-file', 'is not an op spec: it needs op, domain, attrs [], inputs [], output {}, shape, semantics and tiling []', file);
    const problems = checkUserOp(spec);
    if (problems.length) fail('bad-config', problems.map((p) => `${p.field}: ${p.message}`).join('; '), file);
    const kernel = opts.kernels[i] !== undefined ? readText(opts.kernels[i], '--kernel') : opts.command === 'make-test' ? kernelSkeleton(spec) : undefined;
    if (kernel === undefined) fail('bad-config', `the op spec ${file} has no --kernel`, '--kernel', `write one from the skeleton:\n${kernelSkeleton(spec)}`);
    return { spec, kernel };
  });
}

/** `dpg make-test`: the test maker's folder (network.onnx, inputs.npz, outputs.npz). */
function makeTest(opts: CliOptions, op: UserOp, err: (s: string) => void): number {
  installUserOps([op]);
  const t = makeOpTest(op.spec, { shapes: opts.shapes, attrs: opts.attrs, seed: opts.seed });
  mkdirSync(opts.out!, { recursive: true });
  writeFileSync(join(opts.out!, 'network.onnx'), t.model);
  writeFileSync(join(opts.out!, 'inputs.npz'), t.inputs);
  writeFileSync(join(opts.out!, 'outputs.npz'), t.outputs);
  err(`wrote ${opts.out}/network.onnx, inputs.npz, outputs.npz (${op.spec.op}, inputs ${opts.shapes.map((s) => s.join('x')).join(', ')}, seed ${opts.seed})`);
  return EXIT.ok;
}

/**
 * `dpg lab`: the new-operator lab's four runs on its one-node test (or -t DIR), each with the
 * step's configuration, kernel and tiling rule; a table of cycles and speedups beside GVSoC's.
 */
async function runLab(opts: CliOptions, op: UserOp, simd: string, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  installUserOps([op]);
  const t = opts.test ? loadTest(opts.test) : { ...makeOpTest(op.spec, LAB_TEST), modelName: `${op.spec.op} lab test (1x16x64x64)` };
  const cycles: Partial<Record<LabStepId, number>> = {};
  let status: number = EXIT.ok;
  for (const step of LAB_STEPS) {
    const ops = [{ spec: labSpec(op.spec, step), kernel: step.kernel === 'simd' ? simd : op.kernel }];
    const config = { ...opts.config, ...step.config };
    let error: PlaygroundErrorData | undefined;
    const results: Results = {};
    await runPipeline({ ...t, ops }, config, (e) => {
      if (e.type === 'stage') record(results, e);
      if (e.type === 'error') error = e.error;
    }, { milp: nodeMilp, runner: runnerFor(opts) });
    const tile = results.tile?.tilings[0];
    const shape = tile ? `tile [${tile.tile.join(', ')}] x ${tile.tiles}` : 'untiled';
    const run = results.run;
    if (error || !run || run.cycles === undefined || run.errors === undefined) {
      err(`${step.title}: ${error ? `error: ${cliError(error)}` : 'the run printed no Runtime / Errors line'}`);
      status = error?.code === 'internal' ? EXIT.internal : EXIT.badInput;
      continue;
    }
    err(`${step.title}: ${run.cycles} cycles, Errors: ${run.errors} out of ${results.codegen?.totalOutputs ?? '?'} (${shape})`);
    if (run.errors !== 0) { status = Math.max(status, EXIT.outputErrors); continue; }
    cycles[step.id] = run.cycles;
  }
  out(labTableText(labTable(cycles)));
  return status;
}

/** The flag of each config field: the compiler's errors name the field (`where`), the CLI its flag. */
const FLAG_OF: Record<string, string> = {
  platform: '--platform', cores: '--cores', l1: '--l1', l2: '--l2', defaultMemLevel: '--defaultMemLevel',
  profileTiling: '--profileTiling', neurekaWmem: '--neureka-wmem',
};

/** An error as the CLI prints it: config fields, and the settings hints ask for, named by their flags. */
export function cliError(e: PlaygroundErrorData): string {
  const where = e.where && (FLAG_OF[e.where] ?? e.where);
  const hint = e.hint
    ?.replace(/an (L1|L2) of at least (\d+) B/, (_m, level: string, n: string) => `--${level.toLowerCase()} ${n} or more`)
    .replace('make L3 the default memory level', 'use --defaultMemLevel L3');
  return formatError({ ...e, where, hint });
}

/**
 * `--cc builtin` (the default): build the generated C with the playground's own toolchain and run
 * it on the simulator (objects cached in memory and in $TMPDIR/dpg-cc-objects).
 * `--cc clang`: build it with clang-19 for Siracusa and run it on the simulator.
 * `--cc host`: build it with this machine's compiler and run it natively.
 */
function runnerFor(opts: CliOptions): Runner {
  if (opts.cc === 'host') return (code) => ({ target: 'host', ...buildAndRunHost(code) });
  // Checked before the pipeline runs, so a wrong combination fails at once.
  if (opts.config.platform === 'generic')
    fail('bad-config', 'Generic code has no Siracusa runtime, so it cannot run on the simulator', `--cc ${opts.cc}`, 'use --cc host for -p generic');
  if (opts.cc === 'builtin') {
    const edits = Object.fromEntries(opts.edits.map(([path, file]) => [path, readText(file, '--edit')]));
    const compiler = { ...(opts.optLevel !== undefined ? { opt: opts.optLevel } : {}), ...(opts.disable.length ? { disable: opts.disable } : {}) };
    return (code, config, ctx) => runBuiltinNode(code, config, { ...ctx, ...compiler, idealFetch: opts.idealFetch, edits: { ...edits, ...ctx?.edits } });
  }
  return (code, config, ctx) => runOnSimulator(code, config, { linker: opts.ld, profile: ctx?.profile, idealFetch: opts.idealFetch });
}

function readText(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    return fail('bad-file', `cannot read ${file}: ${(e as Error).message}`, flag);
  }
}

/** The run's energy estimate beside its cycles (stderr, with the simulator's summary: stdout is the program's). */
function energySummary(e: SimRunStats['energy']): string {
  return `Energy: ${formatEnergy(e.total)} estimated for ${e.scope === 'network' ? 'the network\'s run' : 'the whole program'} (instructions ${formatEnergy(e.instructions)}, ` +
    `TCDM ${formatEnergy(e.tcdm)}, static ${formatEnergy(e.static)} at ${CLOCK_HZ / 1e6} MHz; GVSoC's Siracusa power models)`;
}

/** One line on how the simulator ran the program (stderr, beside the program's own output). */
function simSummary(s: SimRunStats): string {
  const M = (n: number) => (n / 1e6).toFixed(1), KiB = (n: number) => (n / 1024).toFixed(0);
  const b = s.build;
  const build = b ? `: ${b.compiled} compiled, ${b.cached} cached, link ${b.linkMs.toFixed(0)} ms` : '';
  return `simulator: ${M(s.instructions)} M instructions at ${s.mips.toFixed(0)} MIPS (build ${(s.buildMs / 1e3).toFixed(1)} s${build}, ` +
    `run ${(s.runMs / 1e3).toFixed(1)} s); cluster DMA ${KiB(s.dma.bytes)} KiB in ${s.dma.transfers} transfers, L3 ${KiB(s.l3.bytes)} KiB` +
    (s.neureka.tasks ? `; N-EUREKA ${s.neureka.tasks} tasks, busy ${(s.neureka.busyCycles / 1e3).toFixed(1)} k cycles, weight memory ${KiB(s.neureka.wmemBytes)} KiB` : '');
}

function writeArtifacts(dir: string, outcomes: StageOutcome[], out: (s: string) => void) {
  for (const o of outcomes) {
    for (const a of artifactsOf(o)) {
      const path = join(dir, o.stage, a.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, a.data);
      out(`wrote ${path}`);
    }
  }
  // The generated program builds on its own (make) with the kernel library beside it.
  if (outcomes.some((o) => o.stage === 'codegen')) {
    for (const f of libraryFiles()) {
      const path = join(dir, 'codegen', f.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, f.content);
    }
    out(`wrote ${join(dir, 'codegen', 'kernels')}/ and ${join(dir, 'codegen', 'runtime')}/ (the kernel library and the host HAL)`);
  }
}

// Run when executed directly (npm run dpg, bin/dpg.js), not when imported by tests.
const entry = process.argv[1] ?? '';
if (/cli[\\/]main\.ts$/.test(entry)) {
  dpg(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}

/** The run stage's result for --json: the profile's summaries, without its columns of spans and heat or the program's code (typed arrays). */
function jsonRun(run: RunResult): unknown {
  const { program: _program, ...rest } = run;
  if (!rest.profile) return rest;
  const { spans, heat, ...profile } = rest.profile;
  return { ...rest, profile: { ...profile, spans: spans.count, heat: heat.pc.length, lines: profile.lines.slice(0, 50) } };
}

/** Writes an export the flag names; a path that cannot be written is named. */
function writeOut(path: string, text: string, flag: string, err: (s: string) => void): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    err(`wrote ${path}`);
  } catch (e) {
    fail('bad-file', `cannot write ${path}: ${(e as Error).message}`, flag);
  }
}
