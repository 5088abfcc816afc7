// The selected node: op, attributes, tensors with their types, where it came from, and for
// the final graph the kernel it is bound to.
import { own } from '../../../common/own';
import type { Attr, DType, Graph } from '../../../compiler/ir/graph';
import type { LowerStageResult } from '../../../pipeline/results';
import type { Snapshot } from '../../../compiler/passes/types';
import { realType, typeText } from './model';
import type { NodeRef } from './state';
import { shownName } from '../../names';

const MAX_LIST = 16;

function attrText(a: Attr): string {
  const list = (v: readonly (number | string)[]) =>
    `[${v.slice(0, MAX_LIST).join(', ')}${v.length > MAX_LIST ? `, … (${v.length})` : ''}]`;
  switch (a.kind) {
    case 'int': return String(a.value);
    case 'float': return String(Number(a.value.toPrecision(6)));
    case 'string': return JSON.stringify(a.value);
    case 'ints': return list(a.value);
    case 'floats': return list(a.value.map((v) => Number(v.toPrecision(6))));
    case 'strings': return list(a.value.map((v) => JSON.stringify(v)));
    case 'tensor': {
      const d = a.value.data;
      const values = d.length <= 8 ? ` = ${list(Array.from(d as ArrayLike<number | bigint>, (v) => Number(Number(v).toPrecision(6))))}` : '';
      return `tensor ${typeText(a.value)}${values}`;
    }
  }
}

/** A tensor with its element type as the kernels store it (the declared ONNX type when its values fit no integer type). */
function Tensor({ g, name, types }: { g: Graph; name: string; types: Record<string, DType> | undefined }) {
  if (!name) return <li className="muted">(omitted)</li>;
  const init = g.initializers[name];
  const declared = init ?? g.types[name] ?? g.inputs.find((v) => v.name === name);
  const real = types?.[name];
  const shown = realType(declared, real);
  return (
    <li>
      <code className="tensor-name">{shownName(name)}</code>{' '}
      <code className="tensor-type" data-testid="props-tensor-type"
        title={real && declared && real !== declared.dtype ? `declared ${declared.dtype} in the ONNX file; its values are ${real}` : undefined}>
        {typeText(shown)}
      </code>
      {init && <span className="tag">constant</span>}
    </li>
  );
}

export interface Counterparts {
  /** The snapshot they are in, and its pass. */
  snapshot: number;
  pass: string;
  nodes: string[];
  /** 'from' when they are older than the selected node, 'into' when newer. */
  direction: 'from' | 'into' | 'same';
}

export function Properties({ snapshots, lower, selection, counterparts, onSelect }: {
  snapshots: readonly Snapshot[];
  lower: LowerStageResult | null;
  selection: NodeRef | null;
  counterparts: Counterparts | null;
  onSelect(ref: NodeRef): void;
}) {
  const snap = selection ? snapshots[selection.snapshot] : undefined;
  const node = snap?.graph.nodes.find((n) => n.name === selection!.node);
  if (!snap || !node)
    return (
      <div className="graph-props empty" data-testid="graph-props">
        Click a node to see its attributes, tensors and kernel; its counterparts on the other side light up.
      </div>
    );
  const g = snap.graph;
  const types = lower?.elementTypes?.[selection!.snapshot];
  const final = selection!.snapshot === snapshots.length - 1;
  const binding = final ? lower?.bindings[node.name] : undefined;
  const failure = final ? lower?.failures.find((f) => f.node === node.name) : undefined;
  const origin = selection!.snapshot > 0 ? own(snap.origin, node.name) ?? [] : [];
  const attrs = Object.entries(node.attrs);
  return (
    <div className="graph-props" data-testid="graph-props" data-node={node.name}>
      <div className="props-head">
        <strong className="props-op" data-testid="props-op">{node.op}</strong>
        {node.domain && <span className="tag" data-testid="props-domain">{node.domain}</span>}
        <code className="props-name" data-testid="props-name">{shownName(node.name)}</code>
        <span className="muted">after {snap.pass}</span>
      </div>
      <div className="props-grid">
        <section>
          <h3>Attributes</h3>
          {attrs.length === 0 ? <p className="muted">none</p> : (
            <table className="props-attrs" data-testid="props-attrs"><tbody>
              {attrs.map(([k, a]) => <tr key={k}><th>{k}</th><td><code>{attrText(a)}</code></td></tr>)}
            </tbody></table>
          )}
          {(binding || failure) && <h3>Kernel</h3>}
          {binding && (
            <dl className="props-binding" data-testid="props-binding">
              <dt>engine</dt><dd data-testid="props-engine">{binding.engine}</dd>
              <dt>kernel</dt><dd><code data-testid="props-kernel">{binding.kernel}</code></dd>
              <dt>why</dt><dd>{binding.reason}</dd>
            </dl>
          )}
          {failure && <p className="props-failure" data-testid="props-failure">no kernel: {failure.reason}</p>}
          {final && lower && !binding && !failure && <p className="muted">Not bound to a kernel.</p>}
        </section>
        <section>
          <h3>Inputs</h3>
          <ul className="props-tensors" data-testid="props-inputs">{node.inputs.map((t, i) => <Tensor key={i} g={g} name={t} types={types} />)}</ul>
          <h3>Outputs</h3>
          <ul className="props-tensors" data-testid="props-outputs">{node.outputs.map((t, i) => <Tensor key={i} g={g} name={t} types={types} />)}</ul>
        </section>
        <section>
          {origin.length > 0 && !(origin.length === 1 && origin[0] === node.name)
            && counterparts?.snapshot !== selection!.snapshot - 1 && (
            <>
              <h3>Made from, after {snapshots[selection!.snapshot - 1]!.pass}</h3>
              <ul className="props-links" data-testid="props-origin">
                {origin.map((o) => <li key={o}><code>{shownName(o)}</code></li>)}
              </ul>
            </>
          )}
          {counterparts && counterparts.direction !== 'same' && (
            <>
              <h3>{counterparts.direction === 'from' ? 'Came from' : 'Became'}, after {counterparts.pass}</h3>
              {counterparts.nodes.length === 0 ? <p className="muted">nothing: {counterparts.direction === 'from' ? 'added by a pass' : 'removed'}</p> : (
                <ul className="props-links" data-testid="props-counterparts">
                  {counterparts.nodes.map((n) => (
                    <li key={n}>
                      <button type="button" className="link" onClick={() => onSelect({ snapshot: counterparts.snapshot, node: n })}>
                        <code>{shownName(n)}</code>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </section>
      </div>
    </div>
  );
}
