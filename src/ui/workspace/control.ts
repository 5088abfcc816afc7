// Lets other parts of the app (the tutorial's Set up, a share link) switch the workspace to a
// preset: the request goes through the store, which the mounted Workspace follows.
import { useStore } from '../store';

/** Arranges the panes as preset `id` does (layouts.ts). */
export function choosePreset(id: string): void {
  useStore.setState((s) => ({ layout: { preset: id, n: s.layout.n + 1 } }));
}
