// Steps the graph pane tests share: reading the pass list and the nodes each side draws.
import type { Page } from 'playwright-core';
import { waitIdle } from './app';

export type Side = 'left' | 'right';

export interface PassRow {
  index: number;
  pass: string;
  changed: boolean;
  errors: number;
}

/** Opens files through the file input, as the "Open files…" button does, and waits for the check. */
export async function openModelFile(page: Page, files: string[]): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(files);
  await waitIdle(page);
}

/** Waits until a side shows snapshot `index`, laid out and drawn. */
export async function waitSide(page: Page, side: Side, index: number, timeout = 60_000): Promise<void> {
  await page.waitForFunction(([s, i]) => {
    const el = document.querySelector(`[data-testid="graph-side-${s}"]`);
    const canvas = document.querySelector(`[data-testid="graph-canvas-${s}"]`);
    return el?.getAttribute('data-snapshot') === String(i) && canvas?.getAttribute('data-state') === 'ready';
  }, [side, index] as const, { timeout });
}

/** The passes the list shows, in order. */
export async function passes(page: Page): Promise<PassRow[]> {
  return page.locator('[data-testid="graph-pass-list"] button.pass').evaluateAll((els) => els.map((el) => ({
    index: Number(el.getAttribute('data-testid')!.replace('graph-pass-', '')),
    pass: el.getAttribute('data-pass') ?? '',
    changed: el.getAttribute('data-changed') === 'true',
    errors: Number(el.getAttribute('data-errors')),
  })));
}

/** Shows pass `index` on the right by clicking it in the pass list. */
export async function showPass(page: Page, index: number): Promise<void> {
  await page.getByTestId(`graph-pass-${index}`).click();
  await waitSide(page, 'right', index);
}

/** How many graph nodes a side draws (graph inputs and outputs not counted). */
export async function nodeCount(page: Page, side: Side): Promise<number> {
  return page.locator(`[data-testid="graph-canvas-${side}"] g.gnode[data-node]`).count();
}

/** The nodes a side draws that match a CSS selector suffix such as '.linked'. */
export async function sideNodes(page: Page, side: Side, filter = ''): Promise<{ node: string; op: string; cls: string }[]> {
  return page.locator(`[data-testid="graph-canvas-${side}"] g.gnode[data-node]${filter}`).evaluateAll((els) =>
    els.map((el) => ({ node: el.getAttribute('data-node')!, op: el.getAttribute('data-op')!, cls: el.getAttribute('class')! })));
}
