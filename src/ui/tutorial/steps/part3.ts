// Part III: a new operator, iLeakyReLU (tutorial.md Part III), done in the Operator pane instead
// of a container and five source files. The student defines the op and its test, narrows the
// attributes to what the kernels honour, writes a plain C kernel, runs it on 1 and 8 cores, tiled,
// adds a tiling rule for SIMD and writes the SIMD kernel; the lab table collects the cycles of
// each step from the student's own runs (lab.ts). Every expected number is measured.
import { LAB_STEPS } from '../../../pipeline/lab';
import type { UserOp } from '../../../compiler/ops/user/spec';
import { fmt, numberItem, SPEEDUP_TOLERANCE, SPEEDUP_TOLERANCE_TEXT, stateItem, textItem, times, verdict } from '../answers';
import { kernelKind, type LabLog } from '../lab';
import type { Answers, AppView, CheckItem, Step, World } from '../types';
import { freshCompile, selectedNode, snapshotsOf } from '../world';

export const LAB_OP = 'iLeakyReLU';
export const LAB_SHAPE = [1, 16, 64, 64];

const speedupQuestion = (id: string, label: string) => ({ id, label, kind: 'number' as const, unit: '×', tolerance: SPEEDUP_TOLERANCE_TEXT });

/** The student's operator: the applied op named iLeakyReLU. */
const labOp = (app: AppView): UserOp | undefined => app.ops?.find((o) => o.spec.op === LAB_OP);

const cyclesOf = (lab: LabLog | undefined, id: string) => lab?.[id]?.cycles;
const ratioOf = (lab: LabLog | undefined, a: string, b: string) => {
  const x = cyclesOf(lab, a), y = cyclesOf(lab, b);
  return x !== undefined && y !== undefined && y > 0 ? x / y : undefined;
};
const title = (id: string) => LAB_STEPS.find((s) => s.id === id)?.title ?? id;
const gvsoc = (id: string) => LAB_STEPS.find((s) => s.id === id)?.gvsoc;

function rowItem(w: World, id: string, todo: string): CheckItem {
  const e = w.lab?.[id];
  return stateItem(`row-${id}`, `a run: ${title(id)}, Errors 0`, e !== undefined, e ? `${fmt(e.cycles)} cycles (${e.model})` : '', todo);
}

const STEP_IDS = LAB_STEPS.map((s) => s.id);
const [BASE, CORES8, TILED, SIMD] = [STEP_IDS[0]!, STEP_IDS[1]!, STEP_IDS[2]!, STEP_IDS[3]!];

const SETUP = (id: string, label: string) => {
  const s = LAB_STEPS.find((x) => x.id === id)!;
  return { id, label, config: { platform: 'siracusa' as const, ...s.config }, preset: 'operator' };
};

/** The test model's node of the op: in the graph the parse stage read, with its input's shape. */
function labNode(app: AppView): { name: string; shape: number[] } | null {
  const g = app.stages.parse.result?.graph;
  const n = g?.nodes.find((x) => x.op === LAB_OP);
  if (!g || !n) return null;
  const input = n.inputs[0] ?? '';
  const shape = g.types[input]?.shape ?? g.inputs.find((v) => v.name === input)?.shape ?? [];
  return { name: n.name, shape };
}

