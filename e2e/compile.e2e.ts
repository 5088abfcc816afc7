// A user's first session: pick a model, change the configuration, compile, watch the stages.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINAL_RUN_STATES, attr, loadValidModel, recordRunStates, recordedRunStates, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { SCREENSHOTS, builtinModels, startApp } from './browser';

const STAGES = ['parse', 'reference', 'lower', 'tile', 'codegen', 'run'];

describe('compile', () => {
  let app: AppSession;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('starts with the first built-in model, or says there is none', async () => {
    await app.open();
    const { page } = app;
    const builtins = builtinModels();
    if (builtins.length) expect(await text(page, 'model-name')).toBe(builtins[0]!.files.model);
    else {
      expect(await text(page, 'model-picker-empty')).toContain('No built-in models');
      expect(await page.getByTestId('compile-button').isDisabled()).toBe(true);
    }
    for (const pane of ['graph', 'memory', 'code', 'run'])
      expect((await text(page, `pane-${pane}`)).length).toBeGreaterThan(40);
  });

  it('compiles a model with a changed configuration and reports every stage', async () => {
    const { page } = app;
    await loadValidModel(page);
    expect(await attr(page, 'run-status', 'data-status')).toBe('none');
    expect(await attr(page, 'stage-parse', 'data-status')).toMatch(/^(done|skipped)$/);

    // The weight memory is only offered on N-EUREKA.
    expect(await page.getByTestId('cfg-neureka-wmem').isDisabled()).toBe(true);
    await page.getByTestId('cfg-platform').selectOption('siracusa-neureka');
    expect(await page.getByTestId('cfg-neureka-wmem').isDisabled()).toBe(false);
    await page.getByTestId('cfg-neureka-wmem').check();
    expect(await text(page, 'config-summary')).toContain('weight memory');
    await page.getByTestId('cfg-platform').selectOption('siracusa');
    expect(await page.getByTestId('cfg-neureka-wmem').isChecked()).toBe(false);

    await page.getByTestId('cfg-cores').fill('4');
    await page.getByTestId('cfg-l1').fill('32000');
    const summary = await text(page, 'config-summary');
    expect(summary).toContain('siracusa · 4 cores');
    expect(summary).toContain('L1 32000 B');
    expect(summary).not.toContain('weight memory');

    await recordRunStates(page);
    await page.getByTestId('compile-button').click();
    await waitIdle(page);
    const states = await recordedRunStates(page);
    expect(states).toContain('running');
    const final = await attr(page, 'run-status', 'data-status');
    expect(FINAL_RUN_STATES).toContain(final);
    expect(final).not.toBe('cancelled');

    const stageStates = await Promise.all(STAGES.map((s) => attr(page, `stage-${s}`, 'data-status')));
    if (final === 'done') {
      expect(await text(page, 'run-status')).toMatch(/^done in \d+ ms$/);
      for (const s of stageStates) expect(s).toMatch(/^(done|skipped)$/);
      for (const [i, s] of stageStates.entries())
        if (s === 'skipped') expect(await text(page, `stage-${STAGES[i]}-detail`)).toMatch(/^no runner for the generated C here: /);
      expect(await page.getByTestId('error-banner').count()).toBe(0);
    } else {
      // A clear error: the failing stage is marked and the banner says what and where.
      expect(stageStates.filter((s) => s === 'error')).toHaveLength(1);
      expect(await text(page, 'error-title')).toMatch(/^Compile failed in the \w+ stage$/);
      expect((await text(page, 'error-what')).length).toBeGreaterThan(5);
    }

    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'compile.png'), fullPage: true });
    expect(app.pageErrors).toEqual([]);
  });
});
