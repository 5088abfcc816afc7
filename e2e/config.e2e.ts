// Out-of-range numbers get an inline message and never reach the stored configuration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text } from './app';
import type { AppSession } from './browser';
import { startApp } from './browser';

describe('config validation', () => {
  let app: AppSession;
  beforeAll(async () => {
    app = await startApp();
    await app.open();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows an inline message for an invalid L1 size and keeps the stored value', async () => {
    const { page } = app;
    const before = await text(page, 'config-summary');
    expect(before).toContain('L1 64000 B');
    expect(await page.getByTestId('cfg-l1-error').count()).toBe(0);

    await page.getByTestId('cfg-l1').fill('100');
    expect(await text(page, 'cfg-l1-error')).toBe('L1 size must be a whole number from 1024 to 262144');
    expect(await page.getByTestId('cfg-l1').getAttribute('aria-invalid')).toBe('true');
    expect(await text(page, 'config-summary')).toBe(before);

    await page.getByTestId('cfg-l1').fill('300000');
    expect(await text(page, 'cfg-l1-error')).toContain('1024 to 262144');
    expect(await text(page, 'config-summary')).toBe(before);

    await page.getByTestId('cfg-l1').fill('');
    expect(await page.getByTestId('cfg-l1-error').count()).toBe(1);
    expect(await text(page, 'config-summary')).toBe(before);

    await page.getByTestId('cfg-l1').fill('128000');
    expect(await page.getByTestId('cfg-l1-error').count()).toBe(0);
    expect(await text(page, 'config-summary')).toContain('L1 128000 B');
  });

  it('validates cores and L2 the same way', async () => {
    const { page } = app;
    const before = await text(page, 'config-summary');
    await page.getByTestId('cfg-cores').fill('9');
    expect(await text(page, 'cfg-cores-error')).toBe('Cores must be a whole number from 1 to 8');
    await page.getByTestId('cfg-l2').fill('1000');
    expect(await text(page, 'cfg-l2-error')).toContain('16384 to 2097152');
    expect(await text(page, 'config-summary')).toBe(before);
    expect(app.pageErrors).toEqual([]);
  });
});