const define: Step = {
  id: 'op-define',
  part: 3,
  title: 'Define iLeakyReLU and make its test',
  goal: 'A new operator starts as a contract: its name, its attributes, its types and what it computes, element by element. The playground turns that contract into a one-node test with golden outputs, as Deeploy\'s test generator does.',
  tasks: [
    'Press Set up: the Operator pane comes to the front.',
    'In the form: op type iLeakyReLU; attributes mul and shift (int); input x int8, output y int8; shape rule "elementwise, one input"; semantics x >= 0 ? x : (mul * x) >> shift. Apply.',
    'In Test model: shape 1x16x64x64, mul 1, shift 3, any seed. Make test model: it becomes the loaded model.',
    'Find its single node in the Graph pane and click it.',
  ],
  setups: [{ id: 'operator', label: 'Operator pane', config: {}, preset: 'operator' }],
  questions: [{ id: 'values', label: 'How many int8 values does the test\'s input hold', kind: 'number' }],
  check(w: World, a: Answers) {
    const op = labOp(w.app);
    const attrs = new Map(op?.spec.attrs.map((x) => [x.name, x]) ?? []);
    const node = labNode(w.app);
    const sel = selectedNode(w.app);
    const typesOk = op !== undefined && op.spec.inputs.length === 1 && op.spec.inputs[0]!.dtype === 'int8' && op.spec.output.dtype === 'int8' && op.spec.shape === 'unary';
    const items: CheckItem[] = [
      stateItem('op', 'the operator iLeakyReLU is applied', op !== undefined, 'applied', 'fill in the form (op type iLeakyReLU) and press Apply'),
      stateItem('attrs', 'attributes mul and shift, integers', attrs.get('mul')?.kind === 'int' && attrs.get('shift')?.kind === 'int', 'mul, shift',
        'add the attributes mul and shift, kind int'),
      stateItem('types', 'int8 in, int8 out, elementwise', typesOk, 'x: int8 -> y: int8', 'one input of int8, the output int8, the shape rule "elementwise, one input"'),
      stateItem('model', 'its test model is loaded (1x16x64x64)', node !== null && node.shape.join('x') === LAB_SHAPE.join('x'),
        node ? `${node.name}: input ${node.shape.join('x')}` : '', 'in Test model, shape 1x16x64x64, then Make test model'),
      stateItem('selected', 'its node is selected in the graph', sel?.op === LAB_OP, sel ? `${sel.name} selected` : '', 'click the node in the Graph pane'),
      numberItem(a, 'values', 'values in the input', node ? node.shape.reduce((p, x) => p * x, 1) : undefined, { abs: 0 }, 'multiply the dimensions of the input\'s shape'),
    ];
    return verdict(items, () => [
      `The test holds one ${LAB_OP} node on ${node!.shape.join('x')} int8 values; its golden outputs were computed by the reference interpreter from your expression, so the reference stage checks them against the same semantics, and every kernel you write is checked against them.`,
      'In Deeploy this step is a Python script writing network.onnx, inputs.npz and outputs.npz: Download test folder saves exactly that.',
    ]);
  },
};

const parser: Step = {
  id: 'op-parser',
  part: 3,
  title: 'Refuse what the kernels cannot do',
  goal: 'The kernels you will write handle mul = 1 and shifts from 0 to 7 only. The parser is where such limits belong: a node outside them is refused with a message when the model loads, not miscomputed later.',
  tasks: [
    'Give mul the range 1..1 and shift the range 0..7 (min and max in the attribute rows). Apply.',
    'Try it: make a test with shift 9. The banner names the node, the attribute and the allowed range. Then make the shift 3 test again.',
  ],
  setups: [],
  questions: [],
  check(w: World) {
    const op = labOp(w.app);
    const attr = (n: string) => op?.spec.attrs.find((x) => x.name === n);
    const mul = attr('mul'), shift = attr('shift');
    const items: CheckItem[] = [
      stateItem('mul', 'mul is limited to 1', mul?.min === 1 && mul.max === 1, 'mul in 1..1', 'set mul\'s min and max to 1, then Apply'),
      stateItem('shift', 'shift is limited to 0..7', shift?.min === 0 && shift.max === 7, 'shift in 0..7', 'set shift\'s min to 0 and max to 7, then Apply'),
      stateItem('model', 'a valid test model is loaded', labNode(w.app) !== null, 'loaded', 'make the test model again (shift 3)'),
    ];
    return verdict(items, () => ['A node with mul 2 or shift 8 no longer loads: the parse stage names it and the range, before anything is lowered, tiled or compiled.']);
  },
};

const scalar: Step = {
  id: 'op-scalar',
  part: 3,
  title: 'A plain C kernel on one core',
  goal: 'The kernel gets the whole tensor and splits it itself: each core takes a contiguous share of ceil(size / cores) elements. Start on one core, untiled (everything in L2): the baseline of the table.',
  tasks: [
    'In the kernel editor, press New from skeleton: the signature codegen calls and the split over the cores are written for you.',
    'Write the loop body: y[i] = x[i] >= 0 ? x[i] : (mul * x[i]) >> shift. Apply.',
    'Press Set up (1 core, untiled) and Compile & run: the run must end with Errors: 0.',
  ],
  setups: [SETUP(BASE, '1 core, untiled')],
  questions: [],
  check(w: World) {
    const op = labOp(w.app);
    const items: CheckItem[] = [
      stateItem('kernel', 'a scalar kernel is applied', op !== undefined && op.kernel.trim() !== '' && kernelKind(op.kernel) === 'scalar', 'scalar', 'write the kernel and Apply'),
      rowItem(w, BASE, 'press Set up and Compile & run; a compile error names the kernel\'s line, a wrong result shows the first mismatches'),
    ];
    return verdict(items, () => [`One core, all data in L2: ${fmt(cyclesOf(w.lab, BASE)!)} cycles (Deeploy's GVSoC run of the same lab: ${fmt(gvsoc(BASE)!)}).`]);
  },
};

