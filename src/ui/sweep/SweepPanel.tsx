// The sweep: one parameter over a list of values (cores 1..8, L1 sizes, the NPU on and off, ...),
// the loaded model compiled and run at every point in parallel workers, and Runtime plotted
// against the parameter with each point's speedup over the first. Failed points say why.
import { useRef, useState } from 'react';
import { toInput } from '../actions';
import { useStore } from '../store';
import { parseValues, SWEEP_PARAMS, valueLabel, type SweepParam } from './plan';
import { runSweep, sweepParallelism, type SweepHandle, type SweepPoint } from './run';
import './sweep.css';
import { shownName } from '../names';

const fmt = (n: number) => n.toLocaleString('en-US');

/** Runtime against the parameter: an SVG line through the finished points, in the list's order. */
function Plot({ points }: { points: SweepPoint[] }) {
  const W = 360, H = 150, PAD = 34;
  const done = points.map((p, i) => ({ p, i })).filter(({ p }) => p.status === 'done' && p.cycles !== undefined);
  const max = Math.max(1, ...done.map(({ p }) => p.cycles!));
  const x = (i: number) => PAD + (points.length > 1 ? (i * (W - 2 * PAD)) / (points.length - 1) : (W - 2 * PAD) / 2);
  const y = (c: number) => H - PAD + 4 - (c / max) * (H - PAD - 10);
  return (
    <svg className="sweep-plot" data-testid="sweep-plot" data-points={done.length} viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img"
      aria-label="Runtime against the swept parameter">
      <line x1={PAD} y1={H - PAD + 4} x2={W - PAD / 2} y2={H - PAD + 4} className="axis" />
      <line x1={PAD} y1={6} x2={PAD} y2={H - PAD + 4} className="axis" />
      <text x={4} y={12} className="tick">{(max / 1e6).toFixed(2)} M</text>
      <text x={4} y={H - PAD + 4} className="tick">0</text>
      {points.map((p, i) => <text key={i} x={x(i)} y={H - PAD + 18} className="tick" textAnchor="middle">{valueLabel(p.value)}</text>)}
      <polyline className="line" points={done.map(({ p, i }) => `${x(i)},${y(p.cycles!)}`).join(' ')} />
      {done.map(({ p, i }) => <circle key={i} cx={x(i)} cy={y(p.cycles!)} r={3} className="dot"><title>{`${valueLabel(p.value)}: ${fmt(p.cycles!)} cycles`}</title></circle>)}
    </svg>
  );
}

export function SweepPanel() {
  const model = useStore((s) => s.model);
  const config = useStore((s) => s.config);
  const [param, setParam] = useState<SweepParam>('cores');
  const [text, setText] = useState(SWEEP_PARAMS[0]!.example);
  const [points, setPoints] = useState<SweepPoint[] | null>(null);
  const [running, setRunning] = useState(false);
  const handle = useRef<SweepHandle | null>(null);
  const parsed = parseValues(param, text);
  const error = 'error' in parsed ? parsed.error : null;
  const base = points?.find((p) => p.status === 'done')?.cycles;

  const start = () => {
    if (!model || 'error' in parsed) return;
    setRunning(true);
    handle.current = runSweep(toInput(model), config, param, parsed.values, setPoints);
    void handle.current.done.finally(() => { setRunning(false); handle.current = null; });
  };

  return (
    <section className="sweep" data-testid="sweep">
      <div className="sweep-form">
        <label>
          sweep{' '}
          <select data-testid="sweep-param" value={param} disabled={running} onChange={(e) => {
            const p = e.target.value as SweepParam;
            setParam(p);
            setText(SWEEP_PARAMS.find((x) => x.id === p)!.example);
          }}>
            {SWEEP_PARAMS.map((p) => <option key={p.id} value={p.id}>{p.label}</option>)}
          </select>
        </label>
        <label>
          over{' '}
          <input data-testid="sweep-values" value={text} disabled={running} onChange={(e) => setText(e.target.value)} aria-invalid={error !== null} />
        </label>
        {running
          ? <button type="button" className="button small" data-testid="sweep-cancel" onClick={() => handle.current?.cancel()}>Cancel</button>
          : <button type="button" className="button small" data-testid="sweep-run" disabled={!model || error !== null}
            title={model ? `Compile and run ${shownName(model.name)} at every value, ${sweepParallelism('values' in parsed ? parsed.values.length : 1)} at a time` : 'Load a model first'}
            onClick={start}>Run sweep</button>}
      </div>
      {error && <div className="field-error" role="alert" data-testid="sweep-error">{error}</div>}
      {points && (
        <div className="sweep-result">
          <Plot points={points} />
          <table className="sweep-table" data-testid="sweep-table">
            <thead><tr><th>{SWEEP_PARAMS.find((p) => p.id === param)?.label}</th><th>status</th><th>Runtime</th><th>speedup</th><th>errors</th></tr></thead>
            <tbody>
              {points.map((p, i) => (
                <tr key={i} data-testid="sweep-point" data-value={valueLabel(p.value)} data-status={p.status} data-cycles={p.cycles ?? ''}
                  className={p.status === 'failed' || (p.errors ?? 0) > 0 ? 'bad' : ''}>
                  <td>{valueLabel(p.value)}</td>
                  <td title={p.error}>{p.status}{p.error ? `: ${p.error}` : ''}</td>
                  <td>{p.cycles !== undefined ? fmt(p.cycles) : ''}</td>
                  <td>{p.cycles && base ? `${(base / p.cycles).toFixed(2)}x` : ''}</td>
                  <td>{p.errors !== undefined ? `${p.errors} of ${p.total ?? 0}` : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
