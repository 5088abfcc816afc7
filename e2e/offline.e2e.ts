// Offline and sessions: once loaded, the app reloads, compiles and runs a built-in model with the
// server gone and the browser offline (the service worker serves the build); a reload brings back
// an opened model with its configuration, an edit in the code pane and the pinned baseline; and a
// browser whose storage refuses or is full still runs the app and says the session is not saved.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import { createServer, preview } from 'vite';
import { writeServiceWorker } from '../scripts/offline/plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADD_DIR, attr, openAddFromFiles, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { DIST, ROOT, builtinModels, launchChromium, startApp } from './browser';

/** The start-up wait of AppSession.open, after a reload. */
async function waitStarted(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const $ = (id: string) => document.querySelector(`[data-testid="${id}"]`);
    return $('model-name') !== null && $('run-status')?.getAttribute('data-status') !== 'loading';
  }, undefined, { timeout: 60_000 });
}

async function compileAndRun(page: Page): Promise<void> {
  await page.getByTestId('compile-button').click();
  await waitIdle(page);
  expect(await attr(page, 'run-status', 'data-status')).toBe('done');
}

/** The editor's rendered lines (Monaco draws those on screen). */
async function editorText(page: Page): Promise<string> {
  const lines = await page.locator('[data-testid="code-editor"] .view-line').evaluateAll((els) =>
    els.map((e) => (e.textContent ?? '').replace(/\u00a0/g, ' ')));
  return lines.join('\n');
}

const hasAdder = builtinModels().some((m) => m.id === 'adder');

describe.skipIf(!hasAdder)('offline', () => {
  let app: AppSession;
  beforeAll(async () => { app = await startApp(); });
  afterAll(async () => {
    await app?.browser.close();
    await app?.server.close().catch(() => undefined);
  });

  it('reloads, compiles and runs a built-in model with the network cut', async () => {
    const { page } = app;
    await app.open('?model=adder');
    // The service worker has cached the build and serves the page.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
    await page.waitForSelector('[data-testid="offline-status"][data-state="ready"]', { state: 'attached' });
    expect(await text(page, 'offline-status')).toBe('available offline');
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      return Promise.all(names.map(async (n) => ({ name: n, urls: (await (await caches.open(n)).keys()).map((r) => new URL(r.url).pathname) })));
    });
    expect(cached).toHaveLength(1);
    expect(cached[0]!.name).toMatch(/^dpg-build-[0-9a-f]{16}$/);
    const urls = cached[0]!.urls;
    for (const re of [/^\/index\.html$/, /^\/assets\/index-.*\.js$/, /^\/assets\/editor-.*\.js$/, /^\/assets\/pipeline\.worker-.*\.js$/,
      /^\/assets\/sim-.*\.wasm$/, /^\/assets\/index-.*\.css$/, /^\/models\/index\.json$/, /^\/models\/adder\/network\.onnx$/])
      expect(urls.some((u) => re.test(u)), String(re)).toBe(true);

    // Cut the network: the server is gone, and the browser is offline.
    await app.server.close();
    await page.context().setOffline(true);
    const probe = () => page.evaluate(() => fetch(`/not-cached-${Date.now()}`).then((r) => `answered ${r.status}`, () => 'failed'));
    expect(await probe()).toBe('failed');

    await page.reload();
    await waitStarted(page);
    expect(await text(page, 'model-name')).toBe('adder/network.onnx');
    expect(await probe()).toBe('failed');
    await compileAndRun(page);
    expect(await attr(page, 'run-errors', 'data-errors')).toBe('0');
    expect(await text(page, 'run-errors')).toMatch(/^Errors: 0 out of \d+$/);
    // Monaco, loaded lazily, comes from the cache too.
    await page.waitForSelector('[data-testid="code-editor"][data-state="ready"]', { timeout: 30_000 });
    // The only errors on the page are the probes' failed fetches.
    expect(app.pageErrors.filter((e) => !/not-cached-|ERR_INTERNET_DISCONNECTED|Failed to fetch|Failed to load resource/.test(e))).toEqual([]);
  });
});