const cores: Step = {
  id: 'op-cores',
  part: 3,
  title: 'Bound to the cluster: 8 cores',
  goal: 'The binding says int8 in, int8 out, and forks the kernel over the cluster\'s cores; each core runs the same function on its share.',
  tasks: ['Press Set up (8 cores, untiled) and Compile & run.', 'Type the speedup over one core.'],
  setups: [SETUP(CORES8, '8 cores, untiled')],
  questions: [speedupQuestion('speedup', 'Speedup of 8 cores over 1')],
  check(w: World, a: Answers) {
    const r = ratioOf(w.lab, BASE, CORES8);
    const items: CheckItem[] = [
      rowItem(w, BASE, 'run the previous step first'),
      rowItem(w, CORES8, 'press Set up and Compile & run'),
      numberItem(a, 'speedup', 'speedup', r, SPEEDUP_TOLERANCE, 'the 1-core Runtime divided by the 8-core one'),
    ];
    return verdict(items, () => [`${times(r!)} on 8 cores. Not 8×: every core reads and writes L2, whose latency and bandwidth the cores share, and the fork and the final barrier are paid once per layer.`]);
  },
};

const tiled: Step = {
  id: 'op-tiled',
  part: 3,
  title: 'Tiled into L1',
  goal: 'With the template\'s geometry (a tile of the output reads the same tile of the input), the tiler cuts the tensor into tiles that fit L1, moved in and out by DMA; the kernel then reads one-cycle L1 instead of L2.',
  tasks: ['Press Set up (8 cores, tiled, L1 32768) and Compile & run.', 'In the Memory pane, the tiling table shows the tile the solver chose.', 'Type the speedup over the untiled 8-core run.'],
  setups: [SETUP(TILED, '8 cores, tiled, L1 32768')],
  questions: [speedupQuestion('speedup', 'Speedup of tiling over 8 cores untiled')],
  check(w: World, a: Answers) {
    const r = ratioOf(w.lab, CORES8, TILED);
    const items: CheckItem[] = [
      rowItem(w, CORES8, 'run the previous step first'),
      rowItem(w, TILED, 'press Set up and Compile & run'),
      numberItem(a, 'speedup', 'speedup', r, SPEEDUP_TOLERANCE, 'the untiled 8-core Runtime divided by the tiled one'),
    ];
    return verdict(items, () => [`${times(r!)} from tiling: the DMA moves each tile while the controller waits, but the cores then compute on L1.`]);
  },
};

/** The op's tiling in the last compile, when it is fresh and used the applied op. */
function opTiling(app: AppView) {
  const plan = app.stages.tile.result;
  if (!plan || !freshCompile(app) || (app.compiledOps !== undefined && app.compiledOps !== app.ops)) return undefined;
  const finals = new Set(snapshotsOf(app).at(-1)?.nodes.filter((n) => n.op.includes(LAB_OP)).map((n) => n.name) ?? []);
  return plan.tilings.find((t) => finals.has(t.node) || t.op.includes(LAB_OP)) ?? (plan.tilings.length === 1 ? plan.tilings[0] : undefined);
}

