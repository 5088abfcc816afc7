// Share links (issue #15): a link made from a non-default view (model, flags, pass, node, an
// edited kernel) reopens in a fresh browser context with the same view and the same Runtime; a
// small dropped model travels inside the link, a larger one is asked for by name and checked
// by hash; a hostile link is refused with a message and runs nothing; the link of a built-in
// model's configuration and view stays short.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADD_DIR, attr, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { builtinModels, ROOT, startApp } from './browser';
import { sideNodes } from './graph-helpers';

const has = (id: string) => builtinModels().some((m) => m.id === id);
const KERNEL = 'kernels/elementwise.c';

/** Waits for the run to finish; a run that ends otherwise fails at once, saying how. */
async function runDone(page: Page): Promise<void> {
  const finished = () => page.waitForFunction(() => {
    const pane = document.querySelector('[data-testid="pane-run"]')?.getAttribute('data-status') ?? '';
    const bar = document.querySelector('[data-testid="run-status"]')?.getAttribute('data-status') ?? '';
    return bar !== 'running' && bar !== 'loading' && ['done', 'error', 'cancelled', 'skipped'].includes(pane);
  }, undefined, { timeout: 180_000 });
  await finished();
  // A run just asked for may not have started yet: look again a moment later.
  await page.waitForTimeout(300);
  await finished();
  const status = await page.getByTestId('pane-run').getAttribute('data-status');
  if (status !== 'done') {
    const why = await page.locator('[data-testid="run-error"], [data-testid="run-compile-error"], [data-testid="error-banner"]').allTextContents();
    throw new Error(`the run ended ${status}: ${why.join(' | ')}`);
  }
}

async function copyLink(page: Page): Promise<string> {
  // Close the last copy's link first: the new one appears when the copy is done.
  if (await page.getByTestId('link-copied').count()) await page.getByTestId('link-copied').getByRole('button', { name: 'close' }).click();
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
    // The kernel, edited: a function added at the end of the file (built with the program).
    await page.getByTestId('code-library-tabs').click();
    await page.getByTestId(`code-tab-${KERNEL}`).click();
    await page.getByTestId('code-edit').click();
    const host = page.locator('[data-testid="code-editor"] .code-host');
    const box = (await host.boundingBox())!;
    await page.mouse.click(box.x + 200, box.y + box.height / 2);
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('int dpg_link_marker(void) { return 42; } /* added in a shared view */');
    await expect.poll(() => attr(page, `code-tab-${KERNEL}`, 'class')).toContain('modified');
    await expect.poll(async () => (await page.locator('[data-testid="code-editor"] .view-line').allTextContents())
      .some((l) => l.replace(/\u00a0/g, ' ').includes('int dpg_link_marker(void) { return 42; }'))).toBe(true);
    const before = await text(page, 'run-runtime');
    await page.getByTestId('run-again').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="pane-run"]')?.getAttribute('data-status') !== 'done', undefined, { timeout: 10_000 }).catch(() => undefined);
    await runDone(page);
    const runtime = await text(page, 'run-runtime');
    expect(before).toBeTruthy();
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
    await page.waitForFunction(() => document.querySelector('[data-testid="model-name"]')?.textContent === 'network.onnx', undefined, { timeout: 60_000 });
    await waitIdle(page);
    const small = await copyLink(page);
    expect(new URL(small).searchParams.get('m')).toBeNull();
    const a = await freshPage(app.browser, small);
    try {
      await a.page.waitForFunction(() => document.querySelector('[data-testid="model-name"]')?.textContent === 'network.onnx', undefined, { timeout: 60_000 })
        .catch(async (e: unknown) => { throw new Error(`${String(e)}; link ${small.slice(0, 300)}; banner: ${await a.page.locator('[data-testid="error-banner"]').allTextContents()}; model: ${await a.page.locator('[data-testid="model-name"]').allTextContents()}`); });
      expect(await text(a.page, 'model-inputs')).toBeTruthy();
    } finally { await a.close(); }

    const big = path.join(ROOT, 'public/models/mini-mobilenetv2');
    await page.getByTestId('file-input').setInputFiles([path.join(big, 'network.onnx')]);
    await page.waitForFunction(() => document.querySelector('[data-testid="model-inputs"]')?.className.includes('on') === false, undefined, { timeout: 60_000 });
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
