// The diff bomb of security issue 39, measured in Node: 20,000 identical lines inserted at the
// top of kernels/conv_hwc.c, diffed as the address bar does after every change of the edits.
// `npx tsx scripts/diff-bomb.ts [path/to/diff.ts]` prints the time and the peak memory (the
// process's peak resident set, which includes Node itself: about 50-60 MB).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { resourceUsage } from 'node:process';

const which = process.argv[2] ? path.resolve(process.argv[2]) : new URL('../src/ui/link/diff.ts', import.meta.url).pathname;
const { diffLines } = (await import(pathToFileURL(which).href)) as typeof import('../src/ui/link/diff');
const base = readFileSync(new URL('../src/compiler/kernels/conv_hwc.c', import.meta.url), 'utf8');
const edited = `${'x\n'.repeat(20_000)}${base}`;
const rss0 = resourceUsage().maxRSS;
const t0 = performance.now();
const hunks = diffLines(base, edited);
const ms = performance.now() - t0;
const rss = resourceUsage().maxRSS;
console.log(`${path.relative(process.cwd(), which)}: ${hunks.length} hunk(s), ${hunks.reduce((s, h) => s + h[3].length, 0)} lines inserted; ${ms.toFixed(1)} ms; peak RSS ${(rss / 1024).toFixed(0)} MB (${(rss0 / 1024).toFixed(0)} MB before the diff)`);
