// The Run pane: the generated program built by the playground's own compiler and run on the
// Siracusa simulator. Runtime, `Errors: E out of T` (red with the first mismatches when E > 0),
// instructions, simulated MIPS, wall time, the profile (run/ProfileView: timeline, per-layer bars
// and table, exports), the speedup against a pinned baseline, and the program's console output;
// a compile error names its file and line (the code pane marks it) and the run does not start.
// Results built from other code than the editor holds now, or another configuration, are marked
// stale.
import { runAgain } from '../actions';
import { checkFailure } from '../stageChecks';
import { MismatchTable } from '../run/MismatchTable';
import { CLOCK_HZ, formatEnergy } from '../../sim/energy';
import type { RunResult } from '../../sim/run/types';
import { droppedSummary, icacheSummary } from '../../sim/run/outcome';
import { isRunStale, isStale, useStore } from '../store';
import { showFile } from './code/actions';
import { showKernelLine } from '../operator/actions';
import { compileErrorAt } from './code/state';
import { PinButtons, Speedup } from './run/Compare';
import { ProfileView } from './run/ProfileView';
import { SweepPanel } from '../sweep/SweepPanel';
import './run/run.css';

const SHOWN_MISMATCHES = 10;

const fmt = (n: number) => n.toLocaleString('en-US');
const ms = (t: number) => (t >= 1000 ? `${(t / 1000).toFixed(2)} s` : `${t.toFixed(0)} ms`);

function Figures({ r }: { r: RunResult }) {
  const sim = r.sim;
  const b = sim?.build;
  return (
    <dl className="run-figures" data-testid="run-figures">
      <dt>Runtime</dt>
      <dd data-testid="run-runtime">{r.cycles !== undefined ? `${fmt(r.cycles)} cycles` : 'not printed'}</dd>
      <dt>Errors</dt>
      <dd data-testid="run-errors" data-errors={r.errors ?? ''} className={r.errors ? 'bad' : r.errors === 0 ? 'ok' : ''}>
        {r.errors !== undefined ? `Errors: ${r.errors} out of ${r.total ?? 0}` : r.stdoutDropped ? 'not printed as the output\'s last lines' : 'not printed'}
      </dd>
      {r.stdoutDropped ? <>
        <dt>Output</dt>
        <dd data-testid="run-dropped" data-dropped={r.stdoutDropped} className="bad"
          title="a run keeps the first and the last half of its output's limit (src/sim/console.ts OUTPUT_LIMIT); the harness's verdict comes last">
          {droppedSummary(r)}
        </dd>
      </> : null}
      {sim && <>
        <dt>Instructions</dt>
        <dd data-testid="run-instructions">{fmt(sim.instructions)} on {sim.cores.filter((c) => c.instructions > 0).length} cores</dd>
        <dt>Energy</dt>
        <dd data-testid="run-energy" data-scope={sim.energy.scope} title={`estimated for ${sim.energy.scope === 'network' ? 'the network\'s run' : 'the whole program'} from GVSoC's Siracusa power models (src/sim/energy.ts)`}>
          {formatEnergy(sim.energy.total)} <span className="run-energy-parts">(instructions {formatEnergy(sim.energy.instructions)}, TCDM {formatEnergy(sim.energy.tcdm)}, static {formatEnergy(sim.energy.static)} at {CLOCK_HZ / 1e6} MHz)</span>
        </dd>
        <dt>Instruction cache</dt>
        <dd data-testid="run-icache" data-fetches={sim.icache.fetches} data-misses={sim.icache.misses} data-stalls={sim.icache.stallCycles}
          title="GVSoC's Siracusa instruction cache: a 512 B L0 per worker (2 KiB for the controller) refilled in 2 cycles from a shared 4 KiB L1, itself refilled from L2 in 18 (src/sim/as/icache.ts)">
          {icacheSummary(sim.icache)}
        </dd>
        <dt>Simulated</dt>
        <dd data-testid="run-mips">{sim.mips.toFixed(0)} MIPS</dd>
        <dt>Wall time</dt>
        <dd data-testid="run-wall">
          build {ms(sim.buildMs)}{b && ` (${b.compiled} compiled, ${b.cached} cached, link ${ms(b.linkMs)})`}, run {ms(sim.runMs)}
        </dd>
      </>}
      <dt>Compiler</dt>
      <dd data-testid="run-compiler">{r.compiler}</dd>
    </dl>
  );
}

