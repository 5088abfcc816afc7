// npm run build:sim: generates the executor from the ISA table and compiles the wasm core
// (AssemblyScript) to src/sim/build/sim.wasm. Both outputs are build products (gitignored).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';
import { generateAs } from './generate';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const MEM_PAGES = 0x2c80000 / 65536; // MEM_END of src/sim/as/layout.ts

export async function buildSim(opts: { quiet?: boolean } = {}): Promise<string> {
  // Written under temporary names and renamed, so that test workers building at the same time
  // never see half a file.
  const tmp = `.tmp-${process.pid}`;
  mkdirSync(here('../as/gen'), { recursive: true });
  writeFileSync(here('../as/gen/exec.ts') + tmp, generateAs());
  renameSync(here('../as/gen/exec.ts') + tmp, here('../as/gen/exec.ts'));
  mkdirSync(here('../build'), { recursive: true });
  const out = here('../build/sim.wasm');
  const { error, stderr } = await asc.main([
    here('../as/index.ts'),
    '--outFile', out + tmp,
    ...(process.env.SIM_WAT ? ['--textFile', here('../build/sim.wat')] : []),
    '-O3', '--noAssert', '--runtime', 'stub',
    // Fixed size: MEM_END of src/sim/as/layout.ts (the host checks the two agree).
    '--initialMemory', String(MEM_PAGES),
    '--maximumMemory', String(MEM_PAGES),
    '--use', 'abort=',
  ], { stdout: process.stdout, stderr: process.stderr });
  if (error) throw new Error(`asc failed: ${error.message}\n${stderr.toString()}`);
  renameSync(out + tmp, out);
  if (!opts.quiet) process.stdout.write(`built ${out}\n`);
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildSim();
}
