// Other ways to choose a model: drag and drop onto the window, and ?model=<id> in the address.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADD_DIR, attr, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { builtinModels, startApp } from './browser';

/** Drops files on the window the way the browser does for a real drag from the desktop. */
async function drop(page: Page, files: { name: string; bytes: number[] }[]): Promise<void> {
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([new Uint8Array(f.bytes)], f.name));
    const target = document.querySelector('main')!;
    target.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
}

const addFile = (name: string) => ({ name, bytes: [...readFileSync(path.join(ADD_DIR, name))] });

describe('opening models', () => {
  let app: AppSession;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('loads a model with its npz files dropped on the window', async () => {
    await app.open();
    const { page } = app;
    await drop(page, [addFile('network.onnx'), addFile('inputs.npz'), addFile('outputs.npz')]);
    await page.waitForFunction(() => document.querySelector('[data-testid="model-name"]')?.textContent === 'network.onnx');
    await waitIdle(page);
    expect(await attr(page, 'model-inputs', 'title')).toBe('inputs.npz');
    expect(await attr(page, 'model-outputs', 'title')).toBe('outputs.npz');
    expect(await page.getByTestId('drop-overlay').count()).toBe(0);
    expect(await page.getByTestId('error-banner').count()).toBe(0);
  });

  it('names a dropped file it does not accept and keeps the model', async () => {
    const { page } = app;
    await drop(page, [{ name: 'weights.npz', bytes: [1, 2, 3] }]);
    await page.getByTestId('error-banner').waitFor();
    expect(await text(page, 'error-what')).toContain("'weights.npz'");
    expect(await text(page, 'error-hint')).toContain('"input" or "output"');
    expect(await text(page, 'model-name')).toBe('network.onnx');
    await page.getByTestId('error-dismiss').click();
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    expect(await text(page, 'model-name')).toBe('network.onnx');
  });

  it('says so when ?model= names no built-in model', async () => {
    await app.open('?model=no-such-model');
    const { page } = app;
    await page.getByTestId('error-banner').waitFor();
    expect(await text(page, 'error-title')).toBe('Unknown model in the address');
    expect(await text(page, 'error-what')).toContain("'no-such-model'");
  });

  it('loads the built-in model that ?model= names', async (ctx) => {
    const builtins = builtinModels();
    if (builtins.length === 0) ctx.skip(); // public/models/index.json lists no model yet
    const m = builtins[builtins.length - 1]!;
    await app.open(`?model=${encodeURIComponent(m.id)}`);
    expect(await text(app.page, 'model-name')).toBe(m.files.model);
    expect(await app.page.getByTestId('model-picker').inputValue()).toBe(m.id);
    expect(app.pageErrors).toEqual([]);
  });
});
