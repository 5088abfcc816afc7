// Benchmarks in Chromium. The built app (dist/) is served by `vite preview` with its COOP/COEP
// headers and opened in Debian's headless Chromium, exactly as the e2e suite does
// (e2e/browser.ts: same server, same flags, a fresh temporary profile per launch), with the bench
// test hook set before the page's scripts run (setTestHooks; src/ui/test-hooks.ts) so the app
// exposes its bench hooks (src/ui/bench-hooks.ts, contract in
// src/ui/bench-api.ts). A measurement drives the app's own workers through them, so a browser
// bench is a few lines:
//
//   const r = await inChromium((page) => timeHook(page, 'graphLayout', input));
//   if ('skipped' in r) ... a row with value NaN (printed as '-') and r.skipped as its note
//   else ... r.result.ms (inside the worker), r.result.wallMs (from the page), r.result.figures
//
// Missing Chromium, an unbuilt dist/ or one built before a hook existed give a reason, not an
// exception, so the other benchmarks of the run still print; everything started is closed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, DIST, setTestHooks, startApp } from '../e2e/browser';
import type { AppSession } from '../e2e/browser';
import type { BenchFigures, BenchHooks } from '../src/ui/bench-api';
import { BENCH_GLOBAL } from '../src/ui/bench-api';

/** Why browser benchmarks cannot run on this machine, or undefined if they can. */
export function browserUnavailable(): string | undefined {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} not found (apt-get install chromium)`;
  if (!existsSync(path.join(DIST, 'index.html'))) return 'dist/ not built (npm run build)';
  return undefined;
}

export type InChromium<T> = { result: T } | { skipped: string };

/**
 * Opens the built app in headless Chromium with its bench hooks, waits until it has started
 * (built-in model loaded, no run going), runs `measure` on the page and closes everything,
 * also when something fails. Never rejects: a failure becomes { skipped: why }.
 */
export async function inChromium<T>(measure: (page: Page) => Promise<T>): Promise<InChromium<T>> {
  const missing = browserUnavailable();
  if (missing) return { skipped: `not measured: ${missing}` };
  let app: AppSession | undefined;
  try {
    app = await startApp();
    // tsx compiles with esbuild's keepNames, which wraps functions declared in the code sent to
    // the page (page.evaluate and waitForFunction callbacks) in calls to its __name helper;
    // the page has none, so give it a no-op one.
    await app.page.addInitScript('globalThis.__name = (f) => f;');
    await setTestHooks(app.page, { bench: true });
    await app.open();
    const hooked = await app.page.waitForFunction((g) => g in window, BENCH_GLOBAL, { timeout: 15_000 })
      .then(() => true, () => false);
    if (!hooked) return { skipped: 'not measured: dist/ has no bench hooks, it predates them (npm run build)' };
    return { result: await measure(app.page) };
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    process.stderr.write(`browser bench failed: ${message}\n`);
    return { skipped: `failed: ${message.split('\n')[0]}` };
  } finally {
    await app?.close().catch(() => undefined);
  }
}

type HookName = keyof BenchHooks;
type HookArg<K extends HookName> = Parameters<BenchHooks[K]>[0];
type HookFigures<K extends HookName> = Awaited<ReturnType<BenchHooks[K]>>;

export interface HookTiming<F> {
  /** Best time of one call as the page sees it: sending, the work, the answer back. */
  wallMs: number;
  /** Best `ms` the hook reported (the time inside the worker), if it reports one. */
  ms?: number;
  /** The figures of the last call. */
  figures: F;
}

/**
 * Calls a bench hook in the page once to warm up (worker start, JIT), then `reps` times, and
 * keeps the best of each time. The argument is sent into the page once, before the timing.
 */
export async function timeHook<K extends HookName>(page: Page, hook: K, arg: HookArg<K>, reps = 3): Promise<HookTiming<HookFigures<K>>> {
  const timing = await page.evaluate(async ({ global, hook, arg, reps }) => {
    const hooks = (window as unknown as Record<string, Record<string, (a: unknown) => Promise<BenchFigures>>>)[global];
    const fn = hooks?.[hook];
    if (!fn) throw new Error(`the built app has no bench hook '${hook}': dist/ predates it (npm run build)`);
    let figures = await fn(arg);
    let wallMs = Infinity;
    let ms = Infinity;
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      figures = await fn(arg);
      wallMs = Math.min(wallMs, performance.now() - t0);
      if (typeof figures.ms === 'number') ms = Math.min(ms, figures.ms);
    }
    return { wallMs, ms: Number.isFinite(ms) ? ms : undefined, figures };
  }, { global: BENCH_GLOBAL, hook, arg: arg as unknown, reps });
  return timing as HookTiming<HookFigures<K>>;
}
