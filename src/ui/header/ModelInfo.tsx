import { useStore } from '../store';
import { shownName } from '../names';

function size(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * The loaded model's name and files, or what is being loaded. After a failed load the file
 * that failed comes first, with its error; the model still loaded (the one Compile uses) is
 * named as such.
 */
export function ModelInfo() {
  const model = useStore((s) => s.model);
  const failure = useStore((s) => s.loadFailure);
  const loading = useStore((s) => (s.busy?.kind === 'load' ? s.busy.name : null));
  return (
    <div className="model-info">
      {failure && (
        <span className="model-failed" data-testid="model-load-failed" title={failure.error.hint}>
          <b data-testid="model-failed-name">{shownName(failure.name)}</b> failed to load: <span data-testid="model-failed-error">{failure.error.what}</span>
        </span>
      )}
      {model ? (
        <>
          {failure && <span className="muted" data-testid="model-still-loaded">still loaded:</span>}
          <span className="model-name" data-testid="model-name" title={model.name}>{shownName(model.name)}</span>
          <span className="model-size">{size(model.bytes.length)}</span>
          <span className={`badge ${model.inputs ? 'on' : ''}`} data-testid="model-inputs"
            title={model.inputs ? shownName(model.inputs.name) : 'no inputs.npz: the run uses generated inputs'}>inputs</span>
          <span className={`badge ${model.outputs ? 'on' : ''}`} data-testid="model-outputs"
            title={model.outputs ? shownName(model.outputs.name) : 'no outputs.npz: nothing to compare against'}>outputs</span>
        </>
      ) : (
        <span className="model-name none" data-testid="model-name-none">no model loaded</span>
      )}
      {loading && <span className="model-loading" data-testid="model-loading">checking {shownName(loading)}…</span>}
    </div>
  );
}
