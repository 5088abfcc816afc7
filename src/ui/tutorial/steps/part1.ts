// Part I: reading networks. Three graphs (an Add, a CNN, a transformer block), the C that the
// Generic platform generates for a CNN matched to its nodes, and what Siracusa's passes do to
// the graph. Every expected answer is computed from what the app loaded and compiled.
import { DTYPES, numel } from '../../../compiler/ir/dtype';
import type { Graph, Node, TensorType } from '../../../compiler/ir/graph';
import { shownFile } from '../../panes/code/state';
import { realType } from '../../panes/graph/model';
import { resolveSides } from '../../panes/graph/state';
import { numberItem, parseAnswer, stateItem, textItem, verdict } from '../answers';
import type { Answers, CheckItem, Step, World } from '../types';
import { freshCompile, lowerSnapshots, modelId, opCounts, producers, selectedFinalNodes, selectedNode, shapeText, snapshotsOf } from '../world';

const EXACT = { abs: 0 };

/** The checks every graph-reading step shares: the model is loaded, the graph pane is on screen, a node of `op` is selected. */
function graphItems(w: World, model: string, name: string, op: RegExp, opName: string): { items: CheckItem[]; graph: Graph | null; node: Node | null } {
  const loaded = modelId(w.app) === model;
  const graph = loaded ? w.app.stages.parse.result?.graph ?? null : null;
  const node = loaded ? selectedNode(w.app) : null;
  const an = /^[aeiou]/i.test(opName) ? 'an' : 'a';
  return {
    graph, node,
    items: [
      stateItem('model', `${name} is loaded`, loaded && graph !== null, `${model} loaded`, `press Set up (or pick ${name} in the header)`),
      stateItem('pane', 'the graph pane is on screen', w.visible.graph === true, 'graph pane shown', 'bring the Graph tab to the front'),
      stateItem('selected', `${an} ${opName} node is selected`, node !== null && op.test(node.op),
        node ? `${node.name} (${node.op}) selected` : '', node ? `${node.name} is not ${an} ${opName}: click ${an} ${opName} node` : `click ${an} ${opName} node in the graph`),
    ],
  };
}

const typeOf = (g: Graph, t: string) => g.types[t] ?? g.initializers[t];
const bitsOf = (dtype: string) => 8 * (DTYPES[dtype as keyof typeof DTYPES]?.bytes ?? 0);

/** A tensor's type as the graph pane's properties show it: the element type the kernels store, once lowered. */
function shownType(w: World, snapshot: number, g: Graph, tensor: string): TensorType | undefined {
  const real = w.app.stages.lower.result?.elementTypes?.[snapshot]?.[tensor];
  return realType(typeOf(g, tensor), real);
}

const graphAdd: Step = {
  id: 'graph-add',
  part: 1,
  title: 'One Add, node by node',
  goal: 'The smallest network there is: one node adding two int8 tensors. Everything the compiler does later starts from this graph: nodes, the tensors between them, their element types and shapes.',
  tasks: [
    'Press Set up: it loads the Adder for the Generic platform and puts the graph pane in front.',
    'Compile. The ONNX file declares every tensor float32; once compiled, the properties show the integer type each tensor\'s values really need, which is what the kernels store.',
    'Click the Add node. The properties list its inputs and its output with element type and shape.',
    'Answer from what the properties show: how many values the output holds, and how many bits each of them takes.',
  ],
  setups: [{ id: 'adder', label: 'Load the Adder', model: 'adder', config: { platform: 'generic' }, preset: 'graph' }],
  questions: [
    { id: 'elements', label: 'Values in the output', kind: 'number' },
    { id: 'bits', label: 'Bits per output value', kind: 'number', unit: 'bits' },
  ],
  check(w: World, a: Answers) {
    const { items, node } = graphItems(w, 'adder', 'the Adder', /^Add$/, 'Add');
    const lowered = w.app.stages.lower.status === 'done' && freshCompile(w.app);
    items.splice(1, 0, stateItem('compiled', 'compiled', lowered, 'the element types are known', 'compile'));
    const snap = w.app.graph.selection?.snapshot ?? 0;
    const g = snapshotsOf(w.app)[snap];
    const outName = node?.outputs[0];
    const out = lowered && g && outName ? shownType(w, snap, g, outName) : undefined;
    items.push(
      numberItem(a, 'elements', 'values in the output', out ? numel(out.shape) : undefined, EXACT, 'multiply the dimensions of the output\'s shape'),
      numberItem(a, 'bits', 'bits per output value', out ? bitsOf(out.dtype) : undefined, EXACT, 'read the output\'s element type (int8 is 8 bits, int16 is 16)'),
    );
    return verdict(items, () => {
      const ins = node!.inputs.map((t) => shownType(w, snap, g!, t)).filter((t): t is TensorType => t !== undefined);
      const widest = Math.max(...ins.map((t) => bitsOf(t.dtype)));
      return [
        `Inputs: ${ins.map((t) => `${t.dtype} ${shapeText(t.shape)}`).join(' and ')}; output ${outName}: ${out!.dtype} ${shapeText(out!.shape)}, ${numel(out!.shape).toLocaleString('en-US')} values.`,
        bitsOf(out!.dtype) > widest
          ? `The output is wider than the inputs: two ${widest}-bit values can add up to a value that needs ${widest + 1} bits, so the sum is stored in ${out!.dtype}. The compiler derives that from the value ranges, not from the declared float32.`
          : `The output keeps the inputs' ${out!.dtype}.`,
      ];
    });
  },
};

