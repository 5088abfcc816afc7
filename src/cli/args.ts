// Command-line flags: one table, shared by the parser and the help text. The names are
// Deeploy's runner flags (testRunner_tiled_siracusa.py and friends) so its users feel at home.
import { fail } from '../common/errors';
import type { Config, MemLevel, PlatformName } from '../compiler/config';
import { DEFAULT_CONFIG, PLATFORMS } from '../compiler/config';

export interface CliOptions {
  command: string;
  /** -t: a test folder (network.onnx, inputs.npz, outputs.npz) or an .onnx file. */
  test?: string;
  out?: string;
  json: boolean;
  /** C compiler for `run`: builtin (the playground's own, for the simulator; the default), clang (clang-19, for the simulator), host (this machine's cc, runs natively). */
  cc: 'builtin' | 'host' | 'clang';
  /** Linker of `--cc clang`: ld.lld-19 with the link script (default) or the playground's own (src/sim/link). */
  ld: 'lld' | 'builtin';
  /** --edit PATH=FILE: the program's file PATH (generated or library) replaced by FILE's text (--cc builtin). */
  edits: [path: string, file: string][];
  /** --profile: print where the cycles went, per layer; --trace / --csv FILE: write the timeline / the per-layer table. */
  profile: boolean;
  /** --ideal-fetch: the simulator's instruction cache never misses. */
  idealFetch: boolean;
  trace?: string;
  csv?: string;
  config: Config;
  help: boolean;
  /** --op-spec FILE / --kernel FILE: user operators (JSON specs) and their kernels, paired in order. */
  opSpecs: string[];
  kernels: string[];
  /** --simd-kernel FILE: the lab's last step's kernel. */
  simdKernel?: string;
  /** make-test: --shape per input, --attr name=value, --seed. */
  shapes: number[][];
  attrs: Record<string, number | number[]>;
  seed: number;
  /** cc: the C file. */
  file?: string;
  /** -O0 / -O1 / -O2: our compiler's level (cc; run --cc builtin). */
  optLevel?: 0 | 1 | 2;
  /** --disable NAME: optimisations not to run (cc; run --cc builtin). */
  disable: string[];
  /** cc: -I DIR, -D NAME[=VALUE], -o FILE, --passes. */
  includes: string[];
  defines: string[];
  output?: string;
  passes: boolean;
}

const shapeArg = (v: string): number[] => {
  const dims = v.split(/[x,]/).map(Number);
  if (!v || !dims.every((d) => Number.isInteger(d) && d >= 1)) fail('bad-config', `--shape expects dims like 1x16x64x64, got '${v}'`, '--shape');
  return dims;
};
const attrArg = (o: CliOptions, v: string) => {
  const m = /^([A-Za-z_]\w*)=(-?\d+(?:,-?\d+)*)$/.exec(v);
  if (!m) fail('bad-config', `--attr expects NAME=INT or NAME=INT,INT,..., got '${v}'`, '--attr');
  const vals = m[2].split(',').map(Number);
  o.attrs[m[1]] = m[2].includes(',') ? vals : vals[0];
};

interface Flag {
  names: string[];
  arg?: string;
  help: string;
  apply: (o: CliOptions, v: string) => void;
}

const bytes = (flag: string, v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) fail('bad-config', `${flag} expects a positive number of bytes, got '${v}'`, flag);
  return n;
};
const level = (flag: string, v: string): MemLevel => {
  if (v !== 'L2' && v !== 'L3') fail('bad-config', `${flag} expects L2 or L3, got '${v}'`, flag);
  return v;
};

