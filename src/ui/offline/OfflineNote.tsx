// The header's word on the offline copy: ready, a newer build waiting (with Reload), or why
// there is none. Quiet while the files are being cached.
import { applyUpdate, useOffline } from './register';

export function OfflineNote() {
  const s = useOffline();
  const common = { 'data-testid': 'offline-status', 'data-state': s.state } as const;
  switch (s.state) {
    case 'ready':
      return <span className="offline-note" {...common} title="The app and its built-in models are cached: a reload works without the network">available offline</span>;
    case 'update':
      return (
        <span className="offline-note update" {...common}>
          A new version is ready{' '}
          <button type="button" className="button" data-testid="offline-reload" onClick={applyUpdate}>Reload</button>
        </span>
      );
    case 'failed':
      return <span className="offline-note bad" {...common} title={s.message}>not available offline</span>;
    default:
      return <span hidden {...common} title={s.state === 'off' ? s.reason : undefined} />;
  }
}
