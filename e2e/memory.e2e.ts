// The memory pane as a student uses it: compile the transformer block at L1 64000, then at
// 8000, and see more, smaller tiles; hover a buffer for its details; click a layer to find it
// in the graph pane.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attr, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { SCREENSHOTS, SHARED_TESTS, builtinModels, startApp } from './browser';
import { openModelFile } from './graph-helpers';

interface Seen { steps: number; tiles: number; rows: number; maxL1Buffer: number; l1Buffers: number }

async function compileAt(page: Page, l1: number): Promise<Seen> {
  await page.getByTestId('cfg-l1').fill(String(l1));
  await page.getByTestId('compile-button').click();
  await waitIdle(page);
  expect(await attr(page, 'stage-tile', 'data-status')).toBe('done');
  await page.getByTestId('memory-summary').waitFor();
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll('[data-testid="tiling-row"]')];
    const l1 = [...document.querySelectorAll('[data-testid="mem-lane"][data-level="L1"] [data-testid="mem-buffer"]')];
    return {
      steps: Number(document.querySelector('[data-testid="memory-summary"]')!.getAttribute('data-steps')),
      tiles: rows.reduce((s, r) => s + Number(r.getAttribute('data-tiles')), 0),
      rows: rows.length,
      maxL1Buffer: Math.max(...l1.map((b) => Number(b.getAttribute('data-bytes')))),
      l1Buffers: l1.length,
    };
  });
}

describe('memory pane', () => {
  let app: AppSession;
  beforeAll(async () => { app = await startApp(); });
  afterAll(async () => { await app?.close(); });

  it.skipIf(!builtinModels().some((m) => m.id === 'transformer-block'))('shows more, smaller tiles when L1 shrinks from 64000 to 8000 B', async () => {
    await app.open();
    const { page } = app;
    await page.getByTestId('model-picker').selectOption('transformer-block');
    // The pick starts a model check in the worker: wait for the model, not just for idleness.
    await page.waitForFunction(() => /transformer-block/i.test(document.querySelector('[data-testid="model-name"]')?.textContent ?? ''), undefined, { timeout: 60_000 });
    await waitIdle(page);
    await page.getByTestId('cfg-platform').selectOption('siracusa');

    const big = await compileAt(page, 64000);
    const small = await compileAt(page, 8000);
    console.log(`transformer-block: L1 64000 -> ${big.steps} steps, largest L1 buffer ${big.maxL1Buffer} B; L1 8000 -> ${small.steps} steps, largest ${small.maxL1Buffer} B`);
    expect(small.rows).toBe(big.rows);
    expect(small.steps).toBeGreaterThan(big.steps);
    expect(small.tiles).toBeGreaterThan(big.tiles);
    expect(small.maxL1Buffer).toBeLessThan(big.maxL1Buffer);
    expect(small.maxL1Buffer).toBeLessThanOrEqual(8000);
    expect(await text(page, 'memory-check')).toMatch(/^ok/);

    // Hover: the tooltip names the tensor, its size, lifetime and tile.
    const first = page.locator('[data-testid="mem-lane"][data-level="L1"] [data-testid="mem-buffer"]').first();
    const node = await first.getAttribute('data-node');
    await first.hover({ force: true });
    const tip = await text(page, 'mem-tooltip');
    expect(tip).toContain('in L1 at 0x');
    expect(tip).toMatch(/lives steps \d+\.\.\d+/);
    expect(tip).toContain('tile ');

    // Click: the layer is selected in the graph pane (its properties show), and its row marked.
    await first.click({ force: true });
    await page.waitForFunction((n) => document.querySelector('[data-testid="graph-props"]')?.getAttribute('data-node') === n, node);
    expect(await page.locator(`[data-testid="tiling-row"][data-node="${node}"]`).getAttribute('class')).toContain('sel');

    // The brush narrows the timeline to part of the run: fewer buffers drawn.
    const before = await page.locator('[data-testid="mem-lane"][data-level="L1"] [data-testid="mem-buffer"]').count();
    // The pane scrolls inside its tab: bring the overview into view first.
    await page.getByTestId('mem-overview').scrollIntoViewIfNeeded();
    const box = (await page.getByTestId('mem-overview').boundingBox())!;
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    const after = await page.locator('[data-testid="mem-lane"][data-level="L1"] [data-testid="mem-buffer"]').count();
    expect(after).toBeLessThan(before);

    // The wheel over a lane zooms the timeline and leaves the pane's scroll where it is (the
    // memory tab scrolls; the page itself never does). A short window makes the tab scroll.
    await page.setViewportSize({ width: 1600, height: 700 });
    const lane = page.locator('[data-testid="mem-lane"][data-level="L1"] svg');
    await lane.scrollIntoViewIfNeeded();
    const scroll = () => page.getByTestId('tab-memory').evaluate((t) => ({ y: t.scrollTop, max: t.scrollHeight - t.clientHeight }));
    const at = await scroll();
    expect(at.max, 'the memory tab must be able to scroll for this check').toBeGreaterThan(0);
    const laneBox = (await lane.boundingBox())!;
    await page.mouse.move(laneBox.x + laneBox.width / 2, laneBox.y + laneBox.height / 2);
    // The brush over the overview shows the range in view.
    const shown = () => page.getByTestId('mem-brush').getAttribute('width');
    for (const deltaY of [at.y > 0 ? -300 : 300, at.y > 0 ? 300 : -300]) {
      const was = await shown();
      await page.mouse.wheel(0, deltaY);
      await expect.poll(shown).not.toBe(was);
      expect((await scroll()).y).toBe(at.y);
    }

    await page.setViewportSize({ width: 1600, height: 1000 });
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.getByTestId('pane-memory').screenshot({ path: path.join(SCREENSHOTS, 'memory.png') });
    expect(app.pageErrors).toEqual([]);
  });

  it('explains a budget that does not fit, and the app keeps working', async () => {
    const { page } = app;
    // CNN_Linear1's 3x3 convolution over 128 channels needs about 2 kB of L1 even for one output pixel.
    await openModelFile(page, ['network.onnx', 'inputs.npz', 'outputs.npz'].map((f) => path.join(SHARED_TESTS, 'Models/CNN_Linear1', f)));
    await page.getByTestId('cfg-l1').fill('1024');
    await page.getByTestId('compile-button').click();
    await waitIdle(page);
    expect(await attr(page, 'stage-tile', 'data-status')).toBe('error');
    expect(await text(page, 'error-what')).toMatch(/do(es)? not fit L1 = 1024 B/);
    expect(await text(page, 'memory-note')).toMatch(/an L1 of at least \d+ B/);
    // The suggested L1 works.
    const need = /an L1 of at least (\d+) B/.exec(await text(page, 'memory-note'))![1];
    await page.getByTestId('cfg-l1').fill(need);
    await page.getByTestId('compile-button').click();
    await waitIdle(page);
    expect(await attr(page, 'stage-tile', 'data-status')).toBe('done');
    expect(await text(page, 'memory-check')).toMatch(/^ok/);
  });
});
