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
import { runBuiltinNode } from '../sim/run/builtin-node';
import { fail, formatError, toErrorData, type PlaygroundErrorData } from '../common/errors';
import { helpText, parseArgs, type CliOptions } from './args';
import { profileReport } from '../sim/profile/report';
import { layersCsv } from '../sim/profile/table';
import { traceEvents } from '../sim/profile/trace-events';
import type { RunResult } from '../sim/run/types';
import { loadTest } from './testdir';

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
    const input = loadTest(opts.test);
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
      if (!opts.json && run.sim) err(simSummary(run.sim));
      if (opts.profile && !run.profile) err('note: the run was not profiled (no line table for Network.c)');
      if (run.profile) {
        if (opts.profile && !opts.json) err(profileReport(run.profile, run.cycles));
        if (run.profile.dropped > 0) err(`warning: the profile is incomplete: ${run.profile.dropped} events were lost`);
        if (opts.trace) writeOut(opts.trace, JSON.stringify(traceEvents(run.profile, { model: opts.test, config: opts.config })), '--trace', err);
        if (opts.csv) writeOut(opts.csv, layersCsv(run.profile), '--csv', err);
      }
      if (run.errors === undefined) {
        err(`error: the program printed no 'Errors: E out of T' line (exit status ${run.exitCode})`);
        return EXIT.internal;
      }
      return run.errors === 0 ? EXIT.ok : EXIT.outputErrors;
    }
    return EXIT.ok;
  } catch (e) {
    err(`error: ${cliError(toErrorData(e))}`);
    return EXIT.badInput;
  }
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
    return (code, config, ctx) => runBuiltinNode(code, config, { ...ctx, edits: { ...edits, ...ctx?.edits } });
  }
  return (code, config, ctx) => runOnSimulator(code, config, { linker: opts.ld, profile: ctx?.profile });
}

function readText(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    return fail('bad-file', `cannot read ${file}: ${(e as Error).message}`, flag);
  }
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
