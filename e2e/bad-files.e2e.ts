// Bad files get a clear error naming the file; nothing the user had is lost and the app
// keeps working.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINAL_RUN_STATES, attr, loadValidModel, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { SCREENSHOTS, startApp } from './browser';

const MB = 1024 * 1024;

/** 50 MB that start with text (never a protobuf field tag) followed by random bytes. */
function writeGarbage(file: string): void {
  const fd = openSync(file, 'w');
  writeSync(fd, Buffer.from('this is not an ONNX file\n'));
  for (let i = 0; i < 50; i++) writeSync(fd, randomBytes(MB));
  closeSync(fd);
}

describe('bad files', () => {
  let app: AppSession;
  let dir: string;
  let modelName: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'dpg-e2e-'));
    writeGarbage(path.join(dir, 'garbage.onnx'));
    const fd = openSync(path.join(dir, 'huge.onnx'), 'w');
    ftruncateSync(fd, 65 * MB); // sparse: costs no disk
    closeSync(fd);
    writeFileSync(path.join(dir, 'notes.txt'), 'hello');
    app = await startApp();
    await app.open();
    modelName = await loadValidModel(app.page);
  });
  afterAll(async () => {
    await app?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('rejects a 50 MB garbage.onnx in the parse stage and keeps the previous model', async () => {
    const { page } = app;
    await page.getByTestId('file-input').setInputFiles(path.join(dir, 'garbage.onnx'));
    await page.getByTestId('error-banner').waitFor({ timeout: 60_000 });
    await waitIdle(page);
    expect(await text(page, 'error-banner')).toContain('garbage.onnx');
    expect(await text(page, 'error-title')).toBe('Could not load garbage.onnx');
    expect(await text(page, 'error-code')).toBe('bad-file');
    expect(await text(page, 'model-name')).toBe(modelName);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'bad-file.png') });
  });

  it('rejects a file over 64 MB before reading it, naming the file and the limit', async () => {
    const { page } = app;
    await page.getByTestId('file-input').setInputFiles(path.join(dir, 'huge.onnx'));
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="error-title"]')?.textContent === 'Could not load huge.onnx');
    expect(await text(page, 'error-code')).toBe('limit');
    const what = await text(page, 'error-what');
    expect(what).toContain('huge.onnx');
    expect(what).toContain('64 MB');
    expect(await text(page, 'model-name')).toBe(modelName);
  });

  it('rejects a file that is neither a model nor an npz, by name', async () => {
    const { page } = app;
    await page.getByTestId('file-input').setInputFiles(path.join(dir, 'notes.txt'));
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="error-title"]')?.textContent === 'Could not load notes.txt');
    expect(await text(page, 'error-what')).toContain("'notes.txt' is neither an .onnx model nor an inputs/outputs .npz file");
    expect(await text(page, 'model-name')).toBe(modelName);
  });

  it('keeps working: a valid model loads and compiles afterwards', async () => {
    const { page } = app;
    await loadValidModel(page);
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    await page.getByTestId('compile-button').click();
    await waitIdle(page);
    const final = await attr(page, 'run-status', 'data-status');
    expect(FINAL_RUN_STATES).toContain(final);
    expect(final).not.toBe('cancelled');
    if (final === 'failed') expect(await text(page, 'error-code')).not.toBe('bad-file');
    expect(app.pageErrors).toEqual([]);
  });
});
