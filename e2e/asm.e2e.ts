// The code pane's assembly view and cycle heat (issue #14): adder compiled and run (profiled)
// in the browser; the gutter shows each line's cycles; the Assembly view lists the functions
// hottest first and shows one's instructions with their cycles and source lines; a row's click
// goes to its C line (switching file), the cursor on a C line outlines its rows and brings its
// function; an edit marks the heat and assembly stale.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attr, waitIdle } from './app';
import type { AppSession } from './browser';
import { SCREENSHOTS, builtinModels, startApp } from './browser';

const has = (id: string) => builtinModels().some((m) => m.id === id);
const EDITOR = '[data-testid="code-editor"]';

interface Row { pc: string; file: string; line: number; cycles: number; stalls: number; cursor: boolean; text: string }

async function rows(page: Page): Promise<Row[]> {
  return page.locator('[data-testid="asm-row"]').evaluateAll((els) => els.map((e) => ({
    pc: e.getAttribute('data-pc') ?? '', file: e.getAttribute('data-file') ?? '', line: Number(e.getAttribute('data-line')),
    cycles: Number(e.getAttribute('data-cycles')), stalls: Number(e.getAttribute('data-stalls')),
    cursor: e.getAttribute('data-cursor') === 'true', text: e.querySelector('.asm-text')?.textContent ?? '',
  })));
}

/** Picks the function named `name` in the assembly view's picker. */
async function pick(page: Page, name: string): Promise<void> {
  const value = await page.locator('[data-testid="asm-function"] option').evaluateAll(
    (os, n) => (os as HTMLOptionElement[]).find((o) => o.value.startsWith(`${n}@`))?.value ?? '', name);
  expect(value, name).not.toBe('');
  await page.getByTestId('asm-function').selectOption(value);
  await expect.poll(() => attr(page, 'asm-view', 'data-function')).toBe(name);
}

/** Focuses the editor on the file shown (a click in its text area). */
async function focusEditor(page: Page): Promise<void> {
  const box = (await page.locator(EDITOR).boundingBox())!;
  await page.mouse.click(box.x + 120, box.y + 8);
}

/** Puts the cursor on line `n` of the file shown, as a user would: Monaco's go-to-line, then a key. */
async function cursorTo(page: Page, n: number): Promise<void> {
  await focusEditor(page);
  await page.keyboard.press('Control+g');
  await page.keyboard.type(String(n));
  await page.keyboard.press('Enter');
  // The jump is no user move of the cursor; a key is.
  await page.keyboard.press('End');
}

