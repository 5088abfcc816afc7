// Hooks for the app's own tests and benchmarks. They are read from a global the test harness
// sets before the page's scripts run (Playwright's addInitScript, e2e/browser.ts setTestHooks),
// never from the address: a share link cannot stall every compile (?stall=) or expose the bench
// hooks (?bench). Those parameters in an address are ignored, and the address bar drops them.

/** The global the harness sets: window.__dpgTestHooks = { stallMs, bench }. */
export const TEST_HOOKS_GLOBAL = '__dpgTestHooks';

export interface TestHooks {
  /** The worker hangs this long before each compile (the cancel test). */
  stallMs?: number;
  /** Expose window.__dpgBench (bench-hooks.ts) for `npm run bench`. */
  bench?: boolean;
}

/** The hooks as set now (read at each use, so a test can change them while the page runs); only well-formed fields count. */
export function testHooks(): TestHooks {
  const v: unknown = (globalThis as Record<string, unknown>)[TEST_HOOKS_GLOBAL];
  if (!v || typeof v !== 'object') return {};
  const h = v as Record<string, unknown>;
  const out: TestHooks = {};
  if (typeof h.stallMs === 'number' && Number.isFinite(h.stallMs) && h.stallMs > 0) out.stallMs = h.stallMs;
  if (h.bench === true) out.bench = true;
  return out;
}
