// What an op registry entry is: the one place an op's ONNX name, attributes, shape rule and
// reference semantics live (style.md: "one op, one entry"), with its tiling constraints. Its
// kernels are bound per platform, from each platform's kernel catalogue (src/compiler/platforms).
import type { Attr, Initializer, Node, TensorType } from '../ir/graph';
import { fail } from '../../common/errors';
import { own, put } from '../../common/own';
import type { IntTensor } from './core/tensor';
import type { TileRule } from '../tiling/rules';

// ---------------------------------------------------------------------------------------------
// Attributes

interface Spec<K extends string, T> {
  kind: K;
  default?: T;
  required?: boolean;
  /** Other names the same attribute goes by (e.g. RequantShift's n_levels / n_levels_out). */
  aliases?: readonly string[];
  /** Shown in docs and errors. */
  doc?: string;
}
export type IntSpec = Spec<'int', number>;
export type IntsSpec = Spec<'ints', number[]>;
export type FloatSpec = Spec<'float', number>;
export type StringSpec = Spec<'string', string>;
export type TensorSpec = Spec<'tensor', Initializer>;
export type AttrSpec = IntSpec | IntsSpec | FloatSpec | StringSpec | TensorSpec;
export type AttrSpecs = Record<string, AttrSpec>;

type ValueOf<S> = S extends Spec<string, infer T> ? T : never;
/** Parsed attribute values: defaulted and required attributes are always present. */
export type AttrValues<S extends AttrSpecs> = {
  [K in keyof S]: S[K] extends { default: unknown } | { required: true } ? ValueOf<S[K]> : ValueOf<S[K]> | undefined;
};

type Opts = { aliases?: readonly string[]; doc?: string };
/** An integer attribute. Accepts ONNX int, an integral float, or a one-element tensor. */
export function int(def: number, o?: Opts): IntSpec & { default: number };
export function int(def?: undefined, o?: Opts): IntSpec;
export function int(def?: number, o: Opts = {}): IntSpec {
  return { kind: 'int', default: def, ...o };
}
export function reqInt(o: Opts = {}): IntSpec & { required: true } {
  return { kind: 'int', required: true, ...o };
}
/** A list of integers. Accepts ONNX ints, a tensor, or a single int. */
export function ints(def: number[], o?: Opts): IntsSpec & { default: number[] };
export function ints(def?: undefined, o?: Opts): IntsSpec;
export function ints(def?: number[], o: Opts = {}): IntsSpec {
  return { kind: 'ints', default: def, ...o };
}
export function float(def: number, o?: Opts): FloatSpec & { default: number };
export function float(def?: undefined, o?: Opts): FloatSpec;
export function float(def?: number, o: Opts = {}): FloatSpec {
  return { kind: 'float', default: def, ...o };
}
export function str(def: string, o?: Opts): StringSpec & { default: string };
export function str(def?: undefined, o?: Opts): StringSpec;
export function str(def?: string, o: Opts = {}): StringSpec {
  return { kind: 'string', default: def, ...o };
}
export function tensorAttr(): TensorSpec {
  return { kind: 'tensor' };
}

function tensorValues(t: Initializer): number[] {
  return Array.from(t.data as ArrayLike<number | bigint>, Number);
}

function parseAttr(name: string, spec: AttrSpec, a: Attr, where: string): unknown {
  const bad = (what: string): never => fail('bad-graph', `attribute '${name}' ${what}`, where);
  const integral = (v: number): number => (Number.isInteger(v) ? v : bad(`must be an integer, got ${v}`));
  switch (spec.kind) {
    case 'int':
      if (a.kind === 'int') return a.value;
      if (a.kind === 'float') return integral(a.value);
      if ((a.kind === 'ints' || a.kind === 'floats') && a.value.length === 1) return integral(a.value[0]);
      if (a.kind === 'tensor' && a.value.data.length === 1) return integral(tensorValues(a.value)[0]);
      return bad(`must be a single integer, got ${a.kind === 'tensor' ? `a tensor of ${a.value.data.length} values` : `kind ${a.kind}`}`);
    case 'ints':
      if (a.kind === 'ints') return a.value;
      if (a.kind === 'int') return [a.value];
      if (a.kind === 'floats') return a.value.map(integral);
      if (a.kind === 'tensor') return tensorValues(a.value).map(integral);
      return bad(`must be a list of integers, got kind ${a.kind}`);
    case 'float':
      if (a.kind === 'float' || a.kind === 'int') return a.value;
      if (a.kind === 'tensor' && a.value.data.length === 1) return tensorValues(a.value)[0];
      if ((a.kind === 'floats' || a.kind === 'ints') && a.value.length === 1) return a.value[0];
      return bad(`must be a single number, got kind ${a.kind}`);
    case 'string':
      if (a.kind === 'string') return a.value;
      return bad(`must be a string, got kind ${a.kind}`);
    case 'tensor':
      if (a.kind === 'tensor') return a.value;
      return bad(`must be a tensor, got kind ${a.kind}`);
  }
}