describe('a new build', () => {
  it('is cached beside the running one, offered in the header, and served after its Reload, which drops the old cache', async () => {
    // A deployment of our own: a copy of dist/ that the test changes.
    const dir = mkdtempSync(path.join(tmpdir(), 'dpg-deploy-'));
    cpSync(DIST, dir, { recursive: true });
    const server = await preview({
      root: ROOT, configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir: dir },
      preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
    });
    const browser = await launchChromium();
    try {
      const url = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}/`;
      const page = await browser.newPage();
      const cacheNames = () => page.evaluate(() => caches.keys());
      const favicon = () => page.evaluate(() => fetch('/favicon.svg').then((r) => r.text()));
      await page.goto(url);
      await waitStarted(page);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
      const [old] = await cacheNames();
      const oldIcon = await favicon();

      const icon = path.join(dir, 'favicon.svg');
      writeFileSync(icon, readFileSync(icon, 'utf8').replace('</svg>', '<!-- build 2 --></svg>'));
      const { manifest } = await writeServiceWorker(dir);
      expect(`dpg-build-${manifest.version}`).not.toBe(old);
      await page.evaluate(async () => { await (await navigator.serviceWorker.getRegistration())!.update(); });
      await page.waitForSelector('[data-testid="offline-status"][data-state="update"]', { timeout: 60_000 });
      expect(await text(page, 'offline-status')).toMatch(/^A new version is ready/);
      // Until asked, the page keeps its build: both caches are there, and the old file is served.
      expect((await cacheNames()).sort()).toEqual([old, `dpg-build-${manifest.version}`].sort());
      expect(await favicon()).toBe(oldIcon);

      await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), page.getByTestId('offline-reload').click()]);
      await waitStarted(page);
      await page.waitForSelector('[data-testid="offline-status"][data-state="ready"]', { state: 'attached' });
      expect(await cacheNames()).toEqual([`dpg-build-${manifest.version}`]);
      expect(await favicon()).toContain('<!-- build 2 -->');
    } finally {
      await browser.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the dev server', () => {
  it('takes over an origin where a build\'s service worker is in charge, and runs no worker of its own', async () => {
    const app = await startApp();
    const dev = { server: undefined as Awaited<ReturnType<typeof createServer>> | undefined };
    try {
      const { page } = app;
      await app.open();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
      const port = new URL(app.server.url).port;
      await app.server.close();
      // `npm run dev` on the same origin: its page, not the build's cached one.
      dev.server = await createServer({
        root: ROOT, configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn',
        // Its prebundled dependencies go to a folder of its own, not node_modules/.vite.
        cacheDir: path.join(tmpdir(), 'dpg-e2e-vite-dev'),
        server: { host: '127.0.0.1', port: Number(port), strictPort: true },
      });
      await dev.server.listen();
      expect((dev.server.httpServer!.address() as AddressInfo).port).toBe(Number(port));
      await page.goto(app.server.url);
      await page.waitForFunction(() => document.querySelector('script[src="/@vite/client"]') !== null
        && navigator.serviceWorker.controller === null, undefined, { timeout: 60_000 });
      await waitStarted(page);
      expect(await page.evaluate(async () => ({
        workers: (await navigator.serviceWorker.getRegistrations()).length, caches: await caches.keys(),
      }))).toEqual({ workers: 0, caches: [] });
      expect(await attr(page, 'offline-status', 'data-state')).toBe('off');
    } finally {
      await app.browser.close();
      await dev.server?.close();
      await app.server.close().catch(() => undefined);
    }
  });
});

describe.skipIf(!existsSync(path.join(ADD_DIR, 'network.onnx')))('session', () => {
  let app: AppSession;
  beforeAll(async () => { app = await startApp(); });
  afterAll(async () => { await app?.close(); });

  it('brings back an opened model, its configuration, an edit in the code pane and the pinned baseline after a reload', async () => {
    const { page } = app;
    await app.open();
    await openAddFromFiles(page);
    expect(new URL(page.url()).searchParams.get('model')).toBeNull();
    await page.getByTestId('cfg-cores').fill('2');
    await page.getByTestId('cfg-double-buffer').check();
    await compileAndRun(page);
    await page.getByTestId('pin-baseline').click();
    await page.getByTestId('unpin-baseline').waitFor();
    const baselineCycles = await text(page, 'run-runtime');
    // An edit of Network.c: a comment, so the program stays the same.
    await page.waitForSelector('[data-testid="code-editor"][data-state="ready"]', { timeout: 30_000 });
    await page.getByTestId('code-tab-Network.c').click();
    await page.getByTestId('code-edit').click();
    const host = page.locator('[data-testid="code-editor"] .code-host');
    const box = (await host.boundingBox())!;
    await page.mouse.click(box.x + 200, box.y + box.height * 0.3);
    await page.keyboard.press('End');
    await page.keyboard.type(' /* kept across reloads */');
    await expect.poll(() => attr(page, 'code-tab-Network.c', 'class')).toContain('modified');
    await page.waitForSelector('[data-testid="session-status"][data-state="saved"]', { state: 'attached' });

    await page.reload();
    await waitStarted(page);
    expect(await text(page, 'model-name')).toBe('network.onnx');
    expect(await page.getByTestId('cfg-cores').inputValue()).toBe('2');
    expect(await page.getByTestId('cfg-double-buffer').isChecked()).toBe(true);
    expect(await page.getByTestId('unpin-baseline').count()).toBe(1);
    // Not compiled yet: Compile builds the kept edit and compares with the kept baseline.
    expect(await attr(page, 'run-status', 'data-status')).toBe('none');
    await compileAndRun(page);
    expect(await attr(page, 'run-errors', 'data-errors')).toBe('0');
    await page.waitForSelector('[data-testid="code-editor"][data-state="ready"]', { timeout: 30_000 });
    expect(await attr(page, 'code-tab-Network.c', 'class')).toContain('modified');
    await page.getByTestId('code-tab-Network.c').click();
    await expect.poll(() => editorText(page)).toContain('/* kept across reloads */');
    // The run built the edit (the run pane would say its result is stale otherwise) and compares with the baseline.
    expect(await page.getByTestId('run-code-stale').count()).toBe(0);
    expect(await text(page, 'profile-speedup')).toContain(baselineCycles.replace(/ cycles$/, ''));
    expect(await text(page, 'profile-speedup')).toMatch(/1\.00× faster than the baseline/);
    expect(app.pageErrors).toEqual([]);
  });

  it('starts afresh when the app is opened anew rather than reloaded', async () => {
    const { page } = app;
    await app.open();
    expect(await text(page, 'model-name')).toBe(`${builtinModels()[0]!.files.model}`);
    expect(await page.getByTestId('cfg-cores').inputValue()).toBe('8');
  });

  it('says why a kept session that is not valid cannot be restored, and starts afresh', async () => {
    const { page } = app;
    await page.getByTestId('cfg-cores').fill('3');
    await page.waitForSelector('[data-testid="session-status"][data-state="saved"]', { state: 'attached' });
    // Storage can hold anything: here, a configuration another version (or a bug) wrote.
    await page.evaluate(() => new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('deeploy-playground');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const tx = open.result.transaction('sessions', 'readwrite');
        const store = tx.objectStore('sessions');
        const get = store.get(sessionStorage.getItem('dpg-session-id')!);
        get.onsuccess = () => { store.put({ ...get.result, config: { ...get.result.config, cores: 'eight' } }); };
        tx.oncomplete = () => { open.result.close(); resolve(); };
        tx.onerror = () => reject(tx.error);
      };
    }));
    await page.reload();
    await waitStarted(page);
    expect(await text(page, 'error-title')).toBe('The last session could not be restored');
    expect(await text(page, 'error-what')).toMatch(/session\.config\.cores: is not an integer/);
    expect(await text(page, 'model-name')).toBe(`${builtinModels()[0]!.files.model}`);
    // The address is a link to the view the session had: it still opens (3 cores).
    expect(new URL(page.url()).searchParams.get('c')).toBe('3');
    expect(await page.getByTestId('cfg-cores').inputValue()).toBe('3');
  });
});

describe('session storage that fails', () => {
  let app: AppSession;
  beforeAll(async () => { app = await startApp(); });
  afterAll(async () => { await app?.close(); });

  it('runs the app and says the session is not saved when storage is refused or full', async () => {
    const { page } = app;
    // A browser that refuses IndexedDB to the page (some private modes).
    await page.context().addInitScript(() => {
      if (sessionStorage.getItem('e2e-storage') === 'refused')
        Object.defineProperty(window, 'indexedDB', { get() { throw new DOMException('storage is disabled', 'SecurityError'); } });
      if (sessionStorage.getItem('e2e-storage') === 'full') {
        const put = IDBObjectStore.prototype.put;
        IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
          if (this.name === 'files') throw new DOMException('quota', 'QuotaExceededError');
          return put.apply(this, args);
        };
      }
    });
    await app.open();
    for (const mode of ['refused', 'full']) {
      await page.evaluate((m) => sessionStorage.setItem('e2e-storage', m), mode);
      await page.reload();
      await waitStarted(page);
      if (mode === 'full') await openAddFromFiles(page);
      await page.waitForSelector('[data-testid="session-status"]:not([hidden])');
      expect(await text(page, 'session-status')).toBe(mode === 'full' ? 'session not saved: storage full' : 'session not saved');
      expect(await attr(page, 'session-status', 'title')).toMatch(mode === 'full' ? /storage for this site is full/ : /does not let this page store data/);
      await compileAndRun(page);
      expect(await attr(page, 'run-errors', 'data-errors')).toBe('0');
    }
    expect(app.pageErrors.filter((e) => !/Deeploy Playground:/.test(e))).toEqual([]);
  });
});
