// The code pane (issue #6: "keep the editor responsive: measure opening the microLlama weights
// file"). Chromium: the built app compiles the built-in microllama-prefill for Siracusa and the
// code pane opens Network_weights.c (~2.3 MB, 34,000 lines) for the first time; the figure is
// what the pane measures around it (the Monaco model made, the fold ranges computed, the long
// arrays folded, one frame drawn). Baseline: the fold ranges alone (braceBlocks + defaultFolds)
// on the same text in Node, best of 3.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { testDataFor } from '../src/compiler/codegen/test-data';
import { generateWithPlan } from '../src/testing/tiled-harness';
import { bindNpzInputs } from '../src/compiler/interpret/npz-io';
import { lowerGraph } from '../src/compiler/lower/lower';
import { readNpz } from '../src/compiler/npz';
import { readOnnx } from '../src/compiler/onnx/read';
import { inferTypes } from '../src/compiler/shapes/infer';
import { DEFAULT_CONFIG } from '../src/compiler/config';
import { braceBlocks, defaultFolds } from '../src/ui/panes/code/folds';
import { ROOT } from '../e2e/browser';
import { inChromium } from './browser';
import type { Bench, BenchRow } from './harness';
import { timeBest } from './harness';

const MODEL = 'microllama-prefill';
const FILE = 'Network_weights.c';

/** The weights file codegen writes for the built-in model, generated here in Node from its memory plan. */
async function weightsText(): Promise<string> {
  const dir = path.join(ROOT, 'public/models', MODEL);
  const read = (f: string) => new Uint8Array(readFileSync(path.join(dir, f)));
  const graph = inferTypes(readOnnx(read('network.onnx'), 'network.onnx'));
  const inputs = bindNpzInputs(graph, readNpz(read('inputs.npz'), 'inputs.npz'), 'inputs.npz').inputs;
  const config = { ...DEFAULT_CONFIG, platform: 'siracusa' as const };
  const lower = lowerGraph(graph, config, { inputs, check: 'none' });
  const code = await generateWithPlan(lower, testDataFor(graph, lower, inputs, readNpz(read('outputs.npz'), 'outputs.npz')), config);
  return code.files.find((f) => f.path === FILE)!.content;
}

export const codePaneBench: Bench = {
  name: 'codepane',
  run: async () => {
    const text = await weightsText();
    let folds = 0;
    const nodeMs = await timeBest(() => { folds = defaultFolds(braceBlocks(text)).length; });
    const chromium = await inChromium(async (page) => {
      await page.getByTestId('model-picker').selectOption(MODEL);
      await page.waitForFunction((m) => new URL(location.href).searchParams.get('m') === m
        && document.querySelector('[data-testid="run-status"]')?.getAttribute('data-status') !== 'loading', MODEL);
      await page.getByTestId('cfg-platform').selectOption('siracusa');
      await page.getByTestId('compile-button').click();
      await page.waitForSelector('[data-testid="code-editor"][data-state="ready"]', { timeout: 120_000 });
      await page.getByTestId(`code-tab-${FILE}`).click();
      await page.waitForFunction((f) => {
        const ed = document.querySelector('[data-testid="code-editor"]');
        return ed?.getAttribute('data-file') === f && ed.getAttribute('data-open-ms') !== '';
      }, FILE);
      const ed = page.getByTestId('code-editor');
      return { ms: Number(await ed.getAttribute('data-open-ms')), info: await page.getByTestId('code-file-info').textContent() };
    });
    const name = `code pane: first open of ${MODEL} ${FILE} (Chromium, Monaco)`;
    const baseline = { name: 'fold ranges of the same text in Node', value: nodeMs };
    const size = `${(text.length / 1024 / 1024).toFixed(2)} MB, ${folds} arrays folded`;
    const row: BenchRow = 'skipped' in chromium
      ? { name, value: NaN, unit: 'ms', baseline, note: `${size}; ${chromium.skipped}` }
      : { name, value: chromium.result.ms, unit: 'ms', baseline, note: chromium.result.info ?? size };
    return [row];
  },
};
