// The selected layer, one level down the hierarchy: its tiles (phases per tile) and its worker
// cores (cycles, instructions, stalls by cause, idle).
import type { LayerProfile } from '../../../sim/profile/types';
import { LAYER_PHASES } from '../../../sim/profile/types';
import { STALL_NAMES, STALLS } from '../../../sim/profile/table';

const SHOWN_TILES = 200;
const fmt = (n: number) => n.toLocaleString('en-US');

export function LayerDetail({ layer }: { layer: LayerProfile }) {
  const cores = layer.cores.map((c, i) => ({ c, i })).filter(({ c }) => c.cycles + c.idle > 0);
  return (
    <div className="prof-detail" data-testid="profile-detail" data-node={layer.node}>
      <h4>
        {layer.node} <span className="muted">{layer.op} · {layer.kernel} on {layer.engine} · {fmt(layer.cycles)} cycles
          {' '}({fmt(layer.start)}–{fmt(layer.end)}) · {layer.tiles.length} tile{layer.tiles.length === 1 ? '' : 's'}
          {layer.npuCycles > 0 ? ` · NPU ${fmt(layer.npuCycles)} cycles` : ''}</span>
      </h4>
      <div className="prof-detail-tables">
        {cores.length > 0 && (
          <table className="prof-table" data-testid="profile-cores">
            <thead>
              <tr><th className="text">core</th><th>cycles</th><th>instr.</th><th title="instructions per running cycle">IPC</th>
                {STALLS.map((k) => <th key={k}>{STALL_NAMES[k]}</th>)}<th>idle</th></tr>
            </thead>
            <tbody>
              {cores.map(({ c, i }) => (
                <tr key={i}>
                  <td className="text">core {i}</td><td>{fmt(c.cycles)}</td><td>{fmt(c.instructions)}</td>
                  <td>{c.cycles > 0 ? (c.instructions / c.cycles).toFixed(2) : '—'}</td>
                  {STALLS.map((k) => <td key={k}>{fmt(c.stalls[k])}</td>)}<td>{fmt(c.idle)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {layer.tiles.length > 0 && (
          <table className="prof-table" data-testid="profile-tiles">
            <thead>
              <tr><th>tile</th><th>start</th><th>cycles</th>{LAYER_PHASES.map((p) => <th key={p}>{p}</th>)}</tr>
            </thead>
            <tbody>
              {layer.tiles.slice(0, SHOWN_TILES).map((t) => (
                <tr key={t.index}>
                  <td>{t.index}</td><td>{fmt(t.start)}</td><td>{fmt(t.end - t.start)}</td>
                  {LAYER_PHASES.map((p) => <td key={p}>{fmt(t.phases[p])}</td>)}
                </tr>
              ))}
              {layer.tiles.length > SHOWN_TILES && (
                <tr><td colSpan={3 + LAYER_PHASES.length} className="text muted">and {layer.tiles.length - SHOWN_TILES} more tiles</td></tr>
              )}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
