// The graph pane as a user drives it: compile miniMobileNetv2 for Siracusa, step through the
// passes with the arrow keys, see the fused RequantizedConv linked to its Conv and
// RequantShift, the Transposes the layout pass inserts, hover, search, fit, export, and
// hiding the passes that changed nothing.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOnnx } from '../src/compiler/onnx/read';
import { attr, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { ROOT, SCREENSHOTS, SHARED_TESTS, builtinModels, startApp } from './browser';
import { nodeCount, openModelFile, passes, showPass, sideNodes, waitSide } from './graph-helpers';

const MOBILENET = path.join(SHARED_TESTS, 'Models/miniMobileNetv2');

/** Loads miniMobileNetv2 (the built-in one if there is one, else the shared test's files); returns its node count. */
async function loadMobileNet(page: Page): Promise<number> {
  const builtin = builtinModels().find((m) => /mobilenet/i.test(m.id));
  let file = path.join(MOBILENET, 'network.onnx');
  if (builtin) {
    file = path.join(ROOT, 'public/models', builtin.files.model);
    await page.getByTestId('model-picker').selectOption(builtin.id);
    await waitIdle(page);
    await page.waitForFunction((name) =>
      document.querySelector('[data-testid="model-name"]')?.textContent === name, builtin.files.model);
  } else {
    await openModelFile(page, ['network.onnx', 'inputs.npz', 'outputs.npz'].map((f) => path.join(MOBILENET, f)));
  }
  return readOnnx(new Uint8Array(readFileSync(file)), file).nodes.length;
}

describe('graph pane', () => {
  let app: AppSession;
  let all: { index: number; pass: string; changed: boolean; errors: number }[] = [];
  beforeAll(async () => {
    app = await startApp();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows the parsed graph as soon as a model is loaded', async () => {
    await app.open();
    const { page } = app;
    const nodes = await loadMobileNet(page);
    await waitSide(page, 'right', 0);
    expect(await nodeCount(page, 'right')).toBe(nodes);
    expect(await nodeCount(page, 'left')).toBe(nodes);
    expect(await page.locator('[data-testid="graph-canvas-right"] g.gnode[data-op="Conv"] text.op').first().textContent()).toBe('Conv');
    expect(await page.locator('[data-testid="graph-canvas-right"] g.gnode.input').count()).toBe(1);
  });

  it('compiles for Siracusa and lists its passes', async () => {
    const { page } = app;
    await page.getByTestId('cfg-platform').selectOption('siracusa');
    await page.getByTestId('compile-button').click();
    await waitIdle(page);
    expect(await attr(page, 'stage-lower', 'data-status')).toBe('done');
    all = await passes(page);
    expect(all[0]!.pass).toBe('input');
    expect(all.length).toBeGreaterThan(3);
    // After a compile: the input graph on the left against the final one on the right (the
    // last passes often change nothing), until the user picks a pass.
    await waitSide(page, 'right', all.length - 1);
    await waitSide(page, 'left', 0);
    expect(await page.getByTestId('graph-left-select').inputValue()).toBe('0');
    expect(await nodeCount(page, 'left')).not.toBe(await nodeCount(page, 'right'));
    // No pass of a correct compiler changes the network's outputs.
    for (const p of all) expect(p.errors).toBe(0);
  });

  it('steps with the arrow keys to the Conv + RequantShift fusion and links the fused node to its sources', async () => {
    const { page } = app;
    const fusion = all.find((p) => /requant/i.test(p.pass) && /conv/i.test(p.pass));
    expect(fusion, `a pass fusing Conv and RequantShift in ${all.map((p) => p.pass).join(', ')}`).toBeDefined();
    await page.getByTestId('graph-pass-0').click();
    await waitSide(page, 'right', 0);
    for (let i = 1; i <= fusion!.index; i++) {
      await page.keyboard.press('ArrowDown');
      await waitSide(page, 'right', i);
    }
    await waitSide(page, 'left', fusion!.index - 1);
    expect(await attr(page, 'graph-side-right', 'data-pass')).toBe(fusion!.pass);

    const fused = page.locator('[data-testid="graph-canvas-right"] g.gnode.status-fused[data-op="RequantizedConv"]');
    expect(await fused.count()).toBeGreaterThan(0);
    await fused.first().click();
    const name = await fused.first().getAttribute('data-node');
    expect(await fused.first().getAttribute('class')).toContain('selected');
    expect(await text(page, 'props-op')).toBe('RequantizedConv');
    expect(await text(page, 'props-name')).toBe(name);
    // Tensors show the element type they really have (the ONNX file declares float32 for int8 data).
    const types = await page.getByTestId('props-tensor-type').allTextContents();
    expect(types.length).toBeGreaterThan(2);
    expect(types.filter((t) => t.startsWith('float'))).toEqual([]);
    expect(types.some((t) => t.startsWith('int8['))).toBe(true);
    await expect.poll(async () => (await sideNodes(page, 'left', '.linked')).length).toBe(2);
    const linked = await sideNodes(page, 'left', '.linked');
    expect(linked.map((n) => n.op).sort()).toEqual(['Conv', 'RequantShift']);
    for (const n of linked) expect(n.cls).toContain('status-fused');
    await page.getByTestId('pane-graph').screenshot({ path: path.join(SCREENSHOTS, 'graph-fusion.png') });

    // ArrowUp goes back; the selection stays on its node and is linked into the shown passes.
    await page.keyboard.press('ArrowUp');
    await waitSide(page, 'right', fusion!.index - 1);
    await expect.poll(async () => (await sideNodes(page, 'right', '.linked')).map((n) => n.op).sort()).toEqual(['Conv', 'RequantShift']);
    await page.keyboard.press('ArrowDown');
    await waitSide(page, 'right', fusion!.index);
  });

  it('marks the Transposes the layout pass inserts as added', async () => {
    const { page } = app;
    const layout = all.find((p) => /nhwc/i.test(p.pass)) ?? all.find((p) => /layout/i.test(p.pass));
    expect(layout, `a layout pass in ${all.map((p) => p.pass).join(', ')}`).toBeDefined();
    await showPass(page, layout!.index);
    const added = await sideNodes(page, 'right', '.status-added');
    expect(added.some((n) => n.op === 'Transpose')).toBe(true);
    // Following the origin chain back over several passes: an inserted Transpose links to a Conv of the input.
    await page.getByTestId('graph-left-select').selectOption('0');
    await waitSide(page, 'left', 0);
    const transpose = page.locator(`[data-testid="graph-canvas-right"] g.gnode[data-node="${added.find((n) => n.op === 'Transpose')!.node}"]`);
    await transpose.click();
    await expect.poll(async () => (await sideNodes(page, 'left', '.linked')).length).toBeGreaterThan(0);
    const sources = await sideNodes(page, 'left', '.linked');
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.every((n) => ['Conv', 'RequantShift', 'Gemm', 'Add'].includes(n.op))).toBe(true);
    await page.getByTestId('pane-graph').screenshot({ path: path.join(SCREENSHOTS, 'graph-layout-pass.png') });
    await page.getByTestId('graph-left-select').selectOption('auto');
    await waitSide(page, 'left', layout!.index - 1);
  });

  it('links a hovered node and shows a tensor\'s shape on an edge', async () => {
    const { page } = app;
    const fusion = all.find((p) => /requant/i.test(p.pass) && /conv/i.test(p.pass))!;
    await showPass(page, fusion.index);
    const conv = page.locator('[data-testid="graph-canvas-left"] g.gnode[data-op="Conv"]').first();
    await conv.hover();
    await expect.poll(async () => (await sideNodes(page, 'right', '.hover-linked')).map((n) => n.op)).toEqual(['RequantizedConv']);
    await page.mouse.move(5, 5);
    await expect.poll(() => sideNodes(page, 'right', '.hover-linked')).toEqual([]);

    const edge = page.locator('[data-testid="graph-canvas-right"] g.gedge .hit').nth(1);
    await edge.hover({ force: true });
    const tip = page.getByTestId('graph-edge-tip-right');
    await tip.waitFor({ state: 'visible' });
    // With the element type the values really have, not the float32 the ONNX file declares.
    expect(await tip.textContent()).toMatch(/^\S+: u?int\d+\[[\d,]+\]/);
  });

  it('finds nodes by name or op, highlights them and jumps to them', async () => {
    const { page } = app;
    const viewport = page.locator('[data-testid="graph-canvas-right"] g.viewport');
    const search = page.getByTestId('graph-search');
    await search.fill('requantizedconv');
    await expect.poll(async () => (await sideNodes(page, 'right', '.match')).length).toBeGreaterThan(1);
    const matches = await sideNodes(page, 'right', '.match');
    expect(matches.length).toBeGreaterThan(1);
    expect(matches.every((n) => n.op === 'RequantizedConv')).toBe(true);
    expect(await text(page, 'graph-search-count')).toBe(`1 of ${matches.length}`);
    await search.press('Enter');
    expect(await text(page, 'props-name')).toBe(matches[0]!.node);
    const before = await viewport.getAttribute('transform');
    await search.press('Enter');
    expect(await text(page, 'graph-search-count')).toBe(`2 of ${matches.length}`);
    expect(await text(page, 'props-name')).toBe(matches[1]!.node);
    expect(await viewport.getAttribute('transform')).not.toBe(before); // jumped to the second match
    // By node name: one match.
    await search.fill(matches[2]!.node);
    await expect.poll(async () => (await sideNodes(page, 'right', '.match')).map((n) => n.node)).toContain(matches[2]!.node);
    await search.fill('no such node');
    expect(await text(page, 'graph-search-count')).toBe('no match');
    await expect.poll(() => sideNodes(page, 'right', '.match')).toEqual([]);
    await search.fill('');
  });

  it('fits the graph with the Fit button and on double-click', async () => {
    const { page } = app;
    const canvas = page.getByTestId('graph-canvas-right');
    const inside = () => canvas.evaluate((el) => {
      const svg = el.querySelector('svg')!.getBoundingClientRect();
      const g = el.querySelector('g.viewport')!.getBoundingClientRect();
      return g.top >= svg.top - 1 && g.bottom <= svg.bottom + 1 && g.left >= svg.left - 1 && g.right <= svg.right + 1;
    });
    // Zoom in with ctrl+wheel: the graph no longer fits.
    await canvas.hover({ position: { x: 10, y: 10 } });
    await page.keyboard.down('Control');
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await page.waitForFunction(() => {
      const t = document.querySelector('[data-testid="graph-canvas-right"] g.viewport')?.getAttribute('transform') ?? '';
      return Number(/scale\(([\d.]+)\)/.exec(t)?.[1] ?? 0) > 1.5;
    });
    expect(await inside()).toBe(false);
    await page.getByTestId('graph-fit').click();
    expect(await inside()).toBe(true);
    // Scroll the graph away with the wheel (the page does not scroll), then double-click to fit again.
    await canvas.hover({ position: { x: 10, y: 10 } });
    const scrollY = await page.evaluate(() => window.scrollY);
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, 400);
    await page.waitForFunction(() => {
      const c = document.querySelector('[data-testid="graph-canvas-right"]')!;
      return c.querySelector('g.viewport')!.getBoundingClientRect().top < c.getBoundingClientRect().top - 50;
    });
    expect(await inside()).toBe(false);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrollY);
    await canvas.dblclick({ position: { x: 10, y: 10 } });
    expect(await inside()).toBe(true);
  });

  it('exports the snapshot on either side as an .onnx file', async () => {
    const { page } = app;
    const right = Number(await attr(page, 'graph-side-right', 'data-snapshot'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('graph-export-right').click()]);
    const pass = all[right]!.pass;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^[\\w.-]+_${pass.replace(/[^\w.-]+/g, '-')}\\.onnx$`));
    const file = path.join(SCREENSHOTS, download.suggestedFilename());
    await download.saveAs(file);
    const bytes = new Uint8Array(readFileSync(file));
    expect(bytes.length).toBeGreaterThan(1000);
    const g = readOnnx(bytes, file);
    expect(g.nodes.length).toBe(await nodeCount(page, 'right'));
    expect(g.nodes.some((n) => n.op === 'RequantizedConv')).toBe(true);

    const [left] = await Promise.all([page.waitForEvent('download'), page.getByTestId('graph-export-left').click()]);
    expect(left.suggestedFilename()).toMatch(/\.onnx$/);
    expect(left.suggestedFilename()).not.toBe(download.suggestedFilename());
  });

  it('hides the passes that changed nothing, and steps over them', async () => {
    const { page } = app;
    const unchanged = all.filter((p) => !p.changed);
    expect(unchanged.length, 'some Siracusa pass has nothing to do on miniMobileNetv2').toBeGreaterThan(0);
    for (const p of unchanged) expect(await page.getByTestId(`graph-pass-${p.index}`).getAttribute('class')).toContain('unchanged');
    await page.getByTestId('graph-hide-unchanged').check();
    const shown = await passes(page);
    expect(shown.map((p) => p.index)).toEqual(all.filter((p) => p.changed || p.index === 0).map((p) => p.index));
    expect(await text(page, 'graph-hidden-count')).toContain(`${unchanged.length} unchanged`);
    // Stepping from the input visits only the passes that changed something.
    await page.getByTestId('graph-pass-0').click();
    await waitSide(page, 'right', 0);
    const visited: number[] = [];
    for (let i = 1; i < Math.min(shown.length, 6); i++) {
      await page.keyboard.press('ArrowDown');
      await waitSide(page, 'right', shown[i]!.index);
      visited.push(shown[i]!.index);
      // The left side follows: the shown pass before the right one.
      await waitSide(page, 'left', shown[i - 1]!.index);
    }
    expect(visited.every((i) => all[i]!.changed)).toBe(true);
    await page.getByTestId('graph-hide-unchanged').uncheck();
    expect((await passes(page)).length).toBe(all.length);
  });

  it('shows the engine and kernel of a node of the final graph', async () => {
    const { page } = app;
    await showPass(page, all.length - 1);
    const conv = page.locator('[data-testid="graph-canvas-right"] g.gnode[data-op="RequantizedConv"]').first();
    await conv.click();
    expect(await text(page, 'props-engine')).toMatch(/^(cluster|neureka)$/);
    expect((await text(page, 'props-kernel')).length).toBeGreaterThan(3);
    expect(await text(page, 'props-inputs')).toMatch(/int8\[/);
    await page.getByTestId('pane-graph').screenshot({ path: path.join(SCREENSHOTS, 'graph-final.png') });
    expect(app.pageErrors).toEqual([]);
  });
});