describe.skipIf(!has('adder'))('the assembly view', () => {
  let app: AppSession;
  beforeAll(async () => {
    app = await startApp();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows each line\'s cycles in the gutter after a run, and a function\'s instructions with their cycles and C lines', async () => {
    await app.open('?model=adder');
    const { page } = app;
    await page.getByTestId('layout-code').click();
    await page.getByTestId('cfg-platform').selectOption('siracusa');
    await page.getByTestId('compile-button').click();
    await waitIdle(page);
    expect(await attr(page, 'stage-run', 'data-status')).toBe('done');
    await page.waitForSelector(`${EDITOR}[data-state="ready"]`, { timeout: 30_000 });
    await expect.poll(() => attr(page, 'code-editor', 'data-heat')).toBe('fresh');
    // Network.c's lines that ran have a heat mark in the gutter.
    await expect.poll(() => page.locator(`${EDITOR} .dpg-line-heat`).count()).toBeGreaterThan(0);

    expect(await page.getByTestId('asm-view').count()).toBe(0);
    await page.getByTestId('asm-toggle').click();
    await expect.poll(() => attr(page, 'asm-view', 'data-state')).toBe('rows');
    // The picker lists the functions hottest first: the harness's check loop (main), then the Add kernel.
    const options = await page.locator('[data-testid="asm-function"] option').allTextContents();
    expect(options.length).toBeGreaterThan(50);
    expect(options[0]).toMatch(/^main · [\d.,]+ k? ?cyc/);
    // By default: the hottest function with code in the file shown (Network.c).
    const shown = await rows(page);
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.some((r) => r.file === 'Network.c')).toBe(true);

    await pick(page, 'main');
    const main = await rows(page);
    for (const r of main) {
      expect(r.pc).toMatch(/^0x[0-9a-f]{8}$/);
      expect(r.line, r.text).toBeGreaterThan(0);
      expect(['main.c', 'kernels/dpg_kernels.h']).toContain(r.file);
      expect(r.stalls).toBeLessThanOrEqual(r.cycles);
    }
    expect(main.reduce((s, r) => s + r.cycles, 0)).toBeGreaterThan(100_000);
    // Calls name their callee.
    expect(main.some((r) => /<\w+>$/.test(r.text))).toBe(true);
    // The numbers of each line show after it while the assembly is open.
    await expect.poll(() => page.locator(`${EDITOR} .dpg-line-heat-label`).count()).toBeGreaterThan(0);
    const label = (await page.locator(`${EDITOR} .dpg-line-heat-label`).first().textContent())!.replace(/\u00a0/g, ' ');
    expect(label).toMatch(/^ +[\d.,]+( k| M)? cyc(, [\d.]+ % stalls)?$/);
  });

  it('goes from a row to its C line (switching file), and from the cursor in C to its rows and function', async () => {
    const { page } = app;
    await pick(page, 'dpg_binary');
    const binary = await rows(page);
    const row = binary.find((r) => r.file === 'kernels/elementwise.c')!;
    expect(row).toBeDefined();
    await page.locator(`[data-testid="asm-row"][data-pc="${row.pc}"]`).click();
    await expect.poll(() => attr(page, 'code-editor', 'data-file')).toBe('kernels/elementwise.c');
    await expect.poll(() => attr(page, 'code-editor', 'data-asm-focus')).toBe(`kernels/elementwise.c:${row.line}`);
    await expect.poll(() => page.locator(`${EDITOR} .asm-focus`).count()).toBe(1);
    // The function's C lines carry its rows' colours.
    await expect.poll(() => page.locator(`${EDITOR} .asm-link`).count()).toBeGreaterThan(0);

    // RunNetwork's lines in Network.c: the cursor on one of them outlines its rows and brings RunNetwork back.
    await pick(page, 'RunNetwork');
    const net = (await rows(page)).filter((r) => r.file === 'Network.c');
    const line = net[Math.floor(net.length / 2)]!.line;
    await pick(page, 'main');
    await page.getByTestId('code-tab-Network.c').click();
    await expect.poll(() => attr(page, 'code-editor', 'data-file')).toBe('Network.c');
    await cursorTo(page, line);
    await expect.poll(() => attr(page, 'code-editor', 'data-cursor-line')).toBe(`Network.c:${line}`);
    await expect.poll(() => attr(page, 'asm-view', 'data-function')).toBe('RunNetwork');
    const outlined = (await rows(page)).filter((r) => r.cursor);
    expect(outlined.length).toBeGreaterThan(0);
    for (const r of outlined) expect([r.file, r.line]).toEqual(['Network.c', line]);
    await page.getByTestId('pane-code').screenshot({ path: path.join(SCREENSHOTS, 'asm-view.png') });
  });

  it('shows the kernel of the layer selected in the graph', async () => {
    const { page } = app;
    await pick(page, 'main');
    await page.locator('.flexlayout__tab_button', { hasText: 'Graph' }).click();
    await page.getByTestId('graph-search').fill('add');
    await page.getByTestId('graph-search').press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid="graph-props"]')?.getAttribute('data-node') === 'add');
    await expect.poll(() => attr(page, 'asm-view', 'data-function')).toBe('dpg_binary');
    await page.locator('.flexlayout__tab_button', { hasText: 'Memory' }).click();
  });

  it('widens the assembly view by its splitter', async () => {
    const { page } = app;
    const before = (await page.getByTestId('asm-view').boundingBox())!.width;
    const bar = (await page.getByTestId('asm-splitter').boundingBox())!;
    await page.mouse.move(bar.x + bar.width / 2, bar.y + 50);
    await page.mouse.down();
    await page.mouse.move(bar.x - 120, bar.y + 60, { steps: 5 });
    await page.mouse.up();
    const after = (await page.getByTestId('asm-view').boundingBox())!.width;
    expect(after - before).toBeGreaterThan(100);
  });

  it('marks the heat and the assembly stale once the code is edited', async () => {
    const { page } = app;
    await page.getByTestId('code-edit').click();
    await focusEditor(page);
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('/* edited */ ');
    await expect.poll(() => attr(page, 'code-tab-Network.c', 'class')).toContain('modified');
    await expect.poll(() => attr(page, 'code-editor', 'data-heat')).toBe('stale');
    expect(await attr(page, 'asm-view', 'data-stale')).toBe('true');
    expect(await page.getByTestId('asm-stale').count()).toBe(1);
    await expect.poll(() => page.locator(`${EDITOR} .dpg-heat-stale`).count()).toBeGreaterThan(0);
    await page.getByTestId('code-revert').click();
    await expect.poll(() => attr(page, 'code-editor', 'data-heat')).toBe('fresh');
    expect(app.pageErrors).toEqual([]);
  });
});
