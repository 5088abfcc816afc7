// Big graphs in the graph pane: microLlama (505 nodes) and a generated 1200-node network are
// laid out in the graph worker while the page keeps drawing frames, and every node is drawn.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeOnnx } from '../src/compiler/onnx/write';
import type { AppSession } from './browser';
import { SCREENSHOTS, SHARED_TESTS, startApp } from './browser';
import { nodeCount, openModelFile } from './graph-helpers';
import { blockNetwork } from './networks';

/** Waits until a side has drawn `n` nodes (a big graph draws what is in view, at the next frame). */
async function waitDrawn(page: Page, side: string, n: number): Promise<void> {
  await page.waitForFunction(([s, count]) =>
    document.querySelectorAll(`[data-testid="graph-canvas-${s}"] g.gnode[data-node]`).length === count, [side, n] as const);
}

interface Frames {
  /** Frames drawn while the right side was laid out and drawn, and the time that took. */
  duringLayout: number;
  layoutWallMs: number;
  /** Longest time between two frames from the file's opening until the graph was drawn. */
  maxGapMs: number;
}

/**
 * Opens a model while a requestAnimationFrame loop counts frames, and waits until the graph
 * is drawn. The page is responsive if frames keep coming while the worker lays the graph out.
 */
async function openCountingFrames(page: Page, files: string[], nodes: number): Promise<Frames> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __framesOn: boolean };
    w.__frames = [];
    w.__framesOn = true;
    const tick = (t: number) => {
      w.__frames.push(t);
      if (w.__framesOn) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await openModelFile(page, files);
  await page.waitForFunction((n) => {
    const c = document.querySelector('[data-testid="graph-canvas-right"]');
    return c?.getAttribute('data-nodes') === String(n) && c.getAttribute('data-state') === 'ready';
  }, nodes, { timeout: 120_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.getByTestId('graph-canvas-right').evaluate((c) => {
    const w = window as unknown as { __frames: number[]; __framesOn: boolean };
    w.__framesOn = false;
    // The canvas says when it drew the graph and how long it took from asking for the layout.
    const end = Number(c.getAttribute('data-drawn-at'));
    const start = end - Number(c.getAttribute('data-wall-ms'));
    const f = w.__frames;
    let maxGapMs = 0;
    for (let i = 1; i < f.length; i++) maxGapMs = Math.max(maxGapMs, f[i]! - f[i - 1]!);
    return { duringLayout: f.filter((t) => t >= start && t <= end).length, layoutWallMs: end - start, maxGapMs };
  });
}

describe('graph pane with big graphs', () => {
  let app: AppSession;
  let dir: string;
  beforeAll(async () => {
    app = await startApp();
    dir = mkdtempSync(path.join(os.tmpdir(), 'dpg-graph-'));
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lays out microLlama (505 nodes) in the worker while the page keeps drawing', async () => {
    await app.open();
    const { page } = app;
    const frames = await openCountingFrames(page, [path.join(SHARED_TESTS, 'Models/microLlama/INT8/microLlama1/network.onnx')], 505);
    const layoutMs = Number(await page.getByTestId('graph-canvas-right').getAttribute('data-layout-ms'));
    console.log(`microLlama: layout ${layoutMs} ms in the worker, ${Math.round(frames.layoutWallMs)} ms until drawn, `
      + `${frames.duringLayout} frames meanwhile, longest frame gap ${Math.round(frames.maxGapMs)} ms`);
    // The first view shows the graph's start with its left edge in view, nothing cut off there.
    for (const side of ['left', 'right'] as const) {
      const left = await page.locator(`[data-testid="graph-canvas-${side}"] g.viewport`).evaluate((g) =>
        (g as SVGGElement).transform.baseVal.consolidate()?.matrix.e ?? 0);
      expect(left, side).toBeGreaterThanOrEqual(0);
    }
    await page.getByTestId('pane-graph').screenshot({ path: path.join(SCREENSHOTS, 'graph-microllama-start.png') });
    // Big graphs draw what is in view; fitted, all of it is.
    expect(await nodeCount(page, 'right')).toBeLessThan(505);
    await page.getByTestId('graph-fit').click();
    await waitDrawn(page, 'right', 505);
    await waitDrawn(page, 'left', 505);
    expect(frames.duringLayout).toBeGreaterThan(Math.min(10, frames.layoutWallMs / 50));
    expect(frames.maxGapMs).toBeLessThan(500);
    await page.getByTestId('pane-graph').screenshot({ path: path.join(SCREENSHOTS, 'graph-microllama-fit.png') });
    // Zoomed in on a node found by search, the labels are back.
    await page.getByTestId('graph-search').fill('iSoftmax');
    await page.getByTestId('graph-search').press('Enter');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="graph-canvas-right"] g.gnode.current-match text.op')?.textContent === 'iSoftmax');
    expect(await page.getByTestId('props-op').textContent()).toBe('iSoftmax');
    await page.getByTestId('pane-graph').screenshot({ path: path.join(SCREENSHOTS, 'graph-microllama.png') });
  });

  it('lays out and draws a 1200-node network without freezing the page', async () => {
    const { page } = app;
    const file = path.join(dir, 'blocks1200.onnx');
    writeFileSync(file, writeOnnx(blockNetwork(1200)));
    const frames = await openCountingFrames(page, [file], 1200);
    const layoutMs = Number(await page.getByTestId('graph-canvas-right').getAttribute('data-layout-ms'));
    console.log(`1200-node network: layout ${layoutMs} ms in the worker, ${Math.round(frames.layoutWallMs)} ms until drawn, `
      + `${frames.duringLayout} frames meanwhile, longest frame gap ${Math.round(frames.maxGapMs)} ms`);
    await page.getByTestId('graph-fit').click();
    await waitDrawn(page, 'right', 1200);
    expect(frames.duringLayout).toBeGreaterThan(Math.min(10, frames.layoutWallMs / 50));
    expect(frames.maxGapMs).toBeLessThan(500);
    // Zooming and panning stay smooth: a frame comes soon after each wheel step.
    const canvas = page.getByTestId('graph-canvas-right');
    await canvas.hover({ position: { x: 40, y: 40 } });
    const gap = await page.evaluate(async () => {
      const svg = document.querySelector('[data-testid="graph-canvas-right"] svg')!;
      let worst = 0;
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        svg.dispatchEvent(new WheelEvent('wheel', { deltaY: 120, bubbles: true, cancelable: true, clientX: 100, clientY: 300 }));
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        worst = Math.max(worst, performance.now() - t0);
      }
      return worst;
    });
    console.log(`1200-node network: worst wheel step to second frame ${Math.round(gap)} ms`);
    expect(gap).toBeLessThan(250);
    await page.getByTestId('graph-fit').click();
    await waitDrawn(page, 'right', 1200);
    await page.getByTestId('pane-graph').screenshot({ path: path.join(SCREENSHOTS, 'graph-1200.png') });
    expect(app.pageErrors).toEqual([]);
  });
});
