// Cancel stops a hung run (the worker is terminated) and the next compile works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINAL_RUN_STATES, attr, loadValidModel, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { setTestHooks, startApp } from './browser';

describe('cancel', () => {
  let app: AppSession;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('stops a hung compile and compiles again afterwards', async () => {
    // The stall test hook makes the worker block its thread for 10 minutes before the pipeline starts.
    await setTestHooks(app.page, { stallMs: 600_000 });
    await app.open();
    const { page } = app;
    await loadValidModel(page);
    await page.getByTestId('compile-button').click();
    await page.getByTestId('cancel-button').waitFor();
    expect(await attr(page, 'run-status', 'data-status')).toBe('running');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="progress-message"]')?.textContent?.includes('stalling'));
    expect(await text(page, 'progress-stage')).toBe('parse');

    await page.getByTestId('cancel-button').click();
    expect(await attr(page, 'run-status', 'data-status')).toBe('cancelled');
    expect(await text(page, 'run-status')).toBe('cancelled');
    expect(await page.getByTestId('cancel-button').count()).toBe(0);
    expect(await page.getByTestId('compile-button').isEnabled()).toBe(true);

    // Without the stall, a new compile must finish: the hung worker is gone.
    await page.evaluate(() => { (window as unknown as { __dpgTestHooks: { stallMs?: number } }).__dpgTestHooks.stallMs = 0; });
    const t0 = Date.now();
    await page.getByTestId('compile-button').click();
    await waitIdle(page);
    const final = await attr(page, 'run-status', 'data-status');
    expect(FINAL_RUN_STATES).toContain(final);
    expect(final).not.toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect(app.pageErrors).toEqual([]);
  });
});
