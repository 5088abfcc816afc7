// The tutorial mode, done as a student does it: open the panel, and for every step of Parts I
// and II press Set up, compile, click in the panes, read the figures the panes show (shapes,
// counts, highlighted lines, Runtimes, the console's tile timers), type the answers and Check.
// Every step ends passed; a wrong answer fails first; the progress survives a reload.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attr, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { SCREENSHOTS, builtinModels, startApp } from './browser';
import { showPass, waitSide } from './graph-helpers';

const NEEDED = ['adder', 'mini-mobilenetv2', 'transformer-block', 'microllama-prefill', 'microllama-decode'];
const has = NEEDED.every((id) => builtinModels().some((m) => m.id === id));

const stepLoc = (page: Page, id: string) => page.locator(`[data-testid="tutorial-step"][data-step="${id}"]`);

async function openStep(page: Page, id: string): Promise<void> {
  await stepLoc(page, id).locator('button.tut-step-title').click();
  await stepLoc(page, id).getByTestId('tutorial-check').waitFor();
}

/** Presses a Set up button and waits until its model is loaded and nothing runs. */
async function setUp(page: Page, step: string, setup: string, model: string): Promise<void> {
  await stepLoc(page, step).locator(`[data-testid="tutorial-setup"][data-setup="${setup}"]`).click();
  await page.waitForFunction((m) => (document.querySelector('[data-testid="model-picker"]') as HTMLSelectElement | null)?.value === m, model, { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid="tutorial-setup"][disabled]'), undefined, { timeout: 60_000 });
  await waitIdle(page);
  expect(await stepLoc(page, step).getByTestId('tutorial-setup-error').count()).toBe(0);
}

/** Compile & run, until the run stage has finished (or was skipped, for Generic). */
async function compile(page: Page, until: 'run' | 'codegen' = 'run'): Promise<void> {
  await page.getByTestId('compile-button').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]')?.getAttribute('data-status') === 'running', undefined, { timeout: 30_000 });
  await page.waitForFunction(() => !['running', 'loading'].includes(document.querySelector('[data-testid="run-status"]')?.getAttribute('data-status') ?? ''),
    undefined, { timeout: 240_000 });
  if (until === 'run') expect(await attr(page, 'run-errors', 'data-errors'), 'a run with Errors 0').toBe('0');
}

/** The Runtime the Run pane shows, in cycles. */
async function runtime(page: Page): Promise<number> {
  const t = await text(page, 'run-runtime');
  const m = /([\d,]+) cycles/.exec(t);
  expect(m, t).not.toBeNull();
  return Number(m![1]!.replace(/,/g, ''));
}

async function answer(page: Page, step: string, question: string, value: string): Promise<void> {
  await stepLoc(page, step).locator(`[data-testid="tutorial-answer"][data-question="${question}"]`).fill(value);
}

/** Presses Check; returns the step's status and the result's items. */
async function check(page: Page, step: string): Promise<{ status: string; items: string }> {
  await stepLoc(page, step).getByTestId('tutorial-check').click();
  await stepLoc(page, step).getByTestId('tutorial-result').waitFor();
  return {
    status: (await stepLoc(page, step).getAttribute('data-status')) ?? '',
    items: (await stepLoc(page, step).getByTestId('tutorial-result').textContent()) ?? '',
  };
}

async function expectPassed(page: Page, step: string): Promise<string> {
  const r = await check(page, step);
  expect(r.status, `${step}: ${r.items}`).toBe('passed');
  const evidence = (await stepLoc(page, step).getByTestId('tutorial-evidence').textContent()) ?? '';
  expect(evidence.length).toBeGreaterThan(40);
  return evidence;
}

/** Selects a node by its name with the graph's search: Enter steps through the matches (other names may contain it). */
async function selectInGraph(page: Page, node: string): Promise<void> {
  await page.getByTestId('graph-search').fill(node);
  const selected = () => page.evaluate(() => document.querySelector('[data-testid="graph-props"]')?.getAttribute('data-node'));
  for (let k = 0; k < 10 && (await selected()) !== node; k++) {
    await page.getByTestId('graph-search').press('Enter');
    await page.waitForTimeout(50);
  }
  expect(await selected()).toBe(node);
  await page.getByTestId('graph-search').fill('');
}

