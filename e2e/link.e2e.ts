// Share links (issue #15): a link made from a non-default view (model, flags, pass, node, an
// edited kernel) reopens in a fresh browser context with the same view and the same Runtime; a
// small dropped model travels inside the link, a larger one is asked for by name and checked
// by hash; a hostile link is refused with a message and runs nothing; the link of a built-in
// model's configuration and view stays short.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deflateRawSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
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

/** The start-up e2e/browser.ts's open waits for: the built-in list, a model, no check running. */
async function waitStarted(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const $ = (id: string) => document.querySelector(`[data-testid="${id}"]`);
    const status = $('run-status')?.getAttribute('data-status');
    return $('model-name') !== null && status !== 'loading';
  }, undefined, { timeout: 60_000 });
}

/** A link's compressed part as an attacker writes it: any JSON, deflated, base64url. */
const zOf = (json: unknown) => deflateRawSync(Buffer.from(JSON.stringify(json))).toString('base64url');
/** The hash of no lines (diff.ts linesHash): the hunk of an insert that replaces nothing. */
const EMPTY = '811c9dc5';

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
    // The compressed part (the edit) in the fragment, which no server sees.
    expect(new URL(link).hash).toMatch(/^#z=/);

    const other = await freshPage(app.browser, link);
    try {
      // The link carries C (the edited kernel): it asks before it runs anything.
      await other.page.getByTestId('link-run-prompt').waitFor({ timeout: 60_000 });
      expect(await other.page.getByTestId('link-run-prompt').textContent()).toMatch(new RegExp(`This link runs C code it carries: ${KERNEL}\\. Run it\\?`));
      await other.page.getByTestId('link-run-yes').click();
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
    for (const q of ['?v=1&m=<script>alert(1)</script>', '?v=1&z=' + 'A'.repeat(5000), '?v=1#z=' + 'A'.repeat(5000), '?v=7']) {
      const p = await freshPage(app.browser, app.server.url + q);
      try {
        await p.page.getByTestId('error-banner').waitFor({ timeout: 30_000 });
        expect(await p.page.getByTestId('error-banner').textContent()).toMatch(/This link cannot be opened/);
        await waitIdle(p.page);
        expect(await p.page.locator('img[src="x"]').count()).toBe(0);
        expect(p.dialogs).toEqual([]);
      } finally { await p.close(); }
    }
    // Markup in a node's name is a name like any other: carried as data, never markup.
    const p = await freshPage(app.browser, `${app.server.url}?v=1&m=adder&gn=1.${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
    try {
      await waitStarted(p.page);
      expect(await p.page.locator('img[src="x"]').count()).toBe(0);
      expect(p.dialogs).toEqual([]);
    } finally { await p.close(); }
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

  it('opens the diff bomb (20,000 identical lines inserted at the top of conv_hwc.c) at once, with bounded memory and a main thread that answers', async () => {
    const bomb = `${app.server.url}?v=1&m=adder&r=1&z=${zOf({ edits: { 'kernels/conv_hwc.c': [[0, 0, EMPTY, Array.from({ length: 20_000 }, () => 'x')]] } })}`;
    console.log(`diff bomb link: ${bomb.length - app.server.url.length} characters after the origin`);
    expect(bomb.length - app.server.url.length).toBeLessThan(400);
    // The same start without the link, for comparison.
    const plain = await freshPage(app.browser, 'about:blank');
    const t0 = Date.now();
    await plain.page.goto(`${app.server.url}?v=1&m=adder`);
    await waitStarted(plain.page);
    const plainMs = Date.now() - t0;
    await plain.close();

    const b = await freshPage(app.browser, 'about:blank');
    try {
      const t1 = Date.now();
      await b.page.goto(bomb);
      // Usable: the link's C is not run unasked; the prompt is up.
      await b.page.getByTestId('link-run-prompt').waitFor({ timeout: 30_000 });
      const bombMs = Date.now() - t1;
      console.log(`start-up: ${plainMs} ms without the link, ${bombMs} ms to the bomb's prompt`);
      expect(bombMs).toBeLessThan(plainMs + 1000);
      expect(await attr(b.page, 'link-run-prompt', 'data-files')).toBe('kernels/conv_hwc.c');
      const cdp = await b.page.context().newCDPSession(b.page);
      const heap = async () => ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
      const heap0 = await heap();
      // A probe of the main thread: the longest gap between timer ticks 20 ms apart.
      await b.page.evaluate(() => {
        const w = window as unknown as { __gap: number };
        w.__gap = 0;
        let last = performance.now();
        const tick = () => { const now = performance.now(); w.__gap = Math.max(w.__gap, now - last); last = now; setTimeout(tick, 20); };
        setTimeout(tick, 20);
      });
      const t2 = Date.now();
      await b.page.getByTestId('link-run-yes').click();
      // The edits applied and diffed again for the address bar (the step that took 5-6 s a click).
      await b.page.waitForFunction(() => location.hash.startsWith('#z='), undefined, { timeout: 120_000 });
      const appliedMs = Date.now() - t2;
      // The longest gap so far includes the compile's results arriving (the app's ordinary work);
      // from here on it is the edits' own: the rebuild with them, the address kept in step.
      const compileGap = await b.page.evaluate(() => { const w = window as unknown as { __gap: number }; const g = w.__gap; w.__gap = 0; return g; });
      // A click is handled promptly while the link's program builds.
      const t3 = Date.now();
      await b.page.getByTestId('layout-run').click();
      const clickMs = Date.now() - t3;
      await waitIdle(b.page);
      const gap = await b.page.evaluate(() => (window as unknown as { __gap: number }).__gap);
      const heap1 = await heap();
      console.log(`after Run: edits applied and in the address in ${appliedMs} ms (a compile first; longest main-thread gap meanwhile ${compileGap.toFixed(0)} ms); a click ${clickMs} ms; longest gap after the edits applied ${gap.toFixed(0)} ms; JS heap ${(heap0 / 2 ** 20).toFixed(1)} MB at the prompt, ${(heap1 / 2 ** 20).toFixed(1)} MB after`);
      expect(clickMs).toBeLessThan(1000);
      expect(gap).toBeLessThan(500);
      expect(compileGap).toBeLessThan(3000);
      expect(heap0).toBeLessThan(128 * 2 ** 20);
      expect(heap1).toBeLessThan(256 * 2 ** 20);
      await b.page.screenshot({ path: path.join(ROOT, 'e2e/screenshots/link-diff-bomb.png') });
    } finally { await b.close(); }
  }, 300_000);

  it('runs a link of generated code at once, and asks before running C a link carries (edits, an operator\'s kernel): Don\'t run runs nothing', async () => {
    const gen = await freshPage(app.browser, `${app.server.url}?v=1&m=adder&r=1`);
    try {
      await runDone(gen.page);
      expect(await gen.page.getByTestId('link-run-prompt').count()).toBe(0);
    } finally { await gen.close(); }

    const edit = await freshPage(app.browser, `${app.server.url}?v=1&m=adder&r=1#z=${zOf({ edits: { [KERNEL]: [[0, 0, EMPTY, ['/* from a link */']]] } })}`);
    try {
      await edit.page.getByTestId('link-run-prompt').waitFor({ timeout: 60_000 });
      expect(await edit.page.getByTestId('link-run-prompt').textContent()).toContain(`This link runs C code it carries: ${KERNEL}. Run it?`);
      await edit.page.screenshot({ path: path.join(ROOT, 'e2e/screenshots/link-run-prompt.png') });
      await edit.page.getByTestId('link-run-no').click();
      expect(await edit.page.getByTestId('link-run-prompt').count()).toBe(0);
      await edit.page.waitForTimeout(1500);
      expect(await attr(edit.page, 'run-status', 'data-status')).not.toBe('running');
      expect(await edit.page.getByTestId('pane-run').getAttribute('data-status')).not.toBe('done');
      expect(await attr(edit.page, 'run-status', 'data-status')).toBe('none');
    } finally { await edit.close(); }

    const lab = path.join(ROOT, 'src/pipeline/lab');
    const op = { spec: JSON.parse(readFileSync(path.join(lab, 'ileakyrelu.json'), 'utf8')) as unknown, kernel: readFileSync(path.join(lab, 'scalar.c'), 'utf8') };
    const withOp = await freshPage(app.browser, `${app.server.url}?v=1&m=adder&r=1#z=${zOf({ ops: [op] })}`);
    try {
      await withOp.page.getByTestId('link-run-prompt').waitFor({ timeout: 60_000 });
      expect(await withOp.page.getByTestId('link-run-prompt').textContent()).toMatch(/This link runs C code it carries: iLeakyReLU\.c\. Run it\?/);
      await withOp.page.getByTestId('link-run-no').click();
      await withOp.page.waitForTimeout(1000);
      expect(await attr(withOp.page, 'run-status', 'data-status')).toBe('none');
    } finally { await withOp.close(); }
  }, 300_000);

  it('ignores a test hook in the address (?stall=) and drops it from the address bar', async () => {
    const p = await freshPage(app.browser, `${app.server.url}?v=1&m=adder&stall=600000`);
    try {
      await waitStarted(p.page);
      await p.page.waitForFunction(() => !location.search.includes('stall'), undefined, { timeout: 10_000 });
      await p.page.getByTestId('compile-button').click();
      await waitIdle(p.page);
      expect(await attr(p.page, 'run-status', 'data-status')).toMatch(/^(done|failed)$/);
    } finally { await p.close(); }
  }, 120_000);

  it('keeps the banner of a link it cannot open until dismissed, after the model it opens instead has loaded', async () => {
    for (const [q, title] of [['?v=7', 'This link cannot be opened'], ['?v=1&m=no-such-model', 'Unknown model in the address']] as const) {
      const p = await freshPage(app.browser, app.server.url + q);
      try {
        await waitStarted(p.page);
        await waitIdle(p.page);
        await p.page.waitForTimeout(1500);
        expect(await text(p.page, 'error-title')).toBe(title);
        await p.page.getByTestId('compile-button').click();
        await waitIdle(p.page);
        expect(await text(p.page, 'error-title')).toBe(title);
        await p.page.getByTestId('error-dismiss').click();
        expect(await p.page.getByTestId('error-banner').count()).toBe(0);
      } finally { await p.close(); }
    }
  }, 180_000);

  it('writes links that read back for any name: a node named with < and >, a model named with U+202E (shown escaped)', async () => {
    const { readOnnx } = await import('../src/compiler/onnx/read');
    const { writeOnnx } = await import('../src/compiler/onnx/write');
    const g = readOnnx(new Uint8Array(readFileSync(path.join(ROOT, 'public/models/adder/network.onnx'))), 'network.onnx');
    const NODE = 'add<1> & "x" #2 %20';
    g.nodes[0]!.name = NODE;
    const modelName = 'evil\u202etxt.onnx';
    const ctx = await app.browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const page = await ctx.newPage();
    try {
      await page.goto(`${app.server.url}?v=1`);
      await waitStarted(page);
      await page.getByTestId('file-input').setInputFiles([{ name: modelName, mimeType: 'application/octet-stream', buffer: Buffer.from(writeOnnx(g)) }]);
      await page.waitForFunction((n) => document.querySelector('[data-testid="model-name"]')?.getAttribute('title') === n, modelName, { timeout: 60_000 });
      expect(await text(page, 'model-name')).toBe('evil⟨U+202E⟩txt.onnx');
      expect(await text(page, 'compile-target')).toBe('compiles evil⟨U+202E⟩txt.onnx');
      await page.getByTestId('compile-button').click();
      await waitIdle(page);
      const node = page.locator(`[data-testid="graph-canvas-left"] g.gnode[data-node=${JSON.stringify(NODE)}]`);
      await node.first().click({ timeout: 20_000 }).catch(async (e: unknown) => {
        await page.screenshot({ path: path.join(ROOT, 'e2e/screenshots/link-names-failed.png') });
        throw new Error(`${String(e)}; nodes: ${JSON.stringify(await page.locator('g.gnode[data-node]').evaluateAll((els) => els.map((x) => x.getAttribute('data-node'))))}`);
      });
      await page.waitForFunction((n) => document.querySelector('[data-testid="graph-props"]')?.getAttribute('data-node') === n, NODE, { timeout: 10_000 });
      await page.waitForFunction(() => location.search.includes('gn='), undefined, { timeout: 10_000 });
      await page.screenshot({ path: path.join(ROOT, 'e2e/screenshots/link-names.png') });
      const link = page.url();
      const other = await freshPage(app.browser, link);
      try {
        await waitStarted(other.page);
        await other.page.waitForFunction((n) => document.querySelector('[data-testid="graph-props"]')?.getAttribute('data-node') === n, NODE, { timeout: 120_000 });
        expect(await other.page.getByTestId('error-banner').count()).toBe(0);
        expect(await text(other.page, 'model-name')).toBe('evil⟨U+202E⟩txt.onnx');
        expect(await text(other.page, 'props-name')).toBe(NODE);
      } finally { await other.close(); }
    } finally { await ctx.close(); }
  }, 300_000);

  it('carries a link of more than 16 KB (a model and an edit inside) in the fragment, through vite preview', async () => {
    const dir = path.join(ROOT, 'public/models/adder');
    const file = (f: string) => ({ name: f, data: readFileSync(path.join(dir, f)).toString('base64url') });
    // Lines no compression shortens.
    let r = 1;
    const noise = Array.from({ length: 300 }, () => `/* ${Array.from({ length: 80 }, () => { r = (Math.imul(r, 1103515245) + 12345) >>> 0; return 'abcdefghijklmnopqrstuvwxyz0123456789'[(r >>> 8) % 36]; }).join('')} */`);
    const z = zOf({ model: { model: file('network.onnx'), inputs: file('inputs.npz'), outputs: file('outputs.npz') }, edits: { [KERNEL]: [[0, 0, EMPTY, noise]] } });
    expect(z.length).toBeGreaterThan(16_000);
    // In the query, the server refuses it (the request's headers are too large) ...
    const inQuery = await fetch(`${app.server.url}?v=1&z=${z}`);
    console.log(`a ${z.length + 6}-character query: HTTP ${inQuery.status}`);
    expect(inQuery.status).toBe(431);
    // ... in the fragment it never reaches the server, and the link opens.
    const p = await freshPage(app.browser, `${app.server.url}?v=1&r=1#z=${z}`);
    try {
      await p.page.getByTestId('link-run-prompt').waitFor({ timeout: 60_000 });
      expect(await text(p.page, 'model-name')).toBe('network.onnx');
      expect(await p.page.getByTestId('error-banner').count()).toBe(0);
    } finally { await p.close(); }
  }, 180_000);
});
