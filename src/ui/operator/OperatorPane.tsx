// The Operator pane (tutorial Part III): a new operator defined in the browser. The form holds
// its spec (op type, domain, attributes with their ranges, typed inputs and output, the shape
// template, the reference semantics as an expression, tiling rules), checked as it is typed with
// the compiler's checkUserOp (each problem in red beside its field); the kernel's C is edited in
// Monaco, starting from the skeleton codegen calls; Apply puts the op into the session (every
// compile and model check uses it). The test maker builds the one-node test model (seeded
// inputs, golden outputs from the semantics) and loads it, or saves it as a test folder.
import { useEffect, useMemo, useRef, useState } from 'react';
import { kernelName, kernelPath, type SpecProblem } from '../../compiler/ops/user';
import type { IntType } from '../../compiler/passes/ranges';
import { OP_DTYPES as INT_TYPES } from './names';
import type { ShapeTemplate, UserAttr, UserOpSpec, UserTensor, UserTileRule } from '../../compiler/ops/user/spec';
import { SHAPE_TEMPLATES } from '../../compiler/ops/user/spec';
import { compileErrorAt } from '../panes/code/state';
import { useStore } from '../store';
import { editSpec, editTest, newOp, openOp, removeOp, setKernel, takeKernelReveal } from './actions';
import { applyDraft, downloadTestFolder, draftProblems, kernelFromSkeleton, loadBuiltins, makeTestModel } from './edit';
import type { KernelEditor } from './kernelEditor';
import { newAttr, newRule, unapplied } from './state';
import './operator.css';

const SHAPE_NAMES: Record<ShapeTemplate, string> = {
  unary: 'elementwise, one input (same shape)',
  binary: 'elementwise, two inputs (broadcast)',
  'reduce-last': 'reduction along the last axis',
  'row-last': 'row operation along the last axis',
};

/** The problems of fields under `prefix` ('attrs.1' takes 'attrs.1.max' too). */
const under = (problems: readonly SpecProblem[], prefix: string) =>
  problems.filter((p) => p.field === prefix || p.field.startsWith(`${prefix}.`));

function Problems({ problems, field, testid }: { problems: readonly SpecProblem[]; field: string; testid?: string }) {
  const mine = field === '' ? problems : under(problems, field);
  if (!mine.length) return null;
  return (
    <div className="op-problem" data-testid={testid ?? `op-problem-${field}`} data-field={field}>
      {mine.map((p, i) => <div key={i}>{p.field !== field ? `${p.field}: ` : ''}{p.message}</div>)}
    </div>
  );
}

/** A whole-number field: the typed text stays while it is not a number (a lone "-"); an empty one is undefined. */
function IntField({ value, onChange, testid, placeholder, list, bad, width = 64 }: {
  value: number | number[] | undefined; onChange(v: number | number[] | undefined): void; testid: string; placeholder?: string;
  list?: boolean; bad?: boolean; width?: number;
}) {
  const shown = value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);
  const [text, setText] = useState(shown);
  // A value changed from outside (another op opened): the text follows.
  const last = useRef(shown);
  if (last.current !== shown) { last.current = shown; if (parse(text) === undefined || format(parse(text)) !== shown) setText(shown); }
  function parse(t: string): number | number[] | undefined | null {
    const s = t.trim();
    if (s === '') return undefined;
    const items = list ? s.replace(/^\[|\]$/g, '').split(/\s*,\s*/) : [s];
    if (items.some((x) => !/^-?\d{1,10}$/.test(x))) return null;
    return list ? items.map(Number) : Number(items[0]);
  }
  function format(v: number | number[] | undefined | null): string {
    return v === undefined || v === null ? '' : Array.isArray(v) ? v.join(', ') : String(v);
  }
  const invalid = parse(text) === null;
  return (
    <input type="text" className={`op-int${invalid || bad ? ' bad' : ''}`} style={{ width }} data-testid={testid} value={text} placeholder={placeholder}
      title={invalid ? (list ? 'a list of integers, e.g. 1, 2' : 'an integer') : undefined}
      onChange={(e) => {
        setText(e.target.value);
        const v = parse(e.target.value);
        if (v !== null) { last.current = format(v); onChange(v); }
      }} />
  );
}

