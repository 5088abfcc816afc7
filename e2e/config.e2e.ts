// The configuration as a user edits it: invalid values are shown with validateConfig's reason
// and block Compile; controls the platform ignores are disabled and say why; results of a
// compile with another configuration are marked stale until the next compile.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attr, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { SCREENSHOTS, startApp } from './browser';

async function compileBlocked(page: Page): Promise<boolean> {
  return page.getByTestId('compile-button').isDisabled();
}

describe('config validation', () => {
  let app: AppSession;
  beforeAll(async () => {
    app = await startApp();
    await app.open('?model=adder');
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows validateConfig\'s reason for an invalid L1 size, keeps the stored value and disables Compile', async () => {
    const { page } = app;
    const before = await text(page, 'config-summary');
    expect(before).toContain('L1 64000 B');
    expect(await page.getByTestId('cfg-l1-error').count()).toBe(0);
    expect(await compileBlocked(page)).toBe(false);

    for (const [typed, reason] of [['100', 'use an integer from 1024 to 241664'], ['-5', 'use an integer from 1024'],
      ['abc', 'L1 size must be a whole number'], ['', 'L1 size must be a whole number']] as const) {
      await page.getByTestId('cfg-l1').fill(typed);
      expect(await text(page, 'cfg-l1-error')).toContain(reason);
      expect(await page.getByTestId('cfg-l1').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByTestId('cfg-l1').inputValue()).toBe(typed);
      expect(await text(page, 'config-summary')).toBe(before);
      expect(await compileBlocked(page)).toBe(true);
      expect(await text(page, 'compile-blocked')).toContain('L1 size');
    }

    await page.getByTestId('cfg-l1').fill('128000');
    expect(await page.getByTestId('cfg-l1-error').count()).toBe(0);
    expect(await text(page, 'config-summary')).toContain('L1 128000 B');
    expect(await compileBlocked(page)).toBe(false);
    expect(await page.getByTestId('compile-blocked').count()).toBe(0);
  });

  it('refuses L1 = 250000 B on Siracusa with the usable maximum (like --l1 250000)', async () => {
    const { page } = app;
    await page.getByTestId('cfg-l1').fill('250000');
    const error = await text(page, 'cfg-l1-error');
    expect(error).toContain('L1 = 250000 B does not fit Siracusa\'s L1');
    expect(error).toContain('at most 241664');
    expect(await compileBlocked(page)).toBe(true);
    expect(await attr(page, 'compile-button', 'title')).toContain('241664');
    await page.getByTestId('config-panel').screenshot({ path: path.join(SCREENSHOTS, 'config-l1-too-big.png') });
    await page.getByTestId('cfg-l1').fill('241664');
    expect(await page.getByTestId('cfg-l1-error').count()).toBe(0);
    expect(await text(page, 'config-summary')).toContain('L1 241664 B');
    expect(await compileBlocked(page)).toBe(false);
  });

  it('validates cores and L2 the same way', async () => {
    const { page } = app;
    const before = await text(page, 'config-summary');
    await page.getByTestId('cfg-cores').fill('9');
    expect(await text(page, 'cfg-cores-error')).toContain('use an integer from 1 to 8');
    await page.getByTestId('cfg-l2').fill('1000');
    expect(await text(page, 'cfg-l2-error')).toContain('16384 to 2097152');
    expect(await text(page, 'config-summary')).toBe(before);
    expect(await compileBlocked(page)).toBe(true);
    await page.getByTestId('cfg-cores').fill('8');
    await page.getByTestId('cfg-l2').fill('1024000');
    expect(await compileBlocked(page)).toBe(false);
    expect(app.pageErrors).toEqual([]);
  });

  it('disables what Generic ignores, with the reason, and the summary says what really happens', async () => {
    const { page } = app;
    const ignored = ['cfg-cores', 'cfg-tiled', 'cfg-l1', 'cfg-l2', 'cfg-mem-level', 'cfg-double-buffer', 'cfg-profile-tiling', 'cfg-neureka-wmem'];
    for (const id of ignored) expect(await page.getByTestId(id).isDisabled(), id).toBe(id === 'cfg-neureka-wmem');
    await page.getByTestId('cfg-platform').selectOption('generic');
    for (const id of ignored) {
      expect(await page.getByTestId(id).isDisabled(), id).toBe(true);
      expect(await text(page, `${id}-ignored`), id).toMatch(/^(not used by Generic|only on Siracusa \+ N-EUREKA)$/);
    }
    expect(await text(page, 'cfg-platform-note')).toContain('one host core with one flat memory');
    const tip = await page.getByTestId('cfg-l1').evaluate((el) => el.closest('label')?.getAttribute('title'));
    expect(tip).toContain('not used by Generic: Generic runs plain C on one host core');
    expect(await text(page, 'config-summary')).toBe('generic · 1 core · untiled · one flat memory');
    await page.getByTestId('config-panel').screenshot({ path: path.join(SCREENSHOTS, 'config-generic.png') });

    // An invalid draft of a control Generic ignores does not block its compile.
    await page.getByTestId('cfg-platform').selectOption('siracusa');
    await page.getByTestId('cfg-l1').fill('abc');
    expect(await compileBlocked(page)).toBe(true);
    await page.getByTestId('cfg-platform').selectOption('generic');
    expect(await compileBlocked(page)).toBe(false);
    await page.getByTestId('cfg-platform').selectOption('siracusa');
    expect(await page.getByTestId('cfg-l1').inputValue()).toBe('241664');

    // Untiled Siracusa: L1, double buffering and tile profiling do nothing.
    await page.getByTestId('cfg-tiled').uncheck();
    for (const id of ['cfg-l1', 'cfg-double-buffer', 'cfg-profile-tiling']) {
      expect(await page.getByTestId(id).isDisabled(), id).toBe(true);
      expect(await text(page, `${id}-ignored`)).toBe('only used when tiled');
    }
    expect(await text(page, 'config-summary')).not.toContain('L1');
    await page.getByTestId('cfg-tiled').check();
    expect(await page.getByTestId('cfg-l1').isDisabled()).toBe(false);
  });

  it('marks every result stale when the configuration changes, until the next compile', async () => {
    const { page } = app;
    await page.getByTestId('cfg-l1').fill('64000');
    await page.getByTestId('compile-button').click();
    await waitIdle(page);
    expect(await attr(page, 'run-status', 'data-status')).toBe('done');
    expect(await attr(page, 'stage-lower', 'data-stale')).toBe('false');
    expect(await page.locator('.flexlayout__tab_button [data-testid="pane-stale"]').count()).toBe(0);

    const expectStale = async (stale: boolean) => {
      for (const s of ['parse', 'lower', 'tile', 'codegen'])
        expect(await attr(page, `stage-${s}`, 'data-stale'), s).toBe(String(stale));
      expect(await attr(page, 'run-status', 'data-stale')).toBe(String(stale));
      // On the tabs of the graph, memory, code and run panes.
      expect(await page.locator('.flexlayout__tab_button [data-testid="pane-stale"]').count()).toBe(stale ? 4 : 0);
    };
    await page.getByTestId('cfg-platform').selectOption('generic');
    await expectStale(true);
    expect(await text(page, 'stage-lower')).toContain('stale');
    expect(await text(page, 'run-stale')).toContain('the configuration changed since this compile');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'config-stale.png') });

    // Back to what was compiled: the results are current again; another L1 makes them stale.
    await page.getByTestId('cfg-platform').selectOption('siracusa');
    await expectStale(false);
    await page.getByTestId('cfg-l1').fill('32000');
    await expectStale(true);

    await page.getByTestId('compile-button').click();
    await waitIdle(page);
    await expectStale(false);
    expect(app.pageErrors).toEqual([]);
  });
});
