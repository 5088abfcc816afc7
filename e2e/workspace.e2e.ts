// The workspace: at 1280x720 and 1920x1080 every pane is on screen and the page does not scroll;
// a splitter resizes panes, a tab set maximises and restores, a preset rearranges them, and a
// reload brings back the arrangement the user left.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitIdle } from './app';
import type { AppSession } from './browser';
import { SCREENSHOTS, startApp } from './browser';

const PANES = ['graph', 'memory', 'code', 'run'];
type Box = { x: number; y: number; width: number; height: number };

async function boxes(page: Page): Promise<Record<string, Box | null>> {
  const out: Record<string, Box | null> = {};
  for (const p of PANES) out[p] = await page.getByTestId(`tab-${p}`).boundingBox().catch(() => null);
  return out;
}

/** The page itself does not scroll. */
async function pageScrolls(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const e = document.scrollingElement!;
    return e.scrollHeight > innerHeight + 1 || e.scrollWidth > innerWidth + 1;
  });
}

describe('workspace', () => {
  let app: AppSession;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    app = await startApp();
  });
  afterAll(async () => { await app?.close(); });

  for (const [width, height] of [[1280, 720], [1920, 1080]] as const) {
    it(`shows every pane without scrolling the page at ${width}x${height}, after a compile`, async () => {
      const { page } = app;
      await page.setViewportSize({ width, height });
      await page.evaluate(() => localStorage.clear()).catch(() => undefined);
      await app.open('?model=adder');
      await page.getByTestId('compile-button').click();
      await waitIdle(page);
      // The compile's results are in the panes: the run pane's figures, the code pane's editor.
      await page.getByTestId('run-runtime').waitFor({ timeout: 120_000 });
      expect(await pageScrolls(page)).toBe(false);
      const b = await boxes(page);
      for (const p of PANES) {
        const r = b[p];
        expect(r, p).not.toBeNull();
        expect(r!.x, p).toBeGreaterThanOrEqual(0);
        expect(r!.y, p).toBeGreaterThanOrEqual(0);
        expect(r!.x + r!.width, p).toBeLessThanOrEqual(width + 1);
        expect(r!.y + r!.height, p).toBeLessThanOrEqual(height + 1);
        expect(r!.width * r!.height, p).toBeGreaterThan(200 * 120);
      }
      // Usable: the header and the Compile button stay on screen, and the run pane's figures show.
      expect(await page.getByTestId('compile-button').isVisible()).toBe(true);
      expect(await page.getByTestId('run-runtime').isVisible()).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOTS, `workspace-${width}x${height}.png`) });
    });
  }

  it('resizes panes with a splitter, and a reload keeps the arrangement', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1400, height: 900 });
    await app.open('?model=adder');
    const before = await boxes(page);
    // The splitter between the graph (above) and the row below it.
    const graph = before.graph!;
    const y = graph.y + graph.height + 3;
    await page.mouse.move(graph.x + graph.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(graph.x + graph.width / 2, y - 150, { steps: 8 });
    await page.mouse.up();
    const after = await boxes(page);
    expect(after.graph!.height).toBeLessThan(before.graph!.height - 100);
    expect(after.memory!.height).toBeGreaterThan(before.memory!.height + 100);
    await app.open('?model=adder');
    const reloaded = await boxes(page);
    expect(Math.abs(reloaded.graph!.height - after.graph!.height)).toBeLessThan(4);
    expect(Math.abs(reloaded.memory!.height - after.memory!.height)).toBeLessThan(4);
  });

  it('maximises a pane and restores it', async () => {
    const { page } = app;
    const layout = (await page.getByTestId('workspace-layout').boundingBox())!;
    const tabset = page.locator('.flexlayout__tabset', { has: page.locator('.flexlayout__tab_button', { hasText: 'Code' }) });
    await tabset.locator('.flexlayout__tab_toolbar_button-min').click();
    const max = (await page.getByTestId('tab-code').boundingBox())!;
    expect(max.width).toBeGreaterThan(layout.width * 0.95);
    expect(max.height).toBeGreaterThan(layout.height * 0.85);
    expect(await page.getByTestId('tab-graph').isVisible()).toBe(false);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'workspace-maximised.png') });
    // Double-clicking the tab bar toggles it back.
    await tabset.locator('.flexlayout__tabset_tabbar_outer').dblclick({ position: { x: 200, y: 10 } });
    const restored = (await page.getByTestId('tab-code').boundingBox())!;
    expect(restored.width).toBeLessThan(layout.width * 0.6);
    expect(await page.getByTestId('tab-graph').isVisible()).toBe(true);
  });

  it('arranges the panes by preset: the code large, the others as tabs', async () => {
    const { page } = app;
    await page.getByTestId('layout-code').click();
    const layout = (await page.getByTestId('workspace-layout').boundingBox())!;
    const code = (await page.getByTestId('tab-code').boundingBox())!;
    expect(code.width).toBeGreaterThan(layout.width * 0.5);
    expect(code.height).toBeGreaterThan(layout.height * 0.9);
    // Graph and memory share a tab set: one shows, the other is a tab to click.
    const shown = [await page.getByTestId('tab-memory').isVisible(), await page.getByTestId('tab-graph').isVisible().catch(() => false)];
    expect(shown.filter(Boolean)).toHaveLength(1);
    await page.locator('.flexlayout__tab_button', { hasText: 'Graph' }).click();
    expect(await page.getByTestId('tab-graph').isVisible()).toBe(true);
    await app.open('?model=adder');
    expect((await page.getByTestId('tab-code').boundingBox())!.width).toBeGreaterThan(layout.width * 0.5);
    await page.getByTestId('layout-overview').click();
    for (const p of PANES) expect(await page.getByTestId(`tab-${p}`).isVisible(), p).toBe(true);
  });
});