const graphCnn: Step = {
  id: 'graph-cnn',
  part: 1,
  title: 'A small CNN',
  goal: 'A quantized CNN is mostly convolutions, each followed by a requantization that turns its 32-bit sums back into 8-bit activations. Seeing that pattern now explains the fusions in step 5.',
  tasks: [
    'Press Set up: Mini MobileNetV2 in the graph pane.',
    'Follow the network from the input down: the stem, the inverted residual blocks (1x1 expand, 3x3 depthwise, 1x1 project) with their residual Adds, the classifier.',
    'Click a Conv node and look at its attributes (kernel shape, group, strides) and its output type.',
    'Count the Conv and RequantShift nodes (the search box at the top of the graph finds nodes by op).',
  ],
  setups: [{ id: 'cnn', label: 'Load Mini MobileNetV2', model: 'mini-mobilenetv2', config: { platform: 'generic' }, preset: 'graph' }],
  questions: [
    { id: 'convs', label: 'Conv nodes', kind: 'number' },
    { id: 'requants', label: 'RequantShift nodes', kind: 'number' },
  ],
  check(w: World, a: Answers) {
    const { items, graph } = graphItems(w, 'mini-mobilenetv2', 'Mini MobileNetV2', /^Conv$/, 'Conv');
    const ops = graph ? opCounts(graph) : undefined;
    items.push(
      numberItem(a, 'convs', 'Conv nodes', ops ? ops.Conv ?? 0 : undefined, EXACT, 'search the graph for "Conv" and count the matches (the search shows their number)'),
      numberItem(a, 'requants', 'RequantShift nodes', ops ? ops.RequantShift ?? 0 : undefined, EXACT, 'search the graph for "RequantShift"'),
    );
    return verdict(items, () => {
      const prod = producers(graph!);
      const after: Record<string, number> = {};
      for (const n of graph!.nodes) if (n.op === 'RequantShift') {
        const p = prod.get(n.inputs[0] ?? '')?.op ?? 'a graph input';
        after[p] = (after[p] ?? 0) + 1;
      }
      return [
        `${ops!.Conv ?? 0} Conv and ${ops!.RequantShift ?? 0} RequantShift nodes. The RequantShifts follow: ${Object.entries(after).map(([op, n]) => `${op} ×${n}`).join(', ')}.`,
        'A Conv accumulates int8 × int8 products in int32; its RequantShift multiplies, adds, shifts and clips them back to int8. The Adds and the classifier need the same. On Siracusa each such pair becomes a single node (step 5).',
      ];
    });
  },
};

