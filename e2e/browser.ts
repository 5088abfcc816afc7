// Starts the built app with `vite preview` and opens it in Debian's Chromium. The e2e suite
// and the browser benchmarks (bench/browser.ts) share it.
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { preview } from 'vite';
import type { TestHooks } from '../src/ui/test-hooks';
import { TEST_HOOKS_GLOBAL } from '../src/ui/test-hooks';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SHARED_TESTS = path.resolve(ROOT, '../shared/deeploy-tests');
export const SCREENSHOTS = path.join(ROOT, 'e2e/screenshots');
/** Debian's Chromium (apt-get install chromium), driven through playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';
/** The production build `vite preview` serves (npm run build). */
export const DIST = path.join(ROOT, 'dist');

export interface Server {
  url: string;
  close(): Promise<void>;
}

/** Serves dist/ on a free port of 127.0.0.1 with the repo's vite.config.ts (COOP/COEP headers included). */
export async function startPreview(): Promise<Server> {
  if (!existsSync(path.join(DIST, 'index.html')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const server = await preview({
    root: ROOT,
    configFile: path.join(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
  });
  const addr = server.httpServer.address() as AddressInfo;
  return { url: `http://127.0.0.1:${addr.port}/`, close: () => server.close() };
}

export function launchChromium(): Promise<Browser> {
  // playwright-core gives every launch a fresh temporary profile (its own --user-data-dir).
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Sets the app's test hooks (src/ui/test-hooks.ts: stallMs, bench) for every later load of the
 * page, before its scripts run; the address cannot set them. Change them while the page runs
 * with page.evaluate on window.__dpgTestHooks.
 */
export async function setTestHooks(page: Page, hooks: TestHooks): Promise<void> {
  await page.addInitScript(`window.${TEST_HOOKS_GLOBAL} = ${JSON.stringify(hooks)};`);
}

export interface AppSession {
  server: Server;
  browser: Browser;
  page: Page;
  /** Uncaught exceptions and console errors seen on the page. */
  pageErrors: string[];
  /** Opens the app (again), with an optional query such as '?model=adder', and waits for its start-up. */
  open(query?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startApp(): Promise<AppSession> {
  const server = await startPreview();
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    const b = browser;
    return {
      server, browser: b, page, pageErrors,
      async open(query = '') {
        await page.goto(server.url + query);
        // Started: the built-in list has loaded and, if it has models, the first one is loaded.
        await page.waitForFunction(() => {
          const $ = (id: string) => document.querySelector(`[data-testid="${id}"]`);
          const status = $('run-status')?.getAttribute('data-status');
          const ready = $('model-picker') ? $('model-name') !== null : /^No built-in/.test($('model-picker-empty')?.textContent ?? '');
          return ready && status !== 'loading';
        }, undefined, { timeout: 60_000 });
      },
      async close() {
        await b.close();
        await server.close();
      },
    };
  } catch (err) {
    await browser?.close();
    await server.close();
    throw err;
  }
}

export interface BuiltinEntry {
  id: string;
  name: string;
  files: { model: string; inputs?: string; outputs?: string };
}

/** The built-in models as listed in public/models/index.json (empty until models are added). */
export function builtinModels(): BuiltinEntry[] {
  const file = path.join(ROOT, 'public/models/index.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as BuiltinEntry[]) : [];
}
