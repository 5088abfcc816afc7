// The app never looks better than it is: golden outputs that differ make the reference stage
// and the run red with the first mismatches; npz files that do not fit the graph are refused
// when opened; a failed load is named in the header and Compile says which model it compiles;
// a Deeploy test folder is named after the folder.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNpz, writeNpz } from '../src/compiler/npz';
import { attr, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { ROOT, SCREENSHOTS, startApp } from './browser';

const ADDER = path.join(ROOT, 'public/models/adder');
/** The element of outputs.npz that the altered copy changes. */
const ALTERED = 37;

/** A Deeploy-style folder with the adder's files; `change` rewrites the arrays of one npz. */
function adderFolder(root: string, name: string, file?: 'inputs.npz' | 'outputs.npz',
  change?: (arrays: ReturnType<typeof readNpz>) => ReturnType<typeof readNpz>): string {
  const dir = path.join(root, name);
  mkdirSync(dir);
  for (const f of ['network.onnx', 'inputs.npz', 'outputs.npz']) copyFileSync(path.join(ADDER, f), path.join(dir, f));
  if (file && change) writeFileSync(path.join(dir, file), writeNpz(change(readNpz(readFileSync(path.join(dir, file)), file))));
  return dir;
}

describe('honest state', () => {
  let app: AppSession;
  let root: string;
  let expected = 0;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'dpg-honest-'));
    mkdirSync(SCREENSHOTS, { recursive: true });
    app = await startApp();
    await app.open('?model=adder');
  });
  afterAll(async () => {
    await app?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('opens a Deeploy folder under the folder\'s name', async () => {
    const { page } = app;
    const dir = adderFolder(root, 'adder-altered', 'outputs.npz', (arrays) => arrays.map((a) => {
      const data = a.data.slice();
      expected = Number(data[ALTERED]);
      if (data instanceof BigInt64Array || data instanceof BigUint64Array) data[ALTERED] = BigInt(expected + 1);
      else data[ALTERED] = expected + 1;
      return { ...a, data };
    }));
    writeFileSync(path.join(dir, 'README.md'), 'not a model file');
    await page.getByTestId('folder-input').setInputFiles(dir);
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="model-name"]')?.textContent === 'adder-altered/network.onnx', undefined, { timeout: 60_000 });
    await waitIdle(page);
    expect(await text(page, 'compile-target')).toBe('compiles adder-altered/network.onnx');
    expect(await attr(page, 'model-outputs', 'class')).toContain('on');
  });

  it('shows the reference stage red with its count and first mismatch when outputs.npz differs', async () => {
    const { page } = app;
    await page.getByTestId('compile-button').click();
    await waitIdle(page);
    expect(await attr(page, 'stage-reference', 'data-status')).toBe('mismatch');
    expect(await text(page, 'stage-reference-detail')).toBe('1 of 2048 outputs differs');
    const rows = (stage: string) => page.getByTestId(`stage-${stage}-mismatches`).getByTestId('mismatch-row').evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(await rows('reference')).toEqual([['sum', `[0,0,2,5]`, String(expected + 1), String(expected)]]);
    // The program on the simulator computes what the reference does, so it differs from the
    // altered golden output at the same element, named the same way.
    expect(await attr(page, 'stage-run', 'data-status')).toBe('mismatch');
    expect(await rows('run')).toEqual([['sum', `[0,0,2,5]`, String(expected + 1), String(expected)]]);
    // The pipeline went on, so the lowering is still there to see; the run as a whole failed.
    for (const s of ['lower', 'tile', 'codegen']) expect(await attr(page, `stage-${s}`, 'data-status'), s).toBe('done');
    expect(await attr(page, 'run-status', 'data-status')).toBe('failed');
    expect(await text(page, 'run-status')).toBe('failed: reference: 1 of 2048 outputs differs');
    for (const s of ['reference', 'run'])
      expect(await page.getByTestId(`stage-${s}`).locator('.stage-dot').evaluate((el) => getComputedStyle(el).backgroundColor), s).toBe('rgb(197, 48, 48)');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'honest-mismatch.png') });
  });

  it('names a failed load in the header, and Compile names the model it still compiles', async () => {
    const { page } = app;
    const bad = path.join(root, 'broken.onnx');
    writeFileSync(bad, 'this is not an ONNX file');
    await page.getByTestId('file-input').setInputFiles(bad);
    await page.getByTestId('model-load-failed').waitFor({ timeout: 60_000 });
    await waitIdle(page);
    expect(await text(page, 'model-failed-name')).toBe('broken.onnx');
    expect((await text(page, 'model-failed-error')).length).toBeGreaterThan(10);
    expect(await text(page, 'model-still-loaded')).toBe('still loaded:');
    expect(await text(page, 'compile-target')).toBe('compiles adder-altered/network.onnx');
    expect(await text(page, 'error-title')).toBe('Could not load broken.onnx');
    await page.locator('header.header').screenshot({ path: path.join(SCREENSHOTS, 'honest-failed-load.png') });
    // The next good load clears it.
    await page.getByTestId('model-picker').selectOption('adder');
    await page.waitForFunction(() => document.querySelector('[data-testid="model-name"]')?.textContent === 'adder/network.onnx');
    await waitIdle(page);
    expect(await page.getByTestId('model-load-failed').count()).toBe(0);
  });

  it('refuses an inputs.npz whose shapes do not fit the graph when it is opened, naming the array', async () => {
    const { page } = app;
    const dir = adderFolder(root, 'adder-flat-input', 'inputs.npz', (arrays) =>
      arrays.map((a, i) => (i === 1 ? { ...a, shape: [a.data.length] } : a)));
    await page.getByTestId('file-input').setInputFiles(['network.onnx', 'inputs.npz'].map((f) => path.join(dir, f)));
    await page.getByTestId('model-load-failed').waitFor({ timeout: 60_000 });
    await waitIdle(page);
    expect(await text(page, 'error-code')).toBe('bad-inputs');
    expect(await text(page, 'error-where')).toBe('inputs.npz');
    expect(await text(page, 'error-what')).toBe("array 1 ('b') has shape [2048], but graph input 1 ('b') is [1, 8, 16, 16]");
    expect(await text(page, 'model-name')).toBe('adder/network.onnx');
  });

  it('refuses an outputs.npz with more arrays than the graph has outputs', async () => {
    const { page } = app;
    const dir = adderFolder(root, 'adder-two-outputs', 'outputs.npz', (arrays) => [...arrays, { ...arrays[0]!, name: 'extra' }]);
    await page.getByTestId('file-input').setInputFiles(path.join(dir, 'outputs.npz'));
    await page.waitForFunction(() => document.querySelector('[data-testid="error-where"]')?.textContent === 'outputs.npz',
      undefined, { timeout: 60_000 });
    await waitIdle(page);
    expect(await text(page, 'error-code')).toBe('bad-inputs');
    expect(await text(page, 'error-what')).toContain('holds 2 arrays, but the graph has 1 output (sum)');
    expect(await text(page, 'model-failed-name')).toBe('outputs.npz');
  });

  it('shows a load at once, and the load asked for last wins even when an earlier one ends later', async () => {
    const { page } = app;
    // A built-in whose model file is slow to come (held in the page's fetch, since the service
    // worker answers before any route could), then files opened before it has.
    await page.evaluate(() => {
      const w = window as unknown as { dpgRelease?: () => void; dpgArrived?: boolean };
      const original = window.fetch;
      window.fetch = async (input, init) => {
        if (!String(input instanceof Request ? input.url : input).endsWith('mini-mobilenetv2/network.onnx')) return original(input, init);
        await new Promise<void>((r) => { w.dpgRelease = r; });
        const res = await original(input, init);
        w.dpgArrived = true;
        return res;
      };
    });
    await page.getByTestId('model-picker').selectOption('mini-mobilenetv2');
    expect(await attr(page, 'run-status', 'data-status')).toBe('loading');
    await page.waitForFunction(() => (window as unknown as { dpgRelease?: () => void }).dpgRelease !== undefined);
    await page.getByTestId('folder-input').setInputFiles(adderFolder(root, 'adder-last'));
    expect(await attr(page, 'run-status', 'data-status')).toBe('loading');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="model-name"]')?.textContent === 'adder-last/network.onnx', undefined, { timeout: 60_000 });
    await page.evaluate(() => (window as unknown as { dpgRelease: () => void }).dpgRelease());
    await page.waitForFunction(() => (window as unknown as { dpgArrived?: boolean }).dpgArrived === true);
    // Time for the superseded load to go on, had it not stopped.
    await page.waitForTimeout(1000);
    await waitIdle(page);
    expect(await text(page, 'model-name')).toBe('adder-last/network.onnx');
    expect(await page.getByTestId('model-load-failed').count()).toBe(0);
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