export const FLAGS: Flag[] = [
  { names: ['-t', '--test'], arg: 'DIR|FILE', help: 'test folder (network.onnx, inputs.npz, outputs.npz) or an .onnx file',
    apply: (o, v) => { o.test = v; } },
  { names: ['-p', '--platform'], arg: PLATFORMS.join('|'), help: `target platform (default ${DEFAULT_CONFIG.platform})`,
    apply: (o, v) => {
      if (!(PLATFORMS as readonly string[]).includes(v)) fail('bad-config', `unknown platform '${v}'`, '-p', `use one of ${PLATFORMS.join(', ')}`);
      o.config.platform = v as PlatformName;
    } },
  { names: ['--cores'], arg: 'N', help: `cluster cores, 1-8 (default ${DEFAULT_CONFIG.cores})`,
    apply: (o, v) => { o.config.cores = Number(v); } },
  { names: ['--tiled'], help: 'tile every layer into L1 (Siracusa)', apply: (o) => { o.config.tiled = true; } },
  { names: ['--untiled'], help: 'run every layer from its home level without tiling', apply: (o) => { o.config.tiled = false; } },
  { names: ['--l1'], arg: 'BYTES', help: `L1 budget (default ${DEFAULT_CONFIG.l1})`, apply: (o, v) => { o.config.l1 = bytes('--l1', v); } },
  { names: ['--l2'], arg: 'BYTES', help: `L2 budget (default ${DEFAULT_CONFIG.l2})`, apply: (o, v) => { o.config.l2 = bytes('--l2', v); } },
  { names: ['--defaultMemLevel'], arg: 'L2|L3', help: 'home level of activations and weights (default L2)',
    apply: (o, v) => { o.config.defaultMemLevel = level('--defaultMemLevel', v); } },
  { names: ['--doublebuffer'], help: 'double-buffer tiles (DMA overlaps the kernel)', apply: (o) => { o.config.doubleBuffer = true; } },
  { names: ['--neureka-wmem'], help: 'place N-EUREKA weights in the weight memory', apply: (o) => { o.config.neurekaWmem = true; } },
  { names: ['--profileTiling'], arg: 'L2|L3', help: 'print per-tile DMA and kernel cycles',
    apply: (o, v) => { o.config.profileTiling = level('--profileTiling', v); } },
  { names: ['--cc'], arg: 'builtin|host|clang', help: 'C compiler for run: builtin (default) or clang (clang-19) build for the Siracusa simulator; host builds with cc and runs natively',
    apply: (o, v) => {
      if (v !== 'builtin' && v !== 'host' && v !== 'clang') fail('bad-config', `--cc expects builtin, host or clang, got '${v}'`, '--cc');
      o.cc = v;
    } },
  { names: ['--ld'], arg: 'lld|builtin', help: 'linker for --cc clang: lld (ld.lld-19, default) or builtin (the playground\'s own, same layout)',
    apply: (o, v) => {
      if (v !== 'lld' && v !== 'builtin') fail('bad-config', `--ld expects lld or builtin, got '${v}'`, '--ld');
      o.ld = v;
    } },
  { names: ['--edit'], arg: 'PATH=FILE', help: 'build FILE instead of the program\'s PATH (Network.c, kernels/gemm.c, ...), as the code pane\'s edits (--cc builtin; repeatable)',
    apply: (o, v) => {
      const eq = v.indexOf('=');
      if (eq <= 0 || eq === v.length - 1) fail('bad-config', `--edit expects PATH=FILE, got '${v}'`, '--edit', 'e.g. --edit kernels/gemm.c=./gemm.c');
      o.edits.push([v.slice(0, eq), v.slice(eq + 1)]);
    } },
  { names: ['--profile'], help: 'profile the simulated run: per layer its cycles by phase (DMA in, DMA wait, kernel, DMA out, control), tiles, the workers\' stalls',
    apply: (o) => { o.profile = true; } },
  { names: ['--ideal-fetch'], help: 'run with an instruction cache that never misses (the simulator models GVSoC\'s: 512 B L0 per core, 4 KiB shared L1, refills from L2)',
    apply: (o) => { o.idealFetch = true; } },
  { names: ['--trace'], arg: 'FILE', help: 'write the run\'s timeline as Chrome trace-event JSON (Perfetto, chrome://tracing); profiles the run',
    apply: (o, v) => { o.trace = v; o.profile = true; } },
  { names: ['--csv'], arg: 'FILE', help: 'write the profile\'s per-layer table as CSV; profiles the run',
    apply: (o, v) => { o.csv = v; o.profile = true; } },
  { names: ['--op-spec'], arg: 'FILE', help: 'a user operator\'s spec (JSON: op, attrs with ranges, inputs, output, shape rule, semantics, tiling rules); repeatable',
    apply: (o, v) => { o.opSpecs.push(v); } },
  { names: ['--kernel'], arg: 'FILE', help: 'the C kernel of the --op-spec at the same position; repeatable', apply: (o, v) => { o.kernels.push(v); } },
  { names: ['--simd-kernel'], arg: 'FILE', help: 'lab: the SIMD kernel of the last step', apply: (o, v) => { o.simdKernel = v; } },
  { names: ['--shape'], arg: 'DIMS', help: 'make-test: an input\'s shape, e.g. 1x16x64x64 (one per input, in order)', apply: (o, v) => { o.shapes.push(shapeArg(v)); } },
  { names: ['--attr'], arg: 'NAME=V', help: 'make-test: an attribute of the node (V an integer or a comma list); repeatable', apply: attrArg },
  { names: ['--seed'], arg: 'N', help: 'make-test: the inputs\' random seed (default 1)', apply: (o, v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) fail('bad-config', `--seed expects a non-negative integer, got '${v}'`, '--seed');
    o.seed = n;
  } },
  { names: ['-O0'], help: 'our C compiler without optimisations (cc; run --cc builtin)', apply: (o) => { o.optLevel = 0; } },
  { names: ['-O1'], help: 'our C compiler\'s cheap optimisations only (cc; run --cc builtin)', apply: (o) => { o.optLevel = 1; } },
  { names: ['-O2'], help: 'all of our C compiler\'s optimisations (the default)', apply: (o) => { o.optLevel = 2; } },
  { names: ['--disable'], arg: 'NAME', help: 'turn one of our C compiler\'s optimisations off (see dpg cc --passes; repeatable; cc, run --cc builtin)',
    apply: (o, v) => { o.disable.push(v); } },
  { names: ['--passes'], help: 'cc: print our C compiler\'s optimisations in the order they run', apply: (o) => { o.passes = true; } },
  { names: ['-I'], arg: 'DIR', help: 'cc: an include folder (repeatable; the kernel library\'s, the runtime\'s and the libc\'s are searched anyway)',
    apply: (o, v) => { o.includes.push(v); } },
  { names: ['-D'], arg: 'NAME[=V]', help: 'cc: define a macro (repeatable; DPG_XPULP is defined)', apply: (o, v) => { o.defines.push(v); } },
  { names: ['-o'], arg: 'FILE', help: 'cc: write the assembly to FILE instead of printing it', apply: (o, v) => { o.output = v; } },
  { names: ['--out'], arg: 'DIR', help: 'write every stage\'s artifacts to DIR', apply: (o, v) => { o.out = v; } },
  { names: ['--json'], help: 'print the results as one JSON object', apply: (o) => { o.json = true; } },
  { names: ['-h', '--help'], help: 'show this help', apply: (o) => { o.help = true; } },
];

