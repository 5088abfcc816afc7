// The run stage in the browser (issue #13): adder compiled by the playground's own C compiler in
// the pipeline worker and run on the simulator (Runtime, Errors: 0); a kernel's arithmetic broken
// in the code pane and run again (Errors in red, the first mismatches); a syntax error marked at
// its line in the editor, and no run; both reverted, Errors: 0 again.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attr, text, waitIdle } from './app';
import type { AppSession } from './browser';
import { SCREENSHOTS, builtinModels, startApp } from './browser';

const has = (id: string) => builtinModels().some((m) => m.id === id);
const EDITOR = '[data-testid="code-editor"]';

/** Clicks Run in the Run pane and waits for the run to end. */
async function runAgain(page: Page): Promise<void> {
  await page.getByTestId('run-again').click();
  await waitIdle(page);
}

/** Focuses the editor on the file shown, at the first match of `find` (Monaco's find widget), the match selected. */
async function goTo(page: Page, find: string): Promise<void> {
  await page.locator(`${EDITOR} .view-line`).first().click();
  await page.keyboard.press('Control+f');
  await page.keyboard.type(find);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
}

/** The line number the cursor is on (Monaco marks it in the gutter). */
async function cursorLine(page: Page): Promise<number> {
  return Number(await page.locator(`${EDITOR} .line-numbers.active-line-number`).first().textContent());
}