const rightNodes = (page: Page, op: string) => page.locator(`[data-testid="graph-canvas-right"] g.gnode[data-op="${op}"]`);
const typeOf = (t: string) => { const m = /^(\w+)\[([\d,]*)\]$/.exec(t.trim()); expect(m, t).not.toBeNull(); return { dtype: m![1]!, shape: m![2]!.split(',').map(Number) }; };
const numel = (shape: number[]) => shape.reduce((a, b) => a * b, 1);

describe.skipIf(!has)('tutorial mode', () => {
  let app: AppSession;
  let page: Page;
  const runtimes: Record<string, number> = {};
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    app = await startApp();
    page = app.page;
    await page.setViewportSize({ width: 1800, height: 1000 });
    await app.open('?model=adder');
    await page.evaluate(() => localStorage.clear());
    await app.open('?model=adder');
  }, 120_000);
  afterAll(async () => { await app?.close(); });

  it('opens the panel with every step not yet done', async () => {
    await page.getByTestId('tutorial-open').click();
    await page.getByTestId('tutorial-panel').waitFor();
    const steps = await page.getByTestId('tutorial-step').evaluateAll((els) => els.map((e) => [e.getAttribute('data-step'), e.getAttribute('data-status')]));
    expect(steps.map(([id]) => id)).toEqual(['graph-add', 'graph-cnn', 'graph-transformer', 'generic-code', 'siracusa-passes', 'cores', 'tiling', 'profile-tiling', 'neureka', 'wmem',
      // Part III, a new operator: e2e/operator.e2e.ts.
      'op-define', 'op-parser', 'op-scalar', 'op-cores', 'op-tiled', 'op-rule', 'op-simd', 'op-table']);
    expect(steps.every(([, s]) => s === 'not-yet')).toBe(true);
  });

  it('Part I, 1: the Add, its output\'s size and element type', async () => {
    const s = 'graph-add';
    await openStep(page, s);
    await setUp(page, s, 'adder', 'adder');
    await compile(page, 'codegen');
    await rightNodes(page, 'Add').first().click();
    await page.waitForFunction(() => document.querySelector('[data-testid="graph-props"]')?.getAttribute('data-node'));
    const out = typeOf(await page.getByTestId('props-outputs').getByTestId('props-tensor-type').first().textContent() ?? '');
    expect(out.dtype).toBe('int16'); // the sum of two int8 values, not the declared float32
    await answer(page, s, 'elements', String(numel(out.shape)));
    await answer(page, s, 'bits', '8'); // a first, wrong guess
    const wrong = await check(page, s);
    expect(wrong.status).toBe('failed');
    expect(await stepLoc(page, s).locator('[data-item="bits"]').getAttribute('data-state')).toBe('wrong');
    await answer(page, s, 'bits', '16');
    // With the graph pane behind another tab the step is not done yet.
    await page.getByTestId('layout-code').click();
    expect((await check(page, s)).status).toBe('not-yet');
    expect(await stepLoc(page, s).locator('[data-item="pane"]').getAttribute('data-state')).toBe('missing');
    await page.getByTestId('layout-graph').click();
    expect(await expectPassed(page, s)).toMatch(/int16/);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'tutorial-app.png') });
  });

  it('Part I, 2 and 3: the CNN\'s convolutions and the transformer\'s attention scores', async () => {
    let s = 'graph-cnn';
    await openStep(page, s);
    await setUp(page, s, 'cnn', 'mini-mobilenetv2');
    await waitSide(page, 'right', 0);
    const convs = await rightNodes(page, 'Conv').count();
    const requants = await rightNodes(page, 'RequantShift').count();
    await selectInGraph(page, (await rightNodes(page, 'Conv').first().getAttribute('data-node'))!);
    await answer(page, s, 'convs', String(convs));
    await answer(page, s, 'requants', String(requants));
    await expectPassed(page, s);

    s = 'graph-transformer';
    await openStep(page, s);
    await setUp(page, s, 'transformer', 'transformer-block');
    await waitSide(page, 'right', 0);
    const matmuls = await rightNodes(page, 'MatMul').count();
    await selectInGraph(page, (await rightNodes(page, 'iSoftmax').first().getAttribute('data-node'))!);
    const scores = typeOf(await page.getByTestId('props-inputs').getByTestId('props-tensor-type').first().textContent() ?? '');
    await answer(page, s, 'matmuls', String(matmuls));
    await answer(page, s, 'scores', String(numel(scores.shape)));
    await expectPassed(page, s);
  });

  it('Part I, 4: Generic\'s Network.c matched to a node of the graph', async () => {
    const s = 'generic-code';
    await openStep(page, s);
    await setUp(page, s, 'generic', 'mini-mobilenetv2');
    await compile(page, 'codegen');
    await page.getByTestId('code-tab-Network.c').click();
    await selectInGraph(page, (await rightNodes(page, 'Conv').nth(1).getAttribute('data-node'))!);
    await expect.poll(() => attr(page, 'code-editor', 'data-highlight'), { timeout: 10_000 }).toMatch(/\d/);
    const first = Number(/^(\d+)/.exec((await attr(page, 'code-editor', 'data-highlight'))!)![1]);
    const call = /calls (\S+)/.exec(await text(page, 'code-layer'))?.[1];
    expect(call).toBeDefined();
    await answer(page, s, 'line', String(first));
    await answer(page, s, 'call', call!);
    await expectPassed(page, s);
  });

  it('Part I, 5: Siracusa\'s passes fuse Conv + RequantShift and move to HWC', async () => {
    const s = 'siracusa-passes';
    await openStep(page, s);
    await setUp(page, s, 'siracusa', 'mini-mobilenetv2');
    await compile(page, 'codegen');
    const list = await page.locator('[data-testid="graph-pass-list"] button.pass').evaluateAll((els) => els.map((e) => e.getAttribute('data-pass')));
    const fusion = list.indexOf('fuse-conv-requant');
    await showPass(page, list.length - 1);
    const transposes = await rightNodes(page, 'Transpose').count();
    await showPass(page, fusion);
    await waitSide(page, 'left', fusion - 1);
    const made = await rightNodes(page, 'RequantizedConv').count()
      - await page.locator('[data-testid="graph-canvas-left"] g.gnode[data-op="RequantizedConv"]').count();
    await answer(page, s, 'fused', String(made));
    await answer(page, s, 'transposes', String(transposes));
    await expectPassed(page, s);
    await page.getByTestId('tutorial-panel').screenshot({ path: path.join(SCREENSHOTS, 'tutorial-part1.png') });
  });

  it('Part II, 6: microLlama untiled on 1 and 8 cores, the speedup from the pinned run', async () => {
    const s = 'cores';
    await openStep(page, s);
    await setUp(page, s, 'one-core', 'microllama-decode');
    await compile(page);
    await page.getByTestId('pin-baseline').click();
    await setUp(page, s, 'eight-cores', 'microllama-decode');
    await compile(page);
    const x = Number(await attr(page, 'profile-speedup', 'data-speedup'));
    expect(x).toBeGreaterThan(2);
    expect(x).toBeLessThan(8);
    await answer(page, s, 'speedup', x.toFixed(2));
    const evidence = await expectPassed(page, s);
    expect(evidence).toMatch(/Instructions: [\d,]+ on 1 core, [\d,]+ on 8/);
  }, 240_000);

  it('Part II, 7: tiling flags, a bad configuration against a good one (and one that cannot work)', async () => {
    const s = 'tiling';
    await openStep(page, s);
    await setUp(page, s, 'defaults', 'microllama-prefill');
    await compile(page);
    runtimes.prefillCluster = await runtime(page);
    await page.getByTestId('cfg-l2').fill('100000');
    await compile(page, 'codegen'); // the tiler refuses: L2 is too small
    expect(await attr(page, 'run-status', 'data-status')).toBe('failed');
    await page.getByTestId('cfg-l2').fill('1024000');
    await page.getByTestId('cfg-l1').fill('8000');
    await compile(page);
    const bad = await runtime(page);
    await answer(page, s, 'slowdown', (bad / runtimes.prefillCluster).toFixed(2));
    const evidence = await expectPassed(page, s);
    expect(evidence).toMatch(/Bad \(L1 8000 B\)/);
    expect(evidence).toMatch(/Infeasible \(L2 100000 B\)/);
  }, 240_000);

  it('Part II, 8: --profileTiling, a layer\'s tiles read from the console', async () => {
    const s = 'profile-tiling';
    await openStep(page, s);
    await setUp(page, s, 'profile', 'microllama-prefill');
    await compile(page);
    const stdout = await text(page, 'run-stdout');
    // A layer of the table's first rows that prints tile timers.
    const rows = await page.getByTestId('profile-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-node')!));
    const node = rows.find((n) => stdout.includes(`[${n}_L2]`));
    expect(node, 'a tiled layer among the rows on screen').toBeDefined();
    await page.locator(`[data-testid="profile-row"][data-node="${node}"]`).click();
    const lines = stdout.split('\n').filter((l) => l.startsWith(`[${node}_L2]`));
    const tiles = new Set(lines.map((l) => /\[Tile (\d+)\]/.exec(l)![1])).size;
    const input0 = /Input DMA took (\d+) cycles/.exec(lines.find((l) => l.includes('[Tile 0] Input DMA'))!)![1]!;
    await answer(page, s, 'tiles', String(tiles));
    await answer(page, s, 'input', input0);
    expect(await expectPassed(page, s)).toContain(`${node}, tile 0`);
  }, 240_000);

  it('Part II, 9 and 10: N-EUREKA in both modes, then its weight memory', async () => {
    let s = 'neureka';
    await openStep(page, s);
    // The parallel cluster-only run of step 7 is recorded already: the student runs the other three.
    for (const [setup, model, key] of [['prefill-npu', 'microllama-prefill', 'prefillNpu'], ['decode-cluster', 'microllama-decode', 'decodeCluster'], ['decode-npu', 'microllama-decode', 'decodeNpu']] as const) {
      await setUp(page, s, setup, model);
      await compile(page);
      runtimes[key] = await runtime(page);
    }
    const p = runtimes.prefillCluster! / runtimes.prefillNpu!, d = runtimes.decodeCluster! / runtimes.decodeNpu!;
    await answer(page, s, 'prefill', p.toFixed(2));
    await answer(page, s, 'decode', d.toFixed(2));
    await answer(page, s, 'more', p > d ? 'parallel' : 'autoregressive');
    await expectPassed(page, s);

    s = 'wmem';
    await openStep(page, s);
    for (const [setup, model, key] of [['prefill-wmem', 'microllama-prefill', 'prefillWmem'], ['decode-wmem', 'microllama-decode', 'decodeWmem']] as const) {
      await setUp(page, s, setup, model);
      await compile(page);
      runtimes[key] = await runtime(page);
    }
    const pw = runtimes.prefillNpu! / runtimes.prefillWmem!, dw = runtimes.decodeNpu! / runtimes.decodeWmem!;
    await answer(page, s, 'prefill', pw.toFixed(3));
    await answer(page, s, 'decode', dw.toFixed(3));
    await answer(page, s, 'more', pw > dw ? 'parallel' : 'autoregressive');
    await expectPassed(page, s);
    await page.getByTestId('tutorial-panel').screenshot({ path: path.join(SCREENSHOTS, 'tutorial-part2.png') });
    console.log('tutorial runtimes', JSON.stringify(runtimes));
  }, 300_000);

  it('keeps every pass, the answers and the open step across a reload', async () => {
    // Parts I and II; Part III (a new operator) is e2e/operator.e2e.ts's.
    expect(await text(page, 'tutorial-count')).toBe('10 of 18 passed');
    await page.reload();
    await page.getByTestId('tutorial-panel').waitFor({ timeout: 60_000 });
    const statuses = await page.getByTestId('tutorial-step').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    expect(statuses).toEqual([...Array(10).fill('passed'), ...Array(8).fill('not-yet')]);
    expect(await stepLoc(page, 'wmem').locator('[data-question="more"]').inputValue()).toMatch(/parallel|autoregressive/);
    expect(app.pageErrors).toEqual([]);
  });
});