export const COMMANDS: { name: string; usage: string; help: string }[] = [
  { name: 'run', usage: 'run -t DIR [flags]', help: 'compile and run (--cc host: natively; otherwise on the simulator), print Runtime and Errors (exit 0 iff no errors)' },
  { name: 'compile', usage: 'compile -t DIR --out OUT [flags]', help: 'compile and write every stage\'s artifacts to OUT' },
  { name: 'reference', usage: 'reference -t DIR', help: 'run the bit-exact reference interpreter and compare with outputs.npz' },
  { name: 'lab', usage: 'lab --op-spec F --kernel F --simd-kernel F [-t DIR]', help: 'the new-operator lab\'s four runs (1 core, 8 cores untiled, tiled at L1 32768, SIMD): a table of cycles and speedups beside the tutorial\'s GVSoC figures (exit 0 iff every run has no errors)' },
  { name: 'make-test', usage: 'make-test --op-spec F --shape DIMS [--attr N=V] --out DIR', help: 'write a one-node test of a user op (network.onnx, seeded inputs.npz, outputs.npz from its semantics) to DIR' },
  { name: 'cc', usage: 'cc FILE.c [-O0|-O1|-O2] [-I DIR] [-D X] [--disable NAME] [-o OUT.s]', help: 'compile one C file with the playground\'s own compiler for Siracusa (CORE-V) and print its assembly; --passes lists the optimisations' },
  { name: 'help', usage: 'help', help: 'show this help' },
];

