// The Operator pane as a student drives it, shared by the lab's e2e and the hostile-kernel one.
import type { Page } from 'playwright-core';

/** Replaces the kernel editor's text as a paste does (typing would auto-indent and auto-close brackets). */
export async function pasteKernel(page: Page, code: string): Promise<void> {
  const host = page.locator('[data-testid="op-kernel-editor"] .op-editor-host');
  await page.waitForSelector('[data-testid="op-kernel-editor"][data-state="ready"]', { timeout: 30_000 });
  const box = (await host.boundingBox())!;
  await page.mouse.click(box.x + 200, box.y + 20);
  await page.keyboard.press('Control+A');
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, code);
  await page.waitForFunction((n) => document.querySelector('[data-testid="op-kernel-editor"]')?.getAttribute('data-chars') === String(n), code.length, { timeout: 10_000 });
}

/** Applies the operator's form and waits until the op is installed. */
export async function apply(page: Page): Promise<void> {
  await page.getByTestId('op-apply').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="op-status"]')?.getAttribute('data-state') === 'applied');
}