function DtypeSelect({ value, onChange, testid }: { value: IntType; onChange(v: IntType): void; testid: string }) {
  return (
    <select data-testid={testid} value={value} onChange={(e) => onChange(e.target.value as IntType)}>
      {INT_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
    </select>
  );
}

const setAt = <T,>(xs: readonly T[], i: number, f: (x: T) => T): T[] => xs.map((x, k) => (k === i ? f(x) : x));
const without = <T,>(xs: readonly T[], i: number): T[] => xs.filter((_, k) => k !== i);
const hasErr = (problems: readonly SpecProblem[], field: string) => under(problems, field).length > 0;

function Attributes({ spec, problems }: { spec: UserOpSpec; problems: readonly SpecProblem[] }) {
  const edit = (i: number, f: (a: UserAttr) => UserAttr) => editSpec((s) => ({ ...s, attrs: setAt(s.attrs, i, f) }));
  const opt = <K extends 'default' | 'min' | 'max'>(a: UserAttr, k: K, v: UserAttr[K] | undefined): UserAttr => {
    const { [k]: _old, ...rest } = a;
    return (v === undefined ? rest : { ...rest, [k]: v }) as UserAttr;
  };
  return (
    <fieldset className="op-group" data-testid="op-attrs">
      <legend>Attributes</legend>
      {spec.attrs.length > 0 && (
        <div className="op-row op-head"><span className="w-name">name</span><span>kind</span><span>default</span><span>min</span><span>max</span></div>
      )}
      {spec.attrs.map((a, i) => (
        <div key={i} className="op-item">
          <div className="op-row" data-testid="op-attr" data-index={i}>
            <input type="text" className={`w-name${hasErr(problems, `attrs.${i}.name`) ? ' bad' : ''}`} data-testid={`op-attr-name-${i}`} value={a.name}
              placeholder="name" onChange={(e) => edit(i, (x) => ({ ...x, name: e.target.value }))} />
            <select data-testid={`op-attr-kind-${i}`} value={a.kind} onChange={(e) => edit(i, (x) => ({ ...x, kind: e.target.value as UserAttr['kind'], ...(x.default !== undefined ? { default: undefined } : {}) }))}>
              <option value="int">int</option>
              <option value="ints">ints</option>
            </select>
            <IntField testid={`op-attr-default-${i}`} value={a.default} list={a.kind === 'ints'} placeholder="none" width={72} bad={hasErr(problems, `attrs.${i}.default`)}
              onChange={(v) => edit(i, (x) => opt(x, 'default', v))} />
            <IntField testid={`op-attr-min-${i}`} value={a.min} placeholder="any" bad={hasErr(problems, `attrs.${i}.min`)}
              onChange={(v) => edit(i, (x) => opt(x, 'min', v as number | undefined))} />
            <IntField testid={`op-attr-max-${i}`} value={a.max} placeholder="any" bad={hasErr(problems, `attrs.${i}.max`)}
              onChange={(v) => edit(i, (x) => opt(x, 'max', v as number | undefined))} />
            <button type="button" className="button small" data-testid={`op-attr-remove-${i}`} title="Remove this attribute"
              onClick={() => editSpec((s) => ({ ...s, attrs: without(s.attrs, i) }))}>×</button>
          </div>
          <Problems problems={problems} field={`attrs.${i}`} />
        </div>
      ))}
      <button type="button" className="button small" data-testid="op-attr-add" onClick={() => editSpec((s) => ({ ...s, attrs: [...s.attrs, newAttr()] }))}>
        + attribute
      </button>
      <Problems problems={problems.filter((p) => p.field === 'attrs')} field="attrs" />
    </fieldset>
  );
}

function Tensors({ spec, problems }: { spec: UserOpSpec; problems: readonly SpecProblem[] }) {
  const editIn = (i: number, f: (t: UserTensor) => UserTensor) => editSpec((s) => ({ ...s, inputs: setAt(s.inputs, i, f) }));
  return (
    <fieldset className="op-group" data-testid="op-tensors">
      <legend>Inputs and output</legend>
      {spec.inputs.map((t, i) => (
        <div key={i} className="op-item">
          <div className="op-row">
            <span className="op-label">input {i}</span>
            <input type="text" className={`w-name${hasErr(problems, `inputs.${i}.name`) ? ' bad' : ''}`} data-testid={`op-input-name-${i}`} value={t.name}
              onChange={(e) => editIn(i, (x) => ({ ...x, name: e.target.value }))} />
            <DtypeSelect testid={`op-input-dtype-${i}`} value={t.dtype} onChange={(d) => editIn(i, (x) => ({ ...x, dtype: d }))} />
            {spec.inputs.length > 1 && (
              <button type="button" className="button small" data-testid={`op-input-remove-${i}`} title="Remove this input"
                onClick={() => editSpec((s) => ({ ...s, inputs: without(s.inputs, i) }))}>×</button>
            )}
          </div>
          <Problems problems={problems} field={`inputs.${i}`} />
        </div>
      ))}
      <button type="button" className="button small" data-testid="op-input-add"
        onClick={() => editSpec((s) => ({ ...s, inputs: [...s.inputs, { name: s.inputs.some((x) => x.name === 'b') ? `in${s.inputs.length}` : 'b', dtype: 'int8' }] }))}>
        + input
      </button>
      <Problems problems={problems.filter((p) => p.field === 'inputs')} field="inputs" />
      <div className="op-row">
        <span className="op-label">output</span>
        <input type="text" className={`w-name${hasErr(problems, 'output.name') ? ' bad' : ''}`} data-testid="op-output-name" value={spec.output.name}
          onChange={(e) => editSpec((s) => ({ ...s, output: { ...s.output, name: e.target.value } }))} />
        <DtypeSelect testid="op-output-dtype" value={spec.output.dtype} onChange={(d) => editSpec((s) => ({ ...s, output: { ...s.output, dtype: d } }))} />
      </div>
      <Problems problems={problems} field="output" />
    </fieldset>
  );
}

function TilingRules({ spec, problems }: { spec: UserOpSpec; problems: readonly SpecProblem[] }) {
  const edit = (i: number, f: (r: UserTileRule) => UserTileRule) => editSpec((s) => ({ ...s, tiling: setAt(s.tiling, i, f) }));
  const opt = (r: UserTileRule, k: 'multiple' | 'min', v: number | undefined): UserTileRule => {
    const { [k]: _old, ...rest } = r;
    return v === undefined ? rest : { ...rest, [k]: v };
  };
  return (
    <fieldset className="op-group" data-testid="op-tiling">
      <legend>Tiling rules</legend>
      <p className="op-note">The template keeps a tile's input geometry equal to its output's; a rule constrains one output dimension of every tile (axis -1 is the innermost).</p>
      {spec.tiling.map((r, i) => (
        <div key={i} className="op-item">
          <div className="op-row" data-testid="op-rule" data-index={i}>
            <span className="op-label">axis</span>
            <IntField testid={`op-rule-axis-${i}`} value={r.axis} width={48} bad={hasErr(problems, `tiling.${i}.axis`)}
              onChange={(v) => edit(i, (x) => ({ ...x, axis: typeof v === 'number' ? v : x.axis }))} />
            <span className="op-label">multiple of</span>
            <IntField testid={`op-rule-multiple-${i}`} value={r.multiple} width={56} placeholder="—" bad={hasErr(problems, `tiling.${i}.multiple`)}
              onChange={(v) => edit(i, (x) => opt(x, 'multiple', v as number | undefined))} />
            <span className="op-label">at least</span>
            <IntField testid={`op-rule-min-${i}`} value={r.min} width={56} placeholder="—" bad={hasErr(problems, `tiling.${i}.min`)}
              onChange={(v) => edit(i, (x) => opt(x, 'min', v as number | undefined))} />
            <button type="button" className="button small" data-testid={`op-rule-remove-${i}`} title="Remove this rule"
              onClick={() => editSpec((s) => ({ ...s, tiling: without(s.tiling, i) }))}>×</button>
          </div>
          <Problems problems={problems} field={`tiling.${i}`} />
        </div>
      ))}
      <button type="button" className="button small" data-testid="op-rule-add" onClick={() => editSpec((s) => ({ ...s, tiling: [...s.tiling, newRule()] }))}>
        + rule
      </button>
    </fieldset>
  );
}

type Load = { state: 'loading' } | { state: 'ready'; editor: KernelEditor } | { state: 'failed'; message: string };

function Kernel({ spec }: { spec: UserOpSpec }) {
  const kernel = useStore((s) => s.operator.draft.kernel);
  const editing = useStore((s) => s.operator.editing);
  const runError = useStore((s) => (s.stages.run.status === 'error' ? s.stages.run.error : undefined));
  const n = useStore((s) => s.operator);
  const host = useRef<HTMLDivElement>(null);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [markers, setMarkers] = useState('');
  const path = spec.op ? kernelPath(spec) : '';
  const at = compileErrorAt(runError);
  const mine = at && path && at.file === path ? at : null;

  useEffect(() => {
    let alive = true;
    let editor: KernelEditor | null = null;
    import('./kernelEditor').then(({ KernelEditor }) => {
      if (!alive || !host.current) return;
      editor = new KernelEditor(host.current, useStore.getState().operator.draft.kernel, setKernel);
      setLoad({ state: 'ready', editor });
    }).catch((err: unknown) => { if (alive) setLoad({ state: 'failed', message: err instanceof Error ? err.message : String(err) }); });
    return () => { alive = false; editor?.dispose(); };
  }, []);
  const editor = load.state === 'ready' ? load.editor : null;
  // The store's text drives the editor (another op opened, the skeleton, a link).
  useEffect(() => { editor?.setText(kernel); }, [editor, kernel, editing]);
  useEffect(() => {
    if (!editor) return;
    editor.setMarker(mine ? { line: mine.line, col: mine.col, message: mine.message } : null);
    setMarkers(editor.markers().join(','));
  }, [editor, mine?.line, mine?.col, mine?.message]);
  // A compile error's link asked for a line.
  useEffect(() => {
    const r = editor ? takeKernelReveal() : null;
    if (r && editor) editor.reveal(r.line, r.col);
  }, [editor, n]);

  return (
    <fieldset className="op-group op-kernel" data-testid="op-kernel">
      <legend>Kernel {path && <code data-testid="op-kernel-path">{path}</code>}</legend>
      <div className="op-row">
        <button type="button" className="button small" data-testid="op-skeleton" disabled={!spec.op}
          title="Replace the kernel with the skeleton codegen calls: its signature, the split over the cores, a TODO body"
          onClick={() => { if (!kernel.trim() || window.confirm('Replace the kernel with a new skeleton?')) kernelFromSkeleton(); }}>
          New from skeleton
        </button>
        {spec.op && <span className="op-note">codegen calls <code>{safeName(spec)}</code></span>}
      </div>
      {mine && (
        <div className="op-problem" data-testid="op-kernel-error">{mine.file}:{mine.line}:{mine.col}: {mine.message}</div>
      )}
      <div className="op-editor" data-testid="op-kernel-editor" data-state={load.state} data-markers={markers} data-chars={kernel.length}>
        <div className="op-editor-host" ref={host} />
        {load.state === 'loading' && <p className="code-overlay">Loading the editor…</p>}
        {load.state === 'failed' && <p className="code-overlay bad">The editor did not load: {load.message}</p>}
      </div>
    </fieldset>
  );
}

function safeName(spec: UserOpSpec): string {
  try { return kernelName(spec); } catch { return '?'; }
}

function TestMaker({ spec, disabled }: { spec: UserOpSpec; disabled: boolean }) {
  const test = useStore((s) => s.operator.test);
  const busy = useStore((s) => s.busy !== null);
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null);
  const [made, setMade] = useState<string | null>(null);
  return (
    <fieldset className="op-group" data-testid="op-test">
      <legend>Test model</legend>
      {spec.inputs.map((t, i) => (
        <div key={i} className="op-row">
          <span className="op-label">shape of {t.name || `input ${i}`}</span>
          <input type="text" data-testid={`op-test-shape-${i}`} placeholder="1x16x64x64" value={test.shapes[i] ?? ''}
            onChange={(e) => editTest((x) => ({ ...x, shapes: spec.inputs.map((_, k) => (k === i ? e.target.value : x.shapes[k] ?? '')) }))} />
        </div>
      ))}
      {spec.attrs.filter((a) => a.name).map((a) => (
        <div key={a.name} className="op-row">
          <span className="op-label">{a.name}</span>
          <input type="text" data-testid={`op-test-attr-${a.name}`} style={{ width: 90 }}
            placeholder={a.default !== undefined ? `default ${Array.isArray(a.default) ? a.default.join(', ') : a.default}` : 'required'}
            value={test.attrs[a.name] ?? ''} onChange={(e) => editTest((x) => ({ ...x, attrs: { ...x.attrs, [a.name]: e.target.value } }))} />
        </div>
      ))}
      <div className="op-row">
        <span className="op-label">seed</span>
        <input type="text" data-testid="op-test-seed" style={{ width: 90 }} value={test.seed} onChange={(e) => editTest((x) => ({ ...x, seed: e.target.value }))} />
      </div>
      <div className="op-row">
        <button type="button" className="button small primary" data-testid="op-test-make" disabled={disabled || busy}
          title="Apply the operator, then load a one-node model using it, with seeded random inputs and golden outputs from the semantics"
          onClick={() => {
            setProblem(null); setMade(null);
            void makeTestModel().then((p) => { setProblem(p); if (!p) setMade(`${spec.op}_test`); });
          }}>
          Make test model
        </button>
        <button type="button" className="button small" data-testid="op-test-download" disabled={disabled}
          title="Save network.onnx, inputs.npz and outputs.npz as a Deeploy-style test folder (zip)"
          onClick={() => { setProblem(null); void downloadTestFolder().then(setProblem); }}>
          Download test folder
        </button>
      </div>
      {problem && <div className="op-problem" data-testid="op-test-problem" data-field={problem.field}>{problem.message}</div>}
      {made && !problem && <div className="op-note" data-testid="op-test-made">Made {made}: see the header (the model) and the banner (if it was refused).</div>}
    </fieldset>
  );
}

