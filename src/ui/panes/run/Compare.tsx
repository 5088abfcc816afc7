// Comparing runs in the Run pane: the Pin / Unpin buttons, and against a pinned run the total
// speedup (baseline Runtime / this Runtime) with what changed between the two configurations.
import type { RunResult } from '../../../sim/run/types';
import { useStore } from '../../store';
import { pin, unpin } from './actions';
import { configChanges, configSummary, speedup } from './baseline';

const fmt = (n: number) => n.toLocaleString('en-US');

export function PinButtons({ result }: { result: RunResult | undefined }) {
  const pinned = useStore((s) => s.runBaseline !== null);
  const canPin = result !== undefined && (result.cycles !== undefined || result.profile !== undefined);
  return <>
    <button type="button" className="button small" data-testid="pin-baseline" disabled={!canPin}
      title={canPin ? 'Keep this run\'s cycles (in total and per layer) to compare the next runs with' : 'Run first: a run that printed its Runtime can be pinned'}
      onClick={() => result && pin(result)}>
      {pinned ? 'Pin this run instead' : 'Pin as baseline'}
    </button>
    {pinned && <button type="button" className="button small" data-testid="unpin-baseline" onClick={unpin}>Unpin</button>}
  </>;
}

export function Speedup({ result }: { result: RunResult }) {
  const base = useStore((s) => s.runBaseline);
  const config = useStore((s) => s.compiledConfig);
  const model = useStore((s) => s.model?.builtinId ?? s.model?.name ?? 'model');
  if (!base) return null;
  const now = result.cycles ?? (result.profile ? result.profile.end - result.profile.start : undefined);
  const x = now !== undefined ? speedup(base.cycles, now) : undefined;
  const changes = configChanges(base.config, config, base.model, model);
  return (
    <div className="prof-speedup" data-testid="profile-speedup" data-speedup={x ?? ''}>
      {x !== undefined
        ? <><b className={x >= 1 ? 'faster' : 'slower'}>{x.toFixed(2)}×</b> {x >= 1 ? 'faster than' : 'slower than'} the baseline</>
        : 'no Runtime to compare with the baseline'}
      <span className="muted">
        {' '}({fmt(base.cycles)} cycles; {configSummary(base.config)}){changes.length ? ` · changed: ${changes.join(', ')}` : ' · same configuration'}
      </span>
    </div>
  );
}
