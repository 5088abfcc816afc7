// The kernel library, the runtime and the tiny libc from disk, as the in-memory file system our C
// compiler reads (src/sim/fuzz-stages.ts: CLibrary), at /lib/<folder under src/compiler>/<file>.
// Node only.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesFrom } from '../sim/cc/fs';
import type { CLibrary } from '../sim/fuzz-stages';

const COMPILER = fileURLToPath(new URL('../compiler/', import.meta.url));
const DIRS = ['kernels', 'runtime', 'runtime/siracusa', 'runtime/libc', 'runtime/libc/include'];

export function loadCLibrary(): CLibrary {
  const files = new Map<string, string>();
  for (const d of DIRS)
    for (const f of readdirSync(join(COMPILER, d)))
      if (/\.[chS]$/.test(f)) files.set(`/lib/${d}/${f}`, readFileSync(join(COMPILER, d, f), 'utf8'));
  return { files: filesFrom(files), includePaths: ['/lib/kernels', '/lib/runtime', '/lib/runtime/siracusa'], systemPaths: ['/lib/runtime/libc/include'] };
}
