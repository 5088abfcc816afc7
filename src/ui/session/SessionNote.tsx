// The header's word on the session kept across reloads: nothing while it is saved; why not when
// it cannot be (no storage, storage full). data-state tells tests when a change is written.
import { useSessionStatus } from './session';

export function SessionNote() {
  const s = useSessionStatus();
  const common = { 'data-testid': 'session-status', 'data-state': s.state } as const;
  if (s.state === 'failed' || s.state === 'off')
    return (
      <span className="session-note bad" role="status" title={s.message} {...common}>
        {s.state === 'failed' && s.problem === 'full' ? 'session not saved: storage full' : 'session not saved'}
      </span>
    );
  return <span hidden {...common} />;
}