describe.skipIf(!has('adder'))('run in the browser', () => {
  let app: AppSession;
  beforeAll(async () => {
    app = await startApp();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('compiles adder with the builtin compiler and runs it on the simulator: Runtime and Errors: 0', async () => {
    await app.open('?model=adder');
    const { page } = app;
    await page.getByTestId('cfg-platform').selectOption('siracusa');
    await page.getByTestId('compile-button').click();
    await waitIdle(page);
    expect(await attr(page, 'stage-run', 'data-status'), await text(page, 'stage-list')).toBe('done');
    expect(await attr(page, 'run-status', 'data-status')).toBe('done');
    expect(await text(page, 'run-runtime')).toMatch(/^[\d,]+ cycles$/);
    expect(await text(page, 'run-errors')).toBe('Errors: 0 out of 2048');
    expect(await attr(page, 'run-errors', 'class')).toBe('ok');
    expect(await text(page, 'run-compiler')).toBe('builtin');
    expect(await text(page, 'run-mips')).toMatch(/^\d+ MIPS$/);
    // The energy estimate beside the cycles, with its parts.
    expect(await text(page, 'run-energy')).toMatch(/^[\d.]+ [num]J \(instructions [\d.]+ [num]J, TCDM [\d.]+ [num]J, static [\d.]+ [num]J at 50 MHz\)$/);
    // The instruction cache's hit rate and refill stalls: the code ran cold, so some lines came from L2.
    expect(await text(page, 'run-icache')).toMatch(/^[\d.]+ % of [\d.]+( [kM])? line fetches hit the cores' L0, [\d.]+ % came from L2; [\d.]+( [kM])? refill stall cycles$/);
    const ic = page.getByTestId('run-icache');
    expect(Number(await ic.getAttribute('data-fetches'))).toBeGreaterThan(Number(await ic.getAttribute('data-misses')));
    expect(Number(await ic.getAttribute('data-stalls'))).toBeGreaterThanOrEqual(18);
    expect(await text(page, 'run-stdout')).toMatch(/^Runtime: \d+ cycles$/m);
    expect(await page.getByTestId('run-code-stale').count()).toBe(0);
    console.log(`adder in the worker: ${await text(page, 'run-wall')}`);
    await page.getByTestId('pane-run').screenshot({ path: path.join(SCREENSHOTS, 'run.png') });
  });

  it('runs a kernel whose arithmetic was broken in the code pane: Errors in red, with the first mismatches', async () => {
    const { page } = app;
    await page.waitForSelector(`${EDITOR}[data-state="ready"]`, { timeout: 30_000 });
    // The library's tabs open on demand.
    expect(await page.getByTestId('code-tab-kernels/elementwise.c').count()).toBe(0);
    await page.getByTestId('code-library-tabs').click();
    await page.getByTestId('code-tab-kernels/elementwise.c').click();
    await expect.poll(() => attr(page, 'code-editor', 'data-file')).toBe('kernels/elementwise.c');
    await page.getByTestId('code-edit').click();
    // The 8-bit fast path's arithmetic (a macro): every sum one more, with Monaco's find and replace.
    await page.locator(`${EDITOR} .view-line`).first().click();
    await page.keyboard.press('Control+h');
    await page.locator(`${EDITOR} .find-widget .find-part textarea`).fill('? (u) + (v) :');
    await page.locator(`${EDITOR} .find-widget .replace-part textarea`).fill('? (u) + (v) + 1 :');
    await page.locator(`${EDITOR} .find-widget .replace-part textarea`).press('Enter');
    await page.keyboard.press('Escape');
    await expect.poll(() => attr(page, 'code-tab-kernels/elementwise.c', 'class')).toContain('modified');
    // The run shown is from other code now.
    expect(await page.getByTestId('run-code-stale').count()).toBe(1);
    await runAgain(page);
    expect(await attr(page, 'stage-run', 'data-status')).toBe('mismatch');
    const errors = Number(await attr(page, 'run-errors', 'data-errors'));
    expect(errors).toBeGreaterThan(0);
    expect(await text(page, 'run-errors')).toBe(`Errors: ${errors} out of 2048`);
    expect(await attr(page, 'run-errors', 'class')).toBe('bad');
    expect(await page.locator('[data-testid="run-mismatches"] tbody tr').count()).toBeGreaterThan(0);
    expect(await attr(page, 'run-status', 'data-status')).toBe('failed');
    expect(await page.getByTestId('run-code-stale').count()).toBe(0);
    // Only the edited file was compiled again.
    expect(await text(page, 'run-wall')).toMatch(/\(1 compiled, \d+ cached/);
    console.log(`adder, kernels/elementwise.c edited: ${await text(page, 'run-wall')}`);
  });

  it('marks a syntax error at its line in the editor, and does not run', async () => {
    const { page } = app;
    await page.getByTestId('code-tab-Network.c').click();
    await expect.poll(() => attr(page, 'code-editor', 'data-file')).toBe('Network.c');
    await goTo(page, 'void RunNetwork(void) {');
    const line = await cursorLine(page);
    expect(line).toBeGreaterThan(10);
    await page.keyboard.press('End');
    await page.keyboard.type(' int broken = ;');
    await expect.poll(() => attr(page, 'code-tab-Network.c', 'class')).toContain('modified');
    await runAgain(page);
    expect(await attr(page, 'stage-run', 'data-status')).toBe('error');
    expect(await text(page, 'run-compile-error')).toMatch(new RegExp(`^Compile error in Network\\.c:${line}:\\d+: `));
    expect(await page.getByTestId('run-figures').count()).toBe(0);
    await expect.poll(() => attr(page, 'code-editor', 'data-markers')).toMatch(new RegExp(`^Network\\.c:${line}:\\d+$`));
    await expect.poll(() => page.locator(`${EDITOR} .squiggly-error`).count()).toBeGreaterThan(0);
    await page.getByTestId('pane-code').screenshot({ path: path.join(SCREENSHOTS, 'run-compile-error.png') });
  });

  it('reverts both files: Errors: 0 again, and the marker is gone', async () => {
    const { page } = app;
    await page.getByTestId('code-revert').click();
    await page.getByTestId('code-tab-kernels/elementwise.c').click();
    await page.getByTestId('code-revert').click();
    await expect.poll(() => page.locator('[data-testid="code-tabs"] .modified').count()).toBe(0);
    await runAgain(page);
    expect(await attr(page, 'stage-run', 'data-status')).toBe('done');
    expect(await text(page, 'run-errors')).toBe('Errors: 0 out of 2048');
    expect(await text(page, 'run-wall')).toMatch(/\(0 compiled, \d+ cached/);
    await expect.poll(() => attr(page, 'code-editor', 'data-markers')).toBe('');
    expect(app.pageErrors).toEqual([]);
  });
});
