// The layering `npm test` enforces (`npm run lint:deps`). Each layer imports only layers to its
// left:
//
//   common <- compiler <- sim <- pipeline <- worker, cli <- ui
//
// - common and compiler are pure TypeScript libraries: no Node built-in module (the browser runs
//   them), nothing above them;
// - sim is the simulator, the playground's toolchain and, under src/sim/run/, the run stage's
//   runners: builtin.ts (pure) and the Node-only ones (clang-19 and simulate, host build, the
//   builtin run's disk cache in builtin-node.ts);
// - pipeline runs the stages; its Node-only adapters (GLPK from disk) sit in src/pipeline/node/;
// - worker and cli are the pipeline's two hosts (browser, Node) and never import each other;
// - ui may import the worker and the layers left of it (their types, mostly), never the CLI nor
//   anything Node-only.
//
// The exemptions, each named:
// - tests (*.test.ts, *.test.tsx) may import any layer and Node built-ins: a test of a layer often
//   drives it through a layer above it (a kernel test built and run by the host runner in sim/run);
// - src/testing/ holds Node-only test helpers (test folders, the corpus, the tiled harness): it may
//   import any layer below the hosts, and only tests, bench/ and scripts/ may import it.

const TEST = '\\.test\\.tsx?$';
const layers = ['common', 'compiler', 'sim', 'pipeline', 'worker', 'cli', 'ui'];

/** `from` may not import `to` (both folder names under src/). */
const upward = (from, to, comment) => ({
  name: `${from}-not-to-${to.join('-')}`,
  comment,
  severity: 'error',
  from: { path: `^src/${from}/`, pathNot: TEST },
  to: { path: `^src/(${to.join('|')})/` },
});

/** Modules that only run in Node: the runners, the Node adapters, the CLI, the test helpers. */
const NODE_ONLY = '^src/(sim/run/(host|simulate|builtin-node)\\.ts|sim/node\\.ts|sim/testing/|sim/gen/|pipeline/node/|cli/|testing/)';

module.exports = {
  forbidden: [
    upward('common', layers.slice(1), 'common is the bottom layer: it imports no other layer'),
    upward('compiler', layers.slice(2), 'the compiler imports only common'),
    upward('sim', layers.slice(3), 'the simulator and its runners import only compiler and common'),
    upward('pipeline', layers.slice(4), 'the pipeline imports only sim, compiler and common'),
    upward('worker', ['cli', 'ui'], 'the worker hosts the pipeline in the browser: not the CLI, not the UI'),
    upward('cli', ['worker', 'ui'], 'the CLI hosts the pipeline in Node: not the worker, not the UI'),
    {
      name: 'no-node-in-libraries',
      comment: 'src/common and src/compiler run in the browser: no Node built-in module (fs, path, child_process, os, url, ...)',
      severity: 'error',
      from: { path: '^src/(common|compiler)/', pathNot: TEST },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-node-in-browser',
      comment: 'the UI and the worker run in the browser: no Node built-in module and no Node-only module',
      severity: 'error',
      from: { path: '^src/(ui|worker)/', pathNot: TEST },
      to: { path: [NODE_ONLY, '^(node:)?(fs|path|os|url|child_process|crypto|module|worker_threads|util|stream|process)(/|$)'] },
    },
    {
      name: 'node-only-not-in-library',
      comment: 'common and compiler reach no Node-only module, even through another file',
      severity: 'error',
      from: { path: '^src/(common|compiler)/', pathNot: TEST },
      to: { path: NODE_ONLY, reachable: true },
    },
    {
      name: 'browser-reaches-no-node-only',
      comment: 'nothing the UI or the worker imports, at any depth, is Node-only',
      severity: 'error',
      from: { path: '^src/(ui|worker)/', pathNot: TEST },
      to: { path: NODE_ONLY, reachable: true },
    },
    {
      name: 'testing-helpers-only-for-tests',
      comment: 'exemption 2: src/testing (Node-only test helpers) is imported by tests, bench/ and scripts/ only',
      severity: 'error',
      from: { path: '^src/', pathNot: [TEST, '^src/testing/'] },
      to: { path: '^src/testing/' },
    },
    {
      name: 'testing-helpers-below-hosts',
      comment: 'src/testing may use any layer below the hosts',
      severity: 'error',
      from: { path: '^src/testing/' },
      to: { path: '^src/(ui|cli|worker)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|src/sim/build|src/sim/as)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
