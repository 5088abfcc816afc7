// The Part III lab's table: per step (1 core untiled, 8 cores untiled, 8 cores tiled at L1 32768,
// + SIMD) the cycles of the student's latest matching run, the speedup against the 1-core
// baseline and against the step before, and Deeploy's GVSoC figure for the same step beside them.
import { labTable, LAB_STEPS } from '../../pipeline/lab';
import { useTutorial } from './store';

const fmt = (n: number | undefined) => (n === undefined ? '—' : Math.round(n).toLocaleString('en-US'));
const x = (n: number | undefined) => (n === undefined ? '—' : `${n.toFixed(2)}×`);

export function LabTable() {
  const lab = useTutorial((s) => s.lab);
  const mine = labTable(Object.fromEntries(LAB_STEPS.flatMap((s) => (lab[s.id] ? [[s.id, lab[s.id]!.cycles]] : []))));
  const theirs = labTable(Object.fromEntries(LAB_STEPS.map((s) => [s.id, s.gvsoc])));
  return (
    <div className="lab-wrap">
      <table className="lab-table" data-testid="lab-table">
        <thead>
          <tr>
            <th>step</th><th>cycles</th><th title="speedup against 1 core untiled">× base</th><th title="speedup against the row above">× prev</th>
            <th title="Deeploy's run of the lab on GVSoC (siracusa.md): cycles and speedup against its baseline">GVSoC</th>
          </tr>
        </thead>
        <tbody>
          {LAB_STEPS.map((s) => {
            const r = mine.find((x) => x.step.id === s.id), g = theirs.find((x) => x.step.id === s.id);
            const e = lab[s.id];
            return (
              <tr key={s.id} data-testid="lab-row" data-step={s.id} data-filled={e ? 'yes' : 'no'} title={e ? `${e.op} in ${e.model}, Errors 0 out of ${e.total}` : 'no matching run yet'}>
                <td>{s.title}</td>
                <td data-testid={`lab-cycles-${s.id}`} data-cycles={e?.cycles ?? ''}>{fmt(r?.cycles)}</td>
                <td data-testid={`lab-vsbase-${s.id}`}>{x(r?.speedup)}</td>
                <td data-testid={`lab-vsprev-${s.id}`}>{x(r?.stepSpeedup)}</td>
                <td data-testid={`lab-gvsoc-${s.id}`} data-gvsoc={s.gvsoc} className="muted">{fmt(s.gvsoc)}<br />{x(g?.speedup)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
