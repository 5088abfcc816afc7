// The Operator pane's state, kept in the app store: the op being edited (the form's spec and the
// kernel's C text), which applied op it stands for, and the test maker's fields as typed. Plain
// data and the pure rules for changing it; actions.ts applies them to the store.
import { own, put } from '../../common/own';
import type { UserAttr, UserOp, UserOpSpec, UserTileRule } from '../../compiler/ops/user/spec';

export interface TestFields {
  /** One shape per input, as typed ("1x16x64x64"). */
  shapes: string[];
  /** Attribute values by name, as typed ("3", or "1,2" for a list). */
  attrs: Record<string, string>;
  seed: string;
}

export interface OperatorState {
  /** The op in the form and the kernel editor. */
  draft: UserOp;
  /** The applied op (by op type) the draft was opened from; null: a new one. */
  editing: string | null;
  test: TestFields;
}

export const EMPTY_SPEC: UserOpSpec = {
  op: '', domain: '', attrs: [], inputs: [{ name: 'x', dtype: 'int8' }], output: { name: 'y', dtype: 'int8' },
  shape: 'unary', semantics: '', tiling: [],
};

export const INITIAL_OPERATOR_STATE: OperatorState = {
  draft: { spec: EMPTY_SPEC, kernel: '' },
  editing: null,
  test: { shapes: [''], attrs: {}, seed: '1' },
};

export const newAttr = (): UserAttr => ({ name: '', kind: 'int' });
export const newRule = (): UserTileRule => ({ axis: -1 });

/** The applied ops after applying `op`: it replaces the one it was opened from (or one of its op type), else joins the list. */
export function withApplied(ops: readonly UserOp[], op: UserOp, editing: string | null): UserOp[] {
  const at = ops.findIndex((o) => o.spec.op === (editing ?? op.spec.op));
  const rest = ops.filter((o, i) => i !== at && o.spec.op !== op.spec.op);
  if (at < 0) return [...rest, op];
  const out = [...rest];
  out.splice(Math.min(at, out.length), 0, op);
  return out;
}

/** Whether the draft differs from the applied op it stands for (or is new). */
export function unapplied(ops: readonly UserOp[], s: OperatorState): boolean {
  const applied = ops.find((o) => o.spec.op === s.editing);
  return !applied || JSON.stringify(applied) !== JSON.stringify(s.draft);
}

/** "1x16x64x64" (or "1, 16, 64, 64") as a shape; null when it is not one. */
export function parseShape(text: string): number[] | null {
  const parts = text.trim().split(/\s*[x×,]\s*/);
  if (parts.length === 0 || parts.length > 8 || parts.some((p) => !/^[1-9]\d{0,6}$/.test(p))) return null;
  return parts.map(Number);
}

/** An attribute value as typed: an integer, or a list of integers separated by commas. */
export function parseAttrValue(text: string, kind: UserAttr['kind']): number | number[] | null {
  const t = text.trim();
  if (t === '') return null;
  const items = kind === 'ints' ? t.replace(/^\[|\]$/g, '').split(/\s*,\s*/) : [t];
  if (items.some((x) => !/^-?\d{1,10}$/.test(x))) return null;
  const nums = items.map(Number);
  return kind === 'ints' ? nums : nums[0]!;
}

/** The test maker's fields parsed, or the first problem (field and message) when one does not parse. */
export function testOptions(spec: UserOpSpec, f: TestFields):
  { ok: true; shapes: number[][]; attrs: Record<string, number | number[]>; seed: number } | { ok: false; field: string; message: string } {
  const shapes: number[][] = [];
  for (let i = 0; i < spec.inputs.length; i++) {
    const s = parseShape(f.shapes[i] ?? '');
    if (!s) return { ok: false, field: `shape.${i}`, message: `the shape of ${spec.inputs[i]!.name || `input ${i}`} is not like 1x16x64x64` };
    shapes.push(s);
  }
  const attrs: Record<string, number | number[]> = {};
  for (const a of spec.attrs) {
    const text = own(f.attrs, a.name) ?? '';
    if (text.trim() === '') continue; // the attribute's default (or the node lacks it, which the op's check reports)
    const v = parseAttrValue(text, a.kind);
    if (v === null) return { ok: false, field: `attr.${a.name}`, message: `${a.name} is not ${a.kind === 'ints' ? 'a list of integers' : 'an integer'}` };
    put(attrs, a.name, v);
  }
  if (!/^\d{1,9}$/.test(f.seed.trim())) return { ok: false, field: 'seed', message: 'the seed is not a whole number' };
  return { ok: true, shapes, attrs, seed: Number(f.seed.trim()) };
}
