// Fingerprints of every run-sim configuration (src/cli/run-sim.test.ts's matrix, plus Generic on
// the host): per folder and flags, a hash of each generated C file, the simulated cycles, the
// program's output and the per-core instruction counts. A refactor that should change nothing
// is checked by running this before and after and comparing:
//   npx tsx scripts/fingerprint.ts > before.jsonl   (on the old commit)
//   npx tsx scripts/fingerprint.ts > after.jsonl    (on the new one)
//   npx tsx scripts/fingerprint.ts --compare before.jsonl after.jsonl
// It drives the CLI (`dpg run --json --out`), whose flags stay stable across refactors.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { dpg } from '../src/cli/main';
import { codegenTestFolders } from '../src/testing/test-folders';

interface Row {
  name: string;
  flags: string[];
  exit: number;
  files: Record<string, string>;
  cycles?: number;
  stdout?: string;
  instructions?: number[];
  error?: string;
}

const SMALL = (name: string) => !/microLlama64|microllama-prefill|KeywordSpotting/.test(name);

/** The run-sim matrix: [folder filter, flags]. */
function matrix(): { dir: string; name: string; flags: string[] }[] {
  const folders = codegenTestFolders();
  const runs: { dir: string; name: string; flags: string[] }[] = [];
  const add = (f: { dir: string; name: string }, flags: string[]) => runs.push({ ...f, flags });
  for (const f of folders) {
    add(f, ['-p', 'generic']);
    add(f, ['-p', 'siracusa', '--untiled', '--cores', '8']);
    add(f, ['-p', 'siracusa', '--cores', '8', '--l1', '64000']);
    add(f, ['-p', 'siracusa-neureka', '--l1', '64000', '--doublebuffer']);
    add(f, ['-p', 'siracusa-neureka', '--l1', '64000', '--doublebuffer', '--neureka-wmem']);
  }
  folders.filter((f, i) => SMALL(f.name) && i % 3 === 0).forEach((f) => {
    add(f, ['-p', 'siracusa', '--untiled', '--cores', '1']);
    add(f, ['-p', 'siracusa', '--cores', '8', '--l1', '8000', '--doublebuffer']);
    add(f, ['-p', 'siracusa', '--cores', '8', '--l1', '8000', '--defaultMemLevel', 'L3']);
  });
  folders.filter((f, i) => SMALL(f.name) && i % 3 === 1).forEach((f) => {
    add(f, ['-p', 'siracusa-neureka', '--untiled', '--neureka-wmem']);
    add(f, ['-p', 'siracusa-neureka', '--l1', '8000', '--cores', '1']);
  });
  return runs;
}

function hashTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(root, p)] = createHash('sha256').update(readFileSync(p)).digest('hex').slice(0, 16);
    }
  };
  walk(root);
  return out;
}

async function fingerprint(only?: RegExp) {
  for (const { dir, name, flags } of matrix()) {
    if (only && !only.test(name)) continue;
    const tmp = mkdtempSync(join(tmpdir(), 'dpg-fp-'));
    const lines: string[] = [];
    const errs: string[] = [];
    // Generic has no simulator runtime: its code is compared, not run.
    const command = flags[1] === 'generic' ? ['compile'] : ['run', '--cc', 'clang'];
    const exit = await dpg([...command, '-t', dir, '--json', '--out', tmp, ...flags], (s) => lines.push(s), (s) => errs.push(s));
    // Only the generated program is compared; the kernel library and runtime copies are files of the repo.
    const codegen = join(tmp, 'codegen');
    let files: Record<string, string> = {};
    try { files = Object.fromEntries(Object.entries(hashTree(codegen)).filter(([p]) => !/^(kernels|runtime)\//.test(p))); } catch { /* no code */ }
    const json = lines.filter((l) => l.startsWith('{') || l.startsWith(' ') || l.startsWith('}')).join('\n');
    let j: { run?: { cycles?: number; stdout?: string; sim?: { cores: { instructions: number }[] } }; error?: { what: string } } = {};
    try { j = JSON.parse(json); } catch { /* printed no JSON */ }
    const row: Row = {
      name, flags, exit, files, cycles: j.run?.cycles, stdout: j.run?.stdout,
      instructions: j.run?.sim?.cores.map((c) => c.instructions), error: j.error?.what ?? (exit ? errs.join(' ') : undefined),
    };
    process.stdout.write(JSON.stringify(row) + '\n');
    rmSync(tmp, { recursive: true, force: true });
  }
}

function compare(a: string, b: string) {
  const load = (f: string) => new Map(readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Row)
    .map((r) => [`${r.name} ${r.flags.join(' ')}`, r]));
  const before = load(a), after = load(b);
  let same = 0, differ = 0;
  for (const [key, x] of before) {
    const y = after.get(key);
    if (!y) { console.log(`missing after: ${key}`); differ++; continue; }
    const diffs: string[] = [];
    if (x.exit !== y.exit) diffs.push(`exit ${x.exit} -> ${y.exit}`);
    if (x.cycles !== y.cycles) diffs.push(`cycles ${x.cycles} -> ${y.cycles}`);
    if (x.stdout !== y.stdout) diffs.push('stdout differs');
    if (JSON.stringify(x.instructions) !== JSON.stringify(y.instructions)) diffs.push('instructions differ');
    const paths = new Set([...Object.keys(x.files), ...Object.keys(y.files)]);
    for (const p of paths) if (x.files[p] !== y.files[p]) diffs.push(`${p} ${x.files[p] ? (y.files[p] ? 'differs' : 'gone') : 'new'}`);
    if (diffs.length) { differ++; console.log(`${key}: ${diffs.join(', ')}`); } else same++;
  }
  for (const key of after.keys()) if (!before.has(key)) console.log(`new after: ${key}`);
  console.log(`${same} identical, ${differ} differ (of ${before.size} runs before, ${after.size} after)`);
  return differ === 0 ? 0 : 1;
}

const argv = process.argv.slice(2);
if (argv[0] === '--compare') process.exitCode = compare(argv[1], argv[2]);
else await fingerprint(argv[0] ? new RegExp(argv[0]) : undefined);