/** Reads a node's attributes against an entry's specs (unknown attributes are ignored). */
export function readAttrs<S extends AttrSpecs>(node: Node, specs: S, where: string): AttrValues<S> {
  // Own properties only: an attribute a spec names 'constructor' is read from the node, never
  // from Object.prototype (user ops name their attributes).
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const key = [name, ...(spec.aliases ?? [])].find((k) => own(node.attrs, k) !== undefined);
    if (key === undefined) {
      if (spec.required) fail('bad-graph', `required attribute '${name}' is missing`, where);
      put(out, name, spec.default);
    } else {
      put(out, name, parseAttr(key, spec, node.attrs[key], where));
    }
  }
  return out as AttrValues<S>;
}

// ---------------------------------------------------------------------------------------------
// Entries

export interface InputSpec {
  name: string;
  optional?: boolean;
  /** Takes all remaining inputs (Concat). */
  variadic?: boolean;
  /** Holds indices, axes or a shape: must have an integer dtype. */
  index?: boolean;
}

export interface InferArgs<A> {
  node: Node;
  /** `node "Conv_3" (Conv)`: what every error about this node names. */
  where: string;
  attrs: A;
  /** Input types; undefined for an omitted optional input. */
  inputs: (TensorType | undefined)[];
  /** The input's value when it is known before running (initializer, Constant, folded). */
  constant(i: number): IntTensor | undefined;
  /** Opset version of the node's domain. */
  opset: number;
}

export interface EvalArgs<A> {
  node: Node;
  where: string;
  attrs: A;
  /** Input values; undefined for an omitted optional input. */
  inputs: (IntTensor | undefined)[];
  /** Output types as shape inference computed them. */
  outputs: TensorType[];
  opset: number;
}

export interface OpEntry<S extends AttrSpecs = AttrSpecs> {
  /** ONNX op types this entry implements. */
  ops: readonly string[];
  /** ONNX domains the op is accepted in ('' is the default domain). */
  domains: readonly string[];
  /** One line: what the op computes, in integers. */
  summary: string;
  inputs: readonly InputSpec[];
  outputs: readonly string[];
  attrs: S;
  /** Shape and dtype rule: input types -> output types. Throws PlaygroundErrors naming the node. */
  infer(a: InferArgs<AttrValues<S>>): TensorType[];
  /** Reference semantics on exact integers: the living spec the kernels are checked against. */
  eval(a: EvalArgs<AttrValues<S>>): IntTensor[];
  /** Shape inference may evaluate it when all inputs are constant (default true). */
  foldable?: boolean;
  /** eval reads only its inputs' shapes (Shape), so it folds even on non-constant inputs. */
  readsShapesOnly?: boolean;
  /**
   * Arithmetic work of one run, in multiply-accumulates or element operations; the default
   * is the output element count. Shape inference refuses graphs beyond MAX_WORK.
   */
  work?(a: { inputs: (TensorType | undefined)[]; outputs: TensorType[]; attrs: AttrValues<S> }): number;
  /** Bounds of the output's values whatever the inputs (a user op's declared dtype); unbounded when absent. */
  outputRange?(): readonly [number, number];
  /** Tiling constraints: which output dims may be cut and what each input tile needs; whole when absent. */
  tiling?: TileRule;
}

export function defineOp<S extends AttrSpecs>(entry: OpEntry<S>): OpEntry<S> {
  return entry;
}

/** Domains of standard ONNX ops. */
export const ONNX_DOMAINS = ['', 'ai.onnx'] as const;
/** Domains Deeploy's integer ops arrive in (quantlib exports, onnxruntime-extensions, ...). */
export const DEEPLOY_DOMAINS = ['', 'PACTOps', 'ai.onnx.contrib', 'deeploy'] as const;

export function whereNode(node: Pick<Node, 'name' | 'op'>): string {
  return `node "${node.name}" (${node.op})`;
}