export function parseArgs(argv: string[]): CliOptions {
  const o: CliOptions = {
    command: '', json: false, cc: 'builtin', ld: 'lld', edits: [], profile: false, idealFetch: false, config: { ...DEFAULT_CONFIG }, help: false, opSpecs: [], kernels: [], shapes: [], attrs: {}, seed: 1,
    disable: [], includes: [], defines: [], passes: false,
  };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let inline: string | undefined;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) { inline = a.slice(eq + 1); a = a.slice(0, eq); }
    // A compiler's joined forms: -Idir, -DNAME=V.
    else if (/^-[ID]./.test(a)) { inline = a.slice(2); a = a.slice(0, 2); }
    const flag = FLAGS.find((f) => f.names.includes(a));
    if (flag) {
      let v = '';
      if (flag.arg) {
        v = inline ?? argv[++i];
        if (v === undefined) fail('bad-config', `${a} needs a value (${flag.arg})`, a);
      } else if (inline !== undefined) fail('bad-config', `${a} takes no value`, a);
      flag.apply(o, v);
    } else if (a.startsWith('-')) {
      fail('bad-config', `unknown flag '${a}'`, 'command line', "see 'dpg --help'");
    } else if (!o.command) {
      o.command = a;
    } else if (o.command === 'cc' && o.file === undefined) {
      o.file = a;
    } else {
      fail('bad-config', `unexpected argument '${a}'`, 'command line', "see 'dpg --help'");
    }
  }
  if (o.command === 'help') o.help = true;
  if (o.kernels.length > o.opSpecs.length) fail('bad-config', `${o.kernels.length} --kernel files for ${o.opSpecs.length} --op-spec files`, '--kernel', 'each --kernel goes with the --op-spec at the same position');
  if (o.simdKernel && o.command !== 'lab') fail('bad-config', '--simd-kernel is for the lab command', '--simd-kernel');
  if (o.command === 'make-test' && (o.opSpecs.length !== 1 || !o.out || o.shapes.length === 0))
    fail('bad-config', 'make-test needs one --op-spec, a --shape per input and --out DIR', 'make-test');
  if (o.command === 'lab' && (o.opSpecs.length !== 1 || o.kernels.length !== 1 || !o.simdKernel))
    fail('bad-config', 'the lab needs one --op-spec, its --kernel and a --simd-kernel', 'lab', 'e.g. dpg lab --op-spec src/pipeline/lab/ileakyrelu.json --kernel src/pipeline/lab/scalar.c --simd-kernel src/pipeline/lab/simd.c');
  if (o.edits.length && o.cc !== 'builtin') fail('bad-config', `--edit needs --cc builtin, not --cc ${o.cc}`, '--edit');
  if (o.profile && o.cc === 'host') fail('bad-config', 'a native (--cc host) run has no simulator to profile it', o.trace ? '--trace' : o.csv ? '--csv' : '--profile', 'use --cc builtin or clang');
  if (o.idealFetch && o.cc === 'host') fail('bad-config', 'a native (--cc host) run has no simulated instruction cache to make ideal', '--ideal-fetch', 'use --cc builtin or clang');
  if (o.idealFetch && o.command && o.command !== 'run') fail('bad-config', `--ideal-fetch changes how a run is simulated, not '${o.command}'`, '--ideal-fetch');
  if (o.profile && o.command && o.command !== 'run') fail('bad-config', `--profile, --trace and --csv profile a run, not '${o.command}'`, '--profile');
  const ccOnly = o.includes.length ? '-I' : o.defines.length ? '-D' : o.output !== undefined ? '-o' : o.passes ? '--passes' : undefined;
  if (ccOnly && o.command !== 'cc') fail('bad-config', `a flag of the cc command, not of '${o.command}'`, ccOnly);
  const builtinOnly = o.optLevel !== undefined ? '-O' : o.disable.length ? '--disable' : undefined;
  if (builtinOnly && o.command !== 'cc' && !(o.command === 'run' && o.cc === 'builtin'))
    fail('bad-config', `sets our C compiler: it is for cc and run --cc builtin, not '${o.command}${o.command === 'run' ? ` --cc ${o.cc}` : ''}'`, builtinOnly);
  if (o.command === 'cc' && o.file === undefined && !o.passes && !o.help) fail('bad-config', 'cc needs a C file', 'cc', 'e.g. dpg cc kernels/gemm.c -O2, or dpg cc --passes');
  if (o.command && !o.help && !COMMANDS.some((c) => c.name === o.command))
    fail('bad-config', `unknown command '${o.command}'`, 'command line', `use one of ${COMMANDS.map((c) => c.name).join(', ')}`);
  return o;
}

export function helpText(): string {
  const lines = [
    'dpg: Deeploy Playground from the command line (the same pipeline as the browser app)',
    '',
    'Usage: npm run dpg -- <command> [flags]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.usage.padEnd(44)} ${c.help}`),
    '',
    'Flags:',
    ...FLAGS.map((f) => `  ${(f.names.join(', ') + (f.arg ? ` ${f.arg}` : '')).padEnd(44)} ${f.help}`),
    '',
    'Exit status: 0 success, 1 output errors, 2 bad input or configuration (a compile error: file:line:col), 3 something the playground does not do, 4 an internal error.',
  ];
  return lines.join('\n');
}
