// Share links (issue #15): a link made from a non-default view (model, flags, pass, node, an
// edited kernel) reopens in a fresh browser context with the same view and the same Runtime; a
// small dropped model travels inside the link, a larger one is asked for by name and checked
// by hash; a hostile link is refused with a message and runs nothing; the link of a built-in
// model's configuration and view stays short.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_SOURCES } from '../src/sim/run/sources';
import { ADD_DIR, attr, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { builtinModels, ROOT, startApp } from './browser';
import { sideNodes } from './graph-helpers';

const has = (id: string) => builtinModels().some((m) => m.id === id);
const KERNEL = 'kernels/elementwise.c';

async function runDone(page: Page): Promise<void> {
  await waitIdle(page);
  await page.waitForFunction(() => document.querySelector('[data-testid="pane-run"]')?.getAttribute('data-status') === 'done', undefined, { timeout: 180_000 });
}

async function copyLink(page: Page): Promise<string> {
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('link-copied').getAttribute('data-link');
  expect(link).toBeTruthy();
  return link!;
}

/** A fresh context (no storage shared with the first page) opening `url`. */
async function freshPage(browser: Browser, url: string): Promise<{ page: Page; close: () => Promise<void>; dialogs: string[] }> {
  const ctx = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await ctx.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
  await page.goto(url);
  return { page, close: () => ctx.close(), dialogs };
}

describe.skipIf(!has('adder'))('share links', () => {
  let app: AppSession;
  beforeAll(async () => { app = await startApp(); await app.open('?model=adder'); }, 120_000);
  afterAll(async () => { await app?.close(); });

  it('reopens a view with a pass, a node, flags and an edited kernel, with the same Runtime', async () => {
    const { page } = app;
    await page.getByTestId('cfg-platform').selectOption('siracusa');
    await page.getByTestId('cfg-cores').fill('4');
    await page.getByTestId('compile-button').click();
    await runDone(page);
    // A pass other than the last, and a node in it.
    await page.getByTestId('graph-pass-1').click();
    const node = (await sideNodes(page, 'right'))[0]!.node;
    await page.getByTestId('graph-search').fill(node);
    await page.getByTestId('graph-search').press('Enter');
    await page.waitForFunction((n) => document.querySelector('[data-testid="graph-props"]')?.getAttribute('data-node') === n, node);
    const selected = await attr(page, 'graph-props', 'data-node');
    // The kernel, edited: a busy loop at the start of dpg_binary's work (costs cycles, not correctness).
    const lines = LIBRARY_SOURCES.get(KERNEL)!.split('\n');
    const fn = lines.findIndex((l) => l.startsWith('void dpg_binary('));
    const at = lines.findIndex((l, i) => i > fn && l.trim() === 'if (lo >= hi) return;') + 1;
    await page.getByTestId('code-library-tabs').click();
    await page.getByTestId(`code-tab-${KERNEL}`).click();
    await page.getByTestId('code-edit').click();
    const host = page.locator('[data-testid="code-editor"] .code-host');
    const box = (await host.boundingBox())!;
    await page.mouse.click(box.x + 200, box.y + box.height / 2);
    await page.keyboard.press('Control+G');
    await page.keyboard.type(String(at));
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('for (volatile int k = 0; k < 300; k++');
    await expect.poll(() => attr(page, `code-tab-${KERNEL}`, 'class')).toContain('modified');
    const before = await text(page, 'run-runtime');
    await page.getByTestId('run-again').click();
    await runDone(page);
    const runtime = await text(page, 'run-runtime');
    expect(runtime).not.toBe(before); // the edit is built: it costs cycles
    expect(await attr(page, 'run-errors', 'data-errors')).toBe('0');
    const link = await copyLink(page);
    expect(link).toContain('z=');

    const other = await freshPage(app.browser, link);
    try {
      await runDone(other.page);
      await expect.poll(() => text(other.page, 'run-runtime'), { timeout: 60_000 }).toBe(runtime);
      expect(await other.page.getByTestId('cfg-platform').inputValue()).toBe('siracusa');
      expect(await other.page.getByTestId('cfg-cores').inputValue()).toBe('4');
      expect(await text(other.page, 'model-name')).toBe(await text(page, 'model-name'));
      expect(await attr(other.page, 'graph-pass-1', 'class')).toBe(await attr(page, 'graph-pass-1', 'class'));
      expect(await attr(other.page, 'graph-props', 'data-node')).toBe(selected);
      expect(await attr(other.page, `code-tab-${KERNEL}`, 'class')).toContain('modified');
      expect(other.dialogs).toEqual([]);
    } finally {
      await other.close();
    }
  }, 300_000);

  it('carries a small dropped model inside the link and asks for a larger one by name, checking its hash', async () => {
    const { page } = app;
    await page.getByTestId('file-input').setInputFiles(['network.onnx', 'inputs.npz', 'outputs.npz'].map((f) => path.join(ADD_DIR, f)));
    await waitIdle(page);
    const small = await copyLink(page);
    const a = await freshPage(app.browser, small);
    try {
      await a.page.waitForFunction(() => document.querySelector('[data-testid="model-name"]')?.textContent === 'network.onnx', undefined, { timeout: 60_000 });
      expect(await text(a.page, 'model-inputs')).toBeTruthy();
    } finally { await a.close(); }

    const big = path.join(ROOT, 'public/models/mini-mobilenetv2');
    await page.getByTestId('file-input').setInputFiles([path.join(big, 'network.onnx')]);
    await waitIdle(page);
    const link = await copyLink(page);
    expect(link).toMatch(/mh=[0-9a-f]{64}/);
    const b = await freshPage(app.browser, link);
    try {
      await b.page.getByTestId('link-needs-file').waitFor({ timeout: 60_000 });
      expect(await b.page.getByTestId('link-needs-file').getAttribute('data-name')).toBe('network.onnx');
      // The wrong file is refused, naming the hash.
      await b.page.getByTestId('link-file-input').setInputFiles([path.join(ADD_DIR, 'network.onnx')]);
      await expect.poll(() => b.page.getByTestId('error-banner').textContent()).toMatch(/not the file the link was made with/);
      await b.page.getByTestId('link-file-input').setInputFiles([path.join(big, 'network.onnx')]);
      await b.page.waitForFunction(() => !document.querySelector('[data-testid="link-needs-file"]'), undefined, { timeout: 60_000 });
      await waitIdle(b.page);
      expect(await text(b.page, 'model-name')).toBe('network.onnx');
    } finally { await b.close(); }
  }, 300_000);

  it('refuses a hostile link with a message and runs nothing from it', async () => {
    for (const q of ['?v=1&m=<script>alert(1)</script>', `?v=1&gn=1.${encodeURIComponent('<img src=x onerror=alert(1)>')}`, '?v=1&z=' + 'A'.repeat(5000), '?v=7']) {
      const p = await freshPage(app.browser, app.server.url + q);
      try {
        await p.page.getByTestId('error-banner').waitFor({ timeout: 30_000 });
        expect(await p.page.getByTestId('error-banner').textContent()).toMatch(/This link cannot be opened/);
        await waitIdle(p.page);
        expect(await p.page.locator('img[src="x"]').count()).toBe(0);
        expect(p.dialogs).toEqual([]);
      } finally { await p.close(); }
    }
  }, 120_000);

  it('keeps the link of a built-in model\'s configuration and view under 300 characters', async () => {
    const { page } = app;
    await page.getByTestId('model-picker').selectOption('adder');
    await waitIdle(page);
    await page.getByTestId('cfg-cores').fill('2');
    await page.getByTestId('layout-run').click();
    const link = await copyLink(page);
    const query = new URL(link).search;
    expect(query.length).toBeLessThan(300);
    expect(query).toContain('m=adder');
  });
});