export function OperatorPane() {
  const ops = useStore((s) => s.ops);
  const op = useStore((s) => s.operator);
  const spec = op.draft.spec;
  const [registry, setRegistry] = useState(false);
  useEffect(() => { void loadBuiltins().then(() => setRegistry(true)); }, []);
  const problems = useMemo(() => draftProblems(op.draft), [op.draft, registry]); // eslint-disable-line react-hooks/exhaustive-deps
  const dirty = unapplied(ops, op);
  const state = problems.length ? 'invalid' : dirty ? 'unapplied' : 'applied';
  return (
    <section className="pane pane-operator" data-testid="pane-operator" data-state={state}>
      <div className="op-bar">
        <label className="op-label">Operator
          <select data-testid="op-select" value={op.editing ?? ''} onChange={(e) => (e.target.value ? openOp(e.target.value) : newOp())}>
            <option value="">{op.editing === null ? `(new${spec.op ? `: ${spec.op}` : ''})` : '(new)'}</option>
            {ops.map((o) => <option key={o.spec.op} value={o.spec.op}>{o.spec.op}</option>)}
          </select>
        </label>
        <button type="button" className="button small primary" data-testid="op-apply" disabled={problems.length > 0 || !dirty}
          title={problems.length ? 'Correct the fields in red first' : 'Use this operator in every compile and model check from now on'}
          onClick={() => applyDraft()}>
          Apply
        </button>
        {op.editing && (
          <button type="button" className="button small" data-testid="op-remove" title="Take this operator out of the session"
            onClick={() => removeOp(op.editing!)}>Remove</button>
        )}
        <span className={`op-status ${state}`} data-testid="op-status" data-state={state}>
          {state === 'invalid' ? `${problems.length} problem${problems.length === 1 ? '' : 's'}` : state === 'unapplied' ? 'changes not applied' : 'applied: compiles use it'}
        </span>
      </div>
      <div className="op-body">
        <div className="op-form">
          <fieldset className="op-group">
            <legend>Operator</legend>
            <div className="op-row">
              <span className="op-label">op type</span>
              <input type="text" className={hasErr(problems, 'op') ? 'bad' : ''} data-testid="op-name" placeholder="iLeakyReLU" value={spec.op}
                onChange={(e) => editSpec((s) => ({ ...s, op: e.target.value }))} />
              <span className="op-label">domain</span>
              <input type="text" className={hasErr(problems, 'domain') ? 'bad' : ''} data-testid="op-domain" placeholder="(default)" value={spec.domain} style={{ width: 90 }}
                onChange={(e) => editSpec((s) => ({ ...s, domain: e.target.value }))} />
            </div>
            <Problems problems={problems} field="op" />
            <Problems problems={problems} field="domain" />
            <div className="op-row">
              <span className="op-label">shape rule</span>
              <select data-testid="op-shape" value={spec.shape} onChange={(e) => editSpec((s) => ({ ...s, shape: e.target.value as ShapeTemplate }))}>
                {SHAPE_TEMPLATES.map((t) => <option key={t} value={t}>{SHAPE_NAMES[t]}</option>)}
              </select>
            </div>
            <Problems problems={problems} field="shape" />
          </fieldset>
          <Attributes spec={spec} problems={problems} />
          <Tensors spec={spec} problems={problems} />
          <fieldset className="op-group">
            <legend>Reference semantics</legend>
            <p className="op-note">One output element as an integer expression of the inputs' elements and the attributes by name: + - * / % &lt;&lt; &gt;&gt;, comparisons, ?:, min, max, clip.</p>
            <input type="text" className={`op-semantics${hasErr(problems, 'semantics') ? ' bad' : ''}`} data-testid="op-semantics" spellCheck={false}
              placeholder="x >= 0 ? x : (mul * x) >> shift" value={spec.semantics}
              onChange={(e) => editSpec((s) => ({ ...s, semantics: e.target.value }))} />
            <Problems problems={problems} field="semantics" />
          </fieldset>
          <TilingRules spec={spec} problems={problems} />
          <Problems problems={problems.filter((p) => !/^(op|domain|shape|semantics|attrs|inputs|output|tiling)(\.|$)/.test(p.field))} field="" testid="op-problem-other" />
        </div>
        <div className="op-side">
          <Kernel spec={spec} />
          <TestMaker spec={spec} disabled={problems.length > 0} />
        </div>
      </div>
    </section>
  );
}