const graphTransformer: Step = {
  id: 'graph-transformer',
  part: 1,
  title: 'A transformer block',
  goal: 'Attention in integers: projections as matrix products, heads made by reshaping and transposing, an integer softmax. The shapes tell how many heads and tokens there are.',
  tasks: [
    'Press Set up: the transformer block in the graph pane.',
    'Find the Q, K and V projections (MatMul + Add + RequantShift), the Reshape/Transpose that split the heads, the product of queries and keys, the iSoftmax, and the MLP with its iGELU.',
    'Click the iSoftmax node: its input holds the attention scores, one per head, query token and key token.',
  ],
  setups: [{ id: 'transformer', label: 'Load the transformer block', model: 'transformer-block', config: { platform: 'generic' }, preset: 'graph' }],
  questions: [
    { id: 'matmuls', label: 'MatMul nodes', kind: 'number' },
    { id: 'scores', label: 'Values in the attention scores (the iSoftmax input)', kind: 'number' },
  ],
  check(w: World, a: Answers) {
    const { items, graph } = graphItems(w, 'transformer-block', 'the transformer block', /softmax/i, 'iSoftmax');
    const ops = graph ? opCounts(graph) : undefined;
    const softmax = graph?.nodes.find((n) => /softmax/i.test(n.op));
    const scores = softmax && graph ? typeOf(graph, softmax.inputs[0]!) : undefined;
    items.push(
      numberItem(a, 'matmuls', 'MatMul nodes', ops ? ops.MatMul ?? 0 : undefined, EXACT, 'search the graph for "MatMul"'),
      numberItem(a, 'scores', 'values in the attention scores', scores ? numel(scores.shape) : undefined, EXACT, 'multiply the dimensions of the iSoftmax input\'s shape'),
    );
    return verdict(items, () => [
      `The iSoftmax reads ${shapeText(scores!.shape)}: ${numel(scores!.shape).toLocaleString('en-US')} scores${scores!.shape.length === 4 ? ` (${scores!.shape[1]} heads × ${scores!.shape[2]} queries × ${scores!.shape[3]} keys)` : ''}.`,
      `${ops!.MatMul ?? 0} MatMuls: the projections, the two products of attention (queries × keys, scores × values) and the MLP. The scores grow with the square of the tokens: that is what makes long prompts expensive.`,
    ]);
  },
};

const genericCode: Step = {
  id: 'generic-code',
  part: 1,
  title: 'The C code for Generic, node by node',
  goal: 'Deeploy\'s output is plain C: one function call per layer in the graph\'s order, buffers at fixed places. Matching a node to its lines shows what "deploying" a network means.',
  tasks: [
    'Press Set up: Mini MobileNetV2 for the Generic platform, with every pane on screen.',
    'Compile (Generic code runs on the host: the playground generates it but skips the run).',
    'In the code pane, open Network.c. Click a node in the graph: the code pane highlights its layer (the function and its call in RunNetwork). Clicking in the code selects the node back.',
    'Answer for the node you selected: one line number of Network.c inside its highlighted code, and the kernel library function it calls.',
  ],
  setups: [{ id: 'generic', label: 'Mini MobileNetV2 on Generic', model: 'mini-mobilenetv2', config: { platform: 'generic' }, preset: 'overview' }],
  questions: [
    { id: 'line', label: 'A line of Network.c in the selected node\'s code', kind: 'number' },
    { id: 'call', label: 'The kernel function it calls', kind: 'text' },
  ],
  check(w: World, a: Answers) {
    const app = w.app;
    const code = app.stages.codegen.result;
    const generic = code?.platform === 'generic' && app.compiledConfig?.platform === 'generic' && freshCompile(app);
    const shown = code ? shownFile(code.files, app.code.file)?.path : undefined;
    // A node of an earlier snapshot may stand for several layers (a Conv whose padding became a Pad): the pane highlights them all.
    const nodes = selectedFinalNodes(app);
    const layers = code?.layers.filter((l) => nodes.includes(l.node) && l.ranges.some((r) => r.file === 'Network.c')) ?? [];
    const ranges = layers.flatMap((l) => l.ranges.filter((r) => r.file === 'Network.c'));
    const line = parseAnswer(a.line);
    const inRange = line !== undefined && ranges.some((r) => r.from <= line && line <= r.to);
    const items: CheckItem[] = [
      stateItem('compiled', 'compiled for Generic', generic, 'Generic C generated', 'set the platform to Generic (Set up) and compile'),
      stateItem('file', 'the code pane shows Network.c', w.visible.code === true && shown === 'Network.c', 'Network.c shown', 'open the Network.c tab in the code pane'),
      stateItem('selected', 'a node with code is selected', layers.length > 0, layers.map((l) => `${l.node} (${l.op})`).join(', ') + ' selected', 'click a Conv (or any node) in the graph'),
      // Any line of the highlighted code is right.
      numberItem(a, 'line', 'a line of its code', layers.length ? (inRange ? line : ranges[0]!.from) : undefined, { abs: 0 },
        'the highlighted lines in Network.c: the layer\'s function and its call in RunNetwork'),
      textItem(a, 'call', 'the kernel function it calls', layers.flatMap((l) => l.calls), 'read the call inside the layer\'s function (a dpg_... function of the kernel library)'),
    ];
    return verdict(items, () => {
      const lines = (l: (typeof layers)[number]) => l.ranges.filter((r) => r.file === 'Network.c')
        .map((r) => (r.from === r.to ? `line ${r.from}` : `lines ${r.from}-${r.to}`)).join(' and ');
      const finalGraph = lowerSnapshots(app).at(-1)?.graph;
      return [
        ...layers.map((l) => `${l.node} (${l.op}) is ${lines(l)} of Network.c; it calls ${l.calls.join(', ') || 'no kernel (an alias)'} with kernel ${l.kernel}.`),
        `Generic's Network.c has ${code!.layers.length} layers for the ${finalGraph?.nodes.length ?? '?'} nodes of the final graph, called one after another in RunNetwork: the graph's order is the program's order.`,
      ];
    });
  },
};

