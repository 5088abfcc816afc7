// The Run pane's profiler (issue #14), driven the way a student uses it: microllama-prefill
// compiled tiled for Siracusa and run in the browser; the per-layer chart and the timeline
// appear; a click on a MatMul span of the controller's lane selects that layer in the graph and
// code panes; the trace export parses as trace-event JSON with spans for every core; pinned as
// the baseline and rerun on one core, the run shows its total and per-layer speedups; a sweep
// over the cores runs its points in parallel workers and plots them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, waitIdle } from './app';
import type { AppSession } from './browser';
import { builtinModels, SCREENSHOTS, startApp } from './browser';

const MODEL = 'microllama-prefill';
const has = builtinModels().some((m) => m.id === MODEL);
// The timeline's geometry (Timeline.tsx): the lane labels' width, the time axis, lane 0's middle.
const LABEL_W = 78, AXIS_H = 18, LANE_MID = 6;

async function compileAndWait(app: AppSession): Promise<void> {
  const { page } = app;
  await page.getByTestId('compile-button').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="pane-run"]')?.getAttribute('data-status') === 'running'
    || document.querySelector('[data-testid="run-status"]')?.getAttribute('data-status') === 'running', undefined, { timeout: 30_000 });
  await waitIdle(page);
  await page.waitForFunction(() => document.querySelector('[data-testid="pane-run"]')?.getAttribute('data-status') === 'done', undefined, { timeout: 240_000 });
}

