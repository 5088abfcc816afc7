// Steps the tests share: loading a model the way a user would, and waiting for a run.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { SHARED_TESTS, builtinModels } from './browser';

/** A small valid network with golden inputs and outputs. */
export const ADD_DIR = path.join(SHARED_TESTS, 'Kernels/Integer/Add/Regular');

export const FINAL_RUN_STATES = ['done', 'failed', 'cancelled'];

export async function text(page: Page, testid: string): Promise<string> {
  return (await page.getByTestId(testid).textContent()) ?? '';
}

export async function attr(page: Page, testid: string, name: string): Promise<string | null> {
  return page.getByTestId(testid).getAttribute(name);
}

/** Waits until no model check or compile is running. */
export async function waitIdle(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid="run-status"]')?.getAttribute('data-status');
    return s !== undefined && s !== null && s !== 'loading' && s !== 'running';
  }, undefined, { timeout: 120_000 });
}

/** Opens the Add network with its npz files through the file input; resolves when it is loaded. */
export async function openAddFromFiles(page: Page): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(
    ['network.onnx', 'inputs.npz', 'outputs.npz'].map((f) => path.join(ADD_DIR, f)));
  await waitIdle(page);
  expect(await text(page, 'model-name')).toBe('network.onnx');
}

/**
 * Loads a valid model the way a user would: a built-in one from the picker when
 * public/models/index.json lists any, otherwise the Add network through the file input.
 * Returns the name the header shows for it.
 */
export async function loadValidModel(page: Page): Promise<string> {
  const builtins = builtinModels();
  if (builtins.length === 0) {
    expect(await text(page, 'model-picker-empty')).toContain('No built-in models');
    await openAddFromFiles(page);
    return 'network.onnx';
  }
  // A built-in other than the one selected now, so selecting it really loads something; the
  // list's order puts small models first, which keeps the tests quick.
  const current = await page.getByTestId('model-picker').inputValue();
  const m = builtins.find((b) => b.id !== current) ?? builtins[0]!;
  await page.getByTestId('model-picker').selectOption(m.id);
  await waitIdle(page);
  await page.waitForFunction((name) =>
    document.querySelector('[data-testid="model-name"]')?.textContent === name, m.files.model);
  // The address follows the view (a share link naming the model).
  await page.waitForFunction((id) => new URL(location.href).searchParams.get('m') === id, m.id);
  return m.files.model;
}

/** Starts recording every value run-status's data-status takes, so fast transitions are not missed. */
export async function recordRunStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="run-status"]')!;
    const seen: string[] = [el.getAttribute('data-status') ?? ''];
    (window as unknown as { __runStates: string[] }).__runStates = seen;
    new MutationObserver(() => seen.push(el.getAttribute('data-status') ?? ''))
      .observe(el, { attributes: true, attributeFilter: ['data-status'] });
  });
}

export async function recordedRunStates(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __runStates: string[] }).__runStates);
}