const FUSION = 'fuse-conv-requant';
const LAYOUT = 'nchw-to-nhwc';

const siracusaPasses: Step = {
  id: 'siracusa-passes',
  part: 1,
  title: 'What Siracusa\'s passes do to the graph',
  goal: 'Before binding kernels, the platform rewrites the graph into the shapes its kernels want: a Conv and its RequantShift become one RequantizedConv, and the tensors move to channels-last (HWC) order, which inserts Transposes that later passes mostly cancel.',
  tasks: [
    'Press Set up: Mini MobileNetV2 for Siracusa, the graph large.',
    'Compile. The pass list shows every pass of Siracusa\'s pipeline in order; "=" marks a pass that changed nothing.',
    `Click ${FUSION}: the right side shows the graph after it, the left side before it. Follow a Conv + RequantShift pair into its RequantizedConv.`,
    `Click ${LAYOUT} and the passes after it: count how many Transposes come and go.`,
    `Leave ${FUSION} on the right side and answer.`,
  ],
  setups: [{ id: 'siracusa', label: 'Mini MobileNetV2 on Siracusa', model: 'mini-mobilenetv2', config: { platform: 'siracusa' }, preset: 'graph' }],
  questions: [
    { id: 'fused', label: `RequantizedConv nodes made by ${FUSION}`, kind: 'number' },
    { id: 'transposes', label: 'Transpose nodes left in the final graph', kind: 'number' },
  ],
  check(w: World, a: Answers) {
    const app = w.app;
    const snaps = lowerSnapshots(app);
    const lower = app.stages.lower.result;
    const siracusa = snaps.length > 0 && lower?.platform.startsWith('siracusa') === true && freshCompile(app);
    const idx = snaps.findIndex((s) => s.pass === FUSION);
    const right = snaps.length ? resolveSides(app.graph, snaps).right : -1;
    const count = (i: number, op: string) => (i >= 0 && snaps[i] ? opCounts(snaps[i]!.graph)[op] ?? 0 : 0);
    const made = idx > 0 ? count(idx, 'RequantizedConv') - count(idx - 1, 'RequantizedConv') : undefined;
    const items: CheckItem[] = [
      stateItem('compiled', 'compiled for Siracusa', siracusa, `${lower?.platform} passes`, 'Set up, then compile'),
      stateItem('pass', `${FUSION} on the right side`, siracusa && idx >= 0 && right === idx, `${FUSION} shown`,
        idx < 0 && siracusa ? `this compile has no ${FUSION} pass` : `click ${FUSION} in the pass list`),
      numberItem(a, 'fused', `RequantizedConv nodes ${FUSION} made`, siracusa ? made : undefined, EXACT, 'count the new (green) nodes on the right side, or compare the op counts of both sides'),
      numberItem(a, 'transposes', 'Transposes in the final graph', siracusa ? count(snaps.length - 1, 'Transpose') : undefined, EXACT, 'click the last pass and search for "Transpose"'),
    ];
    return verdict(items, () => {
      const deltas: string[] = [];
      for (let i = 1; i < snaps.length; i++) {
        if (!snaps[i]!.changed) continue;
        const before = opCounts(snaps[i - 1]!.graph), after = opCounts(snaps[i]!.graph);
        const d = [...new Set([...Object.keys(before), ...Object.keys(after)])]
          .map((op) => [op, (after[op] ?? 0) - (before[op] ?? 0)] as const).filter(([, n]) => n !== 0)
          .map(([op, n]) => `${n > 0 ? '+' : ''}${n} ${op}`);
        if (d.length) deltas.push(`${snaps[i]!.pass}: ${d.join(', ')}`);
      }
      return [
        `The passes that changed the graph, with what they changed: ${deltas.join('; ')}.`,
        `${made} Conv + RequantShift pairs became RequantizedConvs: one kernel call each, the int32 sums never leave the core's registers. The layout pass wraps every HWC kernel in Transposes; the later passes cancel the pairs that meet, leaving ${count(snaps.length - 1, 'Transpose')}.`,
      ];
    });
  },
};

export const PART1: Step[] = [graphAdd, graphCnn, graphTransformer, genericCode, siracusaPasses];

// Exposed for the tests.
export { FUSION, LAYOUT };
