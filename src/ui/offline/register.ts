// The page's side of the service worker (sw.ts): register it in a production build, say when
// the app is ready to work offline, and when a newer build is waiting to take over (it does when
// the user asks: the header's Reload). `vite dev` serves no sw.js: there the page unregisters any
// worker a preview of a build left on the same origin, which would otherwise serve that build.
import { create } from 'zustand';

export type OfflineState =
  /** No service worker: dev server, a browser without one, or an insecure origin. */
  | { state: 'off'; reason: string }
  /** Registered; the build's files are being cached (or the worker is not in charge of the page yet). */
  | { state: 'installing' }
  /** The page is served by the worker: a reload works without the network. */
  | { state: 'ready' }
  /** A newer build is cached and waits; the page still runs the build it loaded. */
  | { state: 'update'; waiting: ServiceWorker }
  | { state: 'failed'; message: string };

export const useOffline = create<OfflineState>()(() => ({ state: 'off', reason: 'not registered yet' }));

const set = (s: OfflineState) => useOffline.setState(s, true);

/** The newer build takes over; the page reloads into it once it has (controllerchange). */
export function applyUpdate(): void {
  const s = useOffline.getState();
  if (s.state === 'update') s.waiting.postMessage({ type: 'skip-waiting' });
}

function watchUpdates(reg: ServiceWorkerRegistration): void {
  const sw = navigator.serviceWorker;
  const offer = (w: ServiceWorker) => {
    // Without a controller this is the first install, not an update: it takes over by itself.
    if (sw.controller) set({ state: 'update', waiting: w });
  };
  if (reg.waiting) offer(reg.waiting);
  reg.addEventListener('updatefound', () => {
    const w = reg.installing;
    w?.addEventListener('statechange', () => {
      if (w.state === 'installed') offer(w);
      // The first install failed (a file missing or changed on the server): no offline copy yet.
      if (w.state === 'redundant' && !sw.controller)
        set({ state: 'failed', message: 'the app\'s files could not be cached; it needs the network until a reload caches them' });
    });
  });
  let reloading = false;
  sw.addEventListener('controllerchange', () => {
    // An update the user asked for: reload into the new build. The first install's claim only
    // puts the worker in charge of this page, which keeps running.
    if (useOffline.getState().state === 'update' && !reloading) {
      reloading = true;
      window.location.reload();
    } else if (sw.controller) set({ state: 'ready' });
  });
}

export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) {
    set({ state: 'off', reason: window.isSecureContext ? 'this browser has no service workers' : 'the page is not served over HTTPS' });
    return;
  }
  const sw = navigator.serviceWorker;
  if (import.meta.env.DEV) {
    for (const r of await sw.getRegistrations()) await r.unregister();
    set({ state: 'off', reason: 'the dev server does not cache the app' });
    return;
  }
  try {
    const base = import.meta.env.BASE_URL;
    const reg = await sw.register(`${base}sw.js`, { scope: base });
    if (useOffline.getState().state !== 'update') set(sw.controller ? { state: 'ready' } : { state: 'installing' });
    watchUpdates(reg);
  } catch (err) {
    set({ state: 'failed', message: err instanceof Error ? err.message : String(err) });
  }
}