const rule: Step = {
  id: 'op-rule',
  part: 3,
  title: 'A tiling rule for SIMD',
  goal: 'A SIMD kernel handles 4 int8 values per instruction, so each core\'s share should be a multiple of 4: with 8 cores, the innermost tile dimension a multiple of 16 (or more). A correct result does not show the rule worked: the tile shape does.',
  tasks: [
    'At L1 32768, and at 16000 too (Set up, Compile & run), the solver keeps whole 64-wide rows: cutting inside a row would cost a DMA command per row. The innermost dimension is already a multiple of 16.',
    'Add a tiling rule: axis -1, multiple of 16. Apply, and Compile & run again: the tile shape stays, the rule is met as it is (e.g. 1x8x13x64 at L1 16000). Type the shape. To see a rule move the tile, add one the solver\'s choice does not meet, e.g. axis 2 (rows), multiple of 16.',
    'Back at L1 32768 (Set up), the rule holds with whole rows: that is the tiling the SIMD kernel runs with.',
  ],
  setups: [{ id: 'l1-16000', label: '8 cores, tiled, L1 16000', config: { platform: 'siracusa' as const, cores: 8, tiled: true, l1: 16000 }, preset: 'operator' },
    SETUP(TILED, '8 cores, tiled, L1 32768')],
  questions: [{ id: 'tile', label: 'The tile shape of your last compile', kind: 'text' }],
  check(w: World, a: Answers) {
    const op = labOp(w.app);
    const has = op?.spec.tiling.some((r) => (r.axis === -1 || r.axis === LAB_SHAPE.length - 1) && r.multiple !== undefined && r.multiple % 16 === 0) ?? false;
    const t = opTiling(w.app);
    const last = t?.tile.at(-1);
    const items: CheckItem[] = [
      stateItem('rule', 'a rule: axis -1, a multiple of 16', has, 'applied', 'add the rule, then Apply'),
      stateItem('compiled', 'a tiled compile with it', has && t !== undefined && t.tiles > 0, t ? `${t.tiles} tiles of ${t.tile.join('x')}` : '',
        'compile (tiled, L1 32768) after applying the rule'),
      stateItem('multiple', 'the innermost tile dimension is a multiple of 16', last !== undefined && last % 16 === 0, `${last}`, 'compile with the rule applied'),
      textItem(a, 'tile', 'the tile shape', t ? [t.tile.join('x'), t.tile.join(', '), `[${t.tile.join(', ')}]`, t.tile.join(' x ')] : undefined,
        'read the tile column of the layer\'s row in the Memory pane'),
    ];
    return verdict(items, () => [`Tiles of ${t!.tile.join('x')}: ${t!.tile.reduce((p, x) => p * x, 1) / 8} values per core per tile, a multiple of 4, so no core's share ends in the middle of a word.`]);
  },
};

const simd: Step = {
  id: 'op-simd',
  part: 3,
  title: 'The SIMD kernel',
  goal: 'For shift >= 0, LeakyReLU(x) = max(x, x >> shift): two packed instructions on 4 lanes (an arithmetic shift and a signed max), with the work split by 4-element vectors and the tail done by core 0.',
  tasks: [
    'Rewrite the kernel with packed operations (the Xpulp helpers in xpulp.h, or GCC vector types). Apply.',
    'Compile & run (8 cores, tiled, L1 32768): Errors: 0.',
    'Type the speedup over the scalar tiled run.',
  ],
  setups: [SETUP(SIMD, '8 cores, tiled, L1 32768')],
  questions: [speedupQuestion('speedup', 'Speedup of SIMD over the scalar tiled kernel')],
  check(w: World, a: Answers) {
    const op = labOp(w.app);
    const r = ratioOf(w.lab, TILED, SIMD);
    const items: CheckItem[] = [
      stateItem('kernel', 'a SIMD kernel is applied', op !== undefined && kernelKind(op.kernel) === 'simd', 'packed operations', 'use packed operations in the kernel, then Apply'),
      rowItem(w, TILED, 'run the scalar kernel tiled first'),
      rowItem(w, SIMD, 'Compile & run with the SIMD kernel'),
      numberItem(a, 'speedup', 'speedup', r, SPEEDUP_TOLERANCE, 'the scalar tiled Runtime divided by the SIMD one'),
    ];
    return verdict(items, () => [`${times(r!)}, not 4×: the kernel's loop got faster, but the DMA transfers, the tile loop's bookkeeping, the fork and the loop overhead did not shrink (Amdahl).`]);
  },
};

const table: Step = {
  id: 'op-table',
  part: 3,
  title: 'The table',
  goal: 'Each step\'s cycles against the 1-core baseline and against the step before: most of the gain comes from using all the cores and from tiling into L1; SIMD comes last.',
  tasks: ['The table at the top of Part III is filled from your runs; the GVSoC column is Deeploy\'s own run of the lab.', 'Type the speedup of the last row over the baseline.'],
  setups: [],
  questions: [speedupQuestion('total', 'Speedup of SIMD over 1 core untiled')],
  check(w: World, a: Answers) {
    const r = ratioOf(w.lab, BASE, SIMD);
    const items: CheckItem[] = [
      ...STEP_IDS.map((id) => rowItem(w, id, 'run that step')),
      numberItem(a, 'total', 'speedup', r, SPEEDUP_TOLERANCE, 'the first row\'s cycles divided by the last row\'s'),
    ];
    return verdict(items, () => STEP_IDS.map((id) => {
      const c = cyclesOf(w.lab, id)!, g = gvsoc(id)!;
      return `${title(id)}: ${fmt(c)} cycles, ${times(cyclesOf(w.lab, BASE)! / c)} the baseline; GVSoC ${fmt(g)}, ${times(gvsoc(BASE)! / g)}.`;
    }));
  },
};

export const PART3: Step[] = [define, parser, scalar, cores, tiled, rule, simd, table];
