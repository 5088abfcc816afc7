// For the bench hooks only (bench-hooks.ts): mounts the profile view in a box of its own over
// the page, with its own React root, so its drawing can be timed without touching the app's panes.
import { createRef } from 'react';
import { createRoot } from 'react-dom/client';
import type { RunProfile } from '../../../sim/profile/types';
import type { RunResult } from '../../../sim/run/types';
import { ProfileView } from './ProfileView';
import type { DrawStats, TimelineApi } from './Timeline';

export interface MountedProfile {
  /** Milliseconds from render() to the first frame painted after the timeline's first draw. */
  firstPaint: Promise<{ ms: number; drawnMs: number; stats: DrawStats }>;
  api: () => TimelineApi;
  unmount(): void;
}

export const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

export function mountProfile(profile: RunProfile, width: number, height: number): MountedProfile {
  const box = document.createElement('div');
  // Sized like a pane: a size container (as the workspace's tabs are) that scrolls inside.
  Object.assign(box.style, {
    position: 'fixed', left: '0', top: '0', width: `${width}px`, height: `${height}px`, overflow: 'auto',
    background: '#fff', zIndex: '10000', containerType: 'size', padding: '12px 14px', boxSizing: 'border-box',
  });
  document.body.append(box);
  const root = createRoot(box);
  const api = createRef<TimelineApi>();
  const result: RunResult = { target: 'simulator', compiler: 'bench', stdout: '', exitCode: 0, cycles: profile.total, profile };
  let first: ((s: DrawStats) => void) | null = null;
  let drawnAt = 0;
  const drawn = new Promise<DrawStats>((resolve) => { first = resolve; });
  const t0 = performance.now();
  root.render(<ProfileView profile={profile} result={result} timelineApi={api}
    onDraw={(s) => { if (first) { drawnAt = performance.now(); first(s); first = null; } }} />);
  const firstPaint = drawn.then(async (stats) => {
    await nextFrame();
    return { ms: performance.now() - t0, drawnMs: drawnAt - t0, stats };
  });
  return {
    firstPaint,
    api: () => {
      if (!api.current) throw new Error('the timeline is not mounted');
      return api.current;
    },
    unmount: () => { root.unmount(); box.remove(); },
  };
}
