// Lets other parts of the app (the tutorial's Set up) switch the workspace to a preset: the
// mounted Workspace registers how; before it mounts, a request does nothing.
let choose: ((preset: string) => void) | null = null;

/** Called by the mounted Workspace; returns the unregistration. */
export function registerWorkspace(handler: (preset: string) => void): () => void {
  choose = handler;
  return () => { if (choose === handler) choose = null; };
}

/** Arranges the panes as preset `id` does (layouts.ts). */
export function choosePreset(id: string): void {
  choose?.(id);
}
