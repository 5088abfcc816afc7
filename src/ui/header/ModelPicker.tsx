import { loadBuiltin } from '../actions';
import { useStore } from '../store';

/** The built-in models from public/models/index.json. */
export function ModelPicker() {
  const builtins = useStore((s) => s.builtins);
  const current = useStore((s) => s.model?.builtinId);
  const fromFile = useStore((s) => s.model !== null && s.model.builtinId === undefined);
  const busy = useStore((s) => s.busy?.kind === 'load');
  if (builtins.state === 'loading') return <span className="picker-note" data-testid="model-picker-empty">Loading built-in models…</span>;
  if (builtins.state === 'failed')
    return <span className="picker-note" data-testid="model-picker-empty" title={builtins.message}>Built-in models unavailable</span>;
  const { models } = builtins;
  if (models.length === 0)
    return <span className="picker-note" data-testid="model-picker-empty">No built-in models yet: open or drop an .onnx file</span>;
  const selected = models.find((m) => m.id === current);
  return (
    <label className="picker">
      <span>Model</span>
      <select data-testid="model-picker" value={current ?? ''} disabled={busy}
        title={selected?.description}
        onChange={(e) => {
          const m = models.find((x) => x.id === e.target.value);
          if (m) void loadBuiltin(m);
        }}>
        {!selected && <option value="">{fromFile ? '(from a file)' : '(none)'}</option>}
        {models.map((m) => <option key={m.id} value={m.id} title={m.description}>{m.name}</option>)}
      </select>
    </label>
  );
}
