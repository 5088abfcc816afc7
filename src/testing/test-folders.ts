// Node only, for tests: every folder the codegen acceptance tests walk: the shared Deeploy
// tests and the built-in models (generated first when `npm run models` has not run yet).
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildModels, DEFAULT_DIR, modelFiles, writeModels } from '../../scripts/models/generate';
import { findTestDirs, SHARED_TESTS } from './corpus';
import { missing, SHARED_TESTS as SHARED_TESTS_NEED } from './requires';

export interface TestFolder {
  dir: string;
  /** "Kernels/Integer/Add/Regular" or "models/adder". */
  name: string;
}

export function codegenTestFolders(): TestFolder[] {
  const root = fileURLToPath(SHARED_TESTS);
  // Without ../shared only the built-in models remain: said once, and an error under CI=true.
  const shared = !missing(SHARED_TESTS_NEED) ? findTestDirs().map((dir) => ({ dir, name: relative(root, dir) })) : [];
  if (!existsSync(join(DEFAULT_DIR, 'index.json'))) writeModels(DEFAULT_DIR, modelFiles(buildModels()));
  return [...shared, ...findTestDirs(DEFAULT_DIR).map((dir) => ({ dir, name: `models/${relative(DEFAULT_DIR, dir)}` }))];
}