function Mismatches({ r }: { r: RunResult }) {
  // Named as the stage list names them: the graph's output and its coordinates.
  const outputs = useStore((s) => s.stages.parse.result?.graph.outputs);
  const rows = checkFailure('run', r, outputs)?.first ?? [];
  return <MismatchTable rows={rows} shown={SHOWN_MISMATCHES} className="run-mismatches" testid="run-mismatches" what="output" />;
}

export function RunPane() {
  const view = useStore((s) => s.stages.run);
  const hasCode = useStore((s) => s.stages.codegen.result !== undefined);
  const busy = useStore((s) => s.busy !== null);
  const configStale = useStore(isStale);
  const codeStale = useStore(isRunStale);
  const edited = useStore((s) => Object.keys(s.code.edits).length);
  const r = view.result;
  const compileError = view.status === 'error' ? compileErrorAt(view.error) : null;
  const stale = (r !== undefined || view.status === 'error') && codeStale;
  return (
    <section className="pane pane-run" data-testid="pane-run" data-status={view.status} data-stale={stale || configStale}>
      <div className="run-tools">
        {stale && <span className="badge stale" data-testid="run-code-stale" title="The code changed since this run: Run builds the edits">code changed</span>}
        <button type="button" className="button small" data-testid="run-again" disabled={!hasCode || busy}
          title={hasCode ? 'Build the code pane\'s files (with your edits) and run them on the simulator again' : 'Compile first'}
          onClick={() => void runAgain()}>
          ▶ Run{edited ? ` with ${edited} edited file${edited === 1 ? '' : 's'}` : ''}
        </button>
        <PinButtons result={r} />
        {stale && <span className="run-note" data-testid="run-stale-note">the code changed since this run</span>}
      </div>
      {view.status === 'pending' && !r && (
        <p className="placeholder" data-testid="run-note">
          Compile &amp; run builds the generated C (and your edits in the code pane) with the playground&apos;s own compiler
          and runs it on the Siracusa simulator.
        </p>
      )}
      {view.status === 'running' && <p className="run-progress" data-testid="run-progress">{view.message}</p>}
      {view.status === 'skipped' && <p className="placeholder" data-testid="run-skipped">{view.reason}</p>}
      {view.status === 'cancelled' && <p className="run-note" data-testid="run-cancelled">cancelled</p>}
      {compileError ? (
        <div className="run-error" data-testid="run-compile-error">
          Compile error in{' '}
          <button type="button" className="link" data-testid="run-compile-error-link"
            onClick={() => { if (!showKernelLine(compileError.file, compileError.line, compileError.col)) showFile(compileError.file); }}>
            {compileError.file}:{compileError.line}:{compileError.col}
          </button>
          : {compileError.message}. The program did not run.
        </div>
      ) : view.status === 'error' && view.error && (
        <div className="run-error" data-testid="run-error">
          {view.error.where ? `${view.error.where}: ` : ''}{view.error.what}
        </div>
      )}
      {r && <>
        <Figures r={r} />
        <Speedup result={r} />
        <Mismatches r={r} />
        {r.profile && <ProfileView profile={r.profile} result={r} />}
        <h3 className="run-sub">Console{r.stdoutDropped ? ` (${fmt(r.stdoutDropped)} bytes dropped)` : ''}</h3>
        <pre className="run-stdout" data-testid="run-stdout">{r.stdout || '(no output)'}</pre>
      </>}
      <details className="run-sweep" data-testid="run-sweep">
        <summary className="run-sub">Sweep a parameter</summary>
        <SweepPanel />
      </details>
    </section>
  );
}
