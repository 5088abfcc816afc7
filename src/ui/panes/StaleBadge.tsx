import { isStale, useStore } from '../store';

/** Beside a pane's title while it shows results of a compile with another configuration. */
export function StaleBadge() {
  const stale = useStore(isStale);
  if (!stale) return null;
  return (
    <span className="badge stale" data-testid="pane-stale" title="These results are from a compile with another configuration; compile again to update them">
      stale
    </span>
  );
}