describe.skipIf(!has)('the Run pane profiler', () => {
  let app: AppSession;
  let matmul = '';
  beforeAll(async () => {
    app = await startApp();
    await app.open(`?model=${MODEL}`);
    const { page } = app;
    await page.getByTestId('cfg-platform').selectOption('siracusa');
    if (!(await page.getByTestId('cfg-tiled').isChecked())) await page.getByTestId('cfg-tiled').check();
    await page.getByTestId('layout-run').click();
    await compileAndWait(app);
  }, 300_000);
  afterAll(async () => { await app?.close(); });

  it('shows the per-layer chart and the timeline of the run', async () => {
    const { page } = app;
    expect(await page.getByTestId('run-errors').getAttribute('data-errors')).toBe('0');
    await page.getByTestId('profile-chart').waitFor();
    expect(Number(await page.getByTestId('profile-chart').getAttribute('data-layers'))).toBeGreaterThan(200);
    expect(await page.getByTestId('profile-bar').count()).toBeGreaterThan(10); // the rows in view
    expect(Number(await page.getByTestId('profile-table').getAttribute('data-rows'))).toBeGreaterThan(200);
    // Rows have the fixed height the windowing assumes.
    const heights = await page.locator('[data-testid="profile-row"]').evaluateAll((rows) => rows.slice(0, 5).map((r) => r.getBoundingClientRect().height));
    for (const h of heights) expect(h).toBeCloseTo(18, 0);
    const bars = await page.locator('[data-testid="profile-bar"]').evaluateAll((rows) => rows.slice(0, 5).map((r) => r.getBoundingClientRect().height));
    for (const h of bars) expect(h).toBeCloseTo(16, 0);
    const spans = Number(await page.getByTestId('profile-timeline').getAttribute('data-spans'));
    expect(spans).toBeGreaterThan(1000);
    await page.getByTestId('pane-run').screenshot({ path: path.join(SCREENSHOTS, 'profile-run.png') });
  });

  it('selects the layer of a clicked MatMul span in the graph and code panes', async () => {
    const { page } = app;
    const tl = page.getByTestId('profile-timeline');
    await tl.scrollIntoViewIfNeeded();
    const box = (await tl.boundingBox())!;
    const y = box.y + AXIS_H + LANE_MID;
    // Hover along the controller's lane until the tooltip names a MatMul layer.
    let at = -1;
    for (let x = box.x + LABEL_W + 2; x < box.x + box.width - 2 && at < 0; x += 3) {
      await page.mouse.move(x, y);
      const tip = await page.evaluate(() => document.querySelector('[data-testid="profile-tooltip"]')?.textContent ?? '');
      const m = /layer: (\S*matmul\S*) \(RequantizedGemm\)/.exec(tip);
      if (m) { matmul = m[1]!; at = x; }
    }
    expect(matmul, 'a MatMul span on the controller lane').not.toBe('');
    await page.mouse.click(at, y);
    await page.waitForFunction((n) => document.querySelector('[data-testid="graph-props"]')?.getAttribute('data-node') === n, matmul, { timeout: 10_000 });
    await expect.poll(() => text(page, 'code-layer')).toContain(matmul);
    // Selected here, it is highlighted in the table too.
    expect(await page.locator(`[data-testid="profile-row"][data-node="${matmul}"]`).getAttribute('class')).toMatch(/sel/);
  });

  it('exports the timeline as trace-event JSON with spans for every core', async () => {
    const { page } = app;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-trace').click()]);
    const file = path.join(SCREENSHOTS, download.suggestedFilename());
    await download.saveAs(file);
    const trace = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: { ph: string; tid: number; name: string; args?: { name?: string } }[] };
    const names = new Map(trace.traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [e.tid, e.args!.name!]));
    const withSpans = new Set(trace.traceEvents.filter((e) => e.ph === 'X').map((e) => names.get(e.tid)));
    for (const lane of ['controller', ...Array.from({ length: 8 }, (_, c) => `core ${c}`), 'cluster DMA']) expect(withSpans, lane).toContain(lane);
  });

  it('exports the per-layer table as CSV, with the tiler\'s estimate beside the measured cycles', async () => {
    const { page } = app;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    const file = path.join(SCREENSHOTS, download.suggestedFilename());
    await download.saveAs(file);
    const [head, ...rows] = readFileSync(file, 'utf8').trim().split(/\r?\n/);
    const cols = head!.split(',');
    expect(cols).toEqual(expect.arrayContaining(['layer', 'cycles', 'estimate', 'measured/estimate']));
    expect(rows.length).toBeGreaterThan(200);
    const at = (name: string) => cols.indexOf(name);
    const mm = rows.map((r) => r.split(',')).find((r) => r[at('layer')] === matmul)!;
    expect(Number(mm[at('cycles')])).toBeGreaterThan(0);
    expect(Number(mm[at('estimate')])).toBeGreaterThan(0);
    // Energy per layer (uJ in the CSV, formatted in the table), within the run's total.
    expect(Number(mm[at('energy uJ')])).toBeGreaterThan(0);
    const cell = page.locator(`[data-testid="profile-row"][data-node="${matmul}"] td`).nth(await page.locator('[data-testid="profile-table"] th').evaluateAll((ths) => ths.findIndex((th) => th.getAttribute('data-col') === 'energy')));
    expect(await cell.textContent()).toMatch(/^[\d.]+ [num]J$/);
    const [, v, unit] = /^([\d.]+) ([num])J/.exec(await text(page, 'run-energy'))!;
    const total = Number(v) * { n: 1e-3, u: 1, m: 1e3 }[unit as 'n' | 'u' | 'm'];
    const layers = rows.reduce((sum, r) => sum + Number(r.split(',')[at('energy uJ')]), 0);
    expect(layers).toBeGreaterThan(0.5 * total);
    expect(layers).toBeLessThanOrEqual(total * 1.01);
  });

  it('pins the run and shows the speedups of a rerun on one core', async () => {
    const { page } = app;
    await page.getByTestId('pin-baseline').click();
    await page.getByTestId('cfg-cores').fill('1');
    await compileAndWait(app);
    const total = await text(page, 'profile-speedup');
    expect(total).toMatch(/slower than the baseline.*changed: cores 8 → 1/);
    expect(Number(await page.getByTestId('profile-speedup').getAttribute('data-speedup'))).toBeLessThan(0.5); // 1 core: several times slower than 8
    const cells = await page.getByTestId('speedup-cell').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-speedup'))).filter((v) => v > 0));
    expect(cells.length).toBeGreaterThan(10);
    expect(Math.min(...cells)).toBeLessThan(0.5);
    const row = page.locator(`[data-testid="profile-row"][data-node="${matmul}"] [data-testid="speedup-cell"]`);
    expect(Number(await row.getAttribute('data-speedup'))).toBeLessThan(0.5);
    await page.getByTestId('pane-run').screenshot({ path: path.join(SCREENSHOTS, 'profile-compare.png') });
  }, 300_000);

  it('sweeps the cores of the adder in parallel workers and plots Runtime against them', async () => {
    const { page } = app;
    await page.getByTestId('model-picker').selectOption('adder');
    await waitIdle(page);
    await page.getByTestId('run-sweep').locator('summary').click();
    await page.getByTestId('sweep-param').selectOption('cores');
    await page.getByTestId('sweep-values').fill('1, two');
    expect(await text(page, 'sweep-error')).toContain("'two' is not a whole number");
    expect(await page.getByTestId('sweep-run').isDisabled()).toBe(true);
    await page.getByTestId('sweep-values').fill('1, 8, 9');
    await page.getByTestId('sweep-run').click();
    await page.waitForFunction(() => {
      const pts = [...document.querySelectorAll('[data-testid="sweep-point"]')];
      return pts.length === 3 && pts.every((p) => ['done', 'failed'].includes(p.getAttribute('data-status') ?? ''));
    }, undefined, { timeout: 180_000 });
    const points = await page.getByTestId('sweep-point').evaluateAll((rows) => rows.map((r) => ({
      value: r.getAttribute('data-value'), status: r.getAttribute('data-status'), cycles: Number(r.getAttribute('data-cycles')), text: r.textContent ?? '' })));
    expect(points.map((p) => [p.value, p.status])).toEqual([['1', 'done'], ['8', 'done'], ['9', 'failed']]);
    expect(points[1]!.cycles).toBeLessThan(points[0]!.cycles); // 8 cores beat 1
    expect(points[2]!.text).toMatch(/cores/); // the bad point says why
    expect(await page.getByTestId('sweep-plot').getAttribute('data-points')).toBe('2');
    await page.getByTestId('run-sweep').screenshot({ path: path.join(SCREENSHOTS, 'profile-sweep.png') });
  }, 240_000);
});
