// For tests of the generated C's text (issue 39): a small model whose every name field
// (graph name, producer, doc strings, node and tensor names, attribute names and string
// values, a user op's domain) holds a string of our choosing, compiled through the whole
// pipeline; the generated files preprocessed by our own preprocessor (src/sim/cc) into token
// streams; and a line-by-line comparison of two programs with comments and string literals
// blanked, so "the hostile program has no line the generator did not write" is checkable.
import { readFileSync } from 'node:fs';
import type { onnx } from 'onnx-proto';
import type { PlaygroundErrorData } from '../common/errors';
import type { CodegenResult } from '../compiler/codegen/types';
import { DEFAULT_CONFIG, type Config } from '../compiler/config';
import type { Graph } from '../compiler/ir/graph';
import { writeNpz } from '../compiler/npz';
import { proto } from '../compiler/onnx/proto';
import { writeOnnx } from '../compiler/onnx/write';
import type { UserOp, UserOpSpec } from '../compiler/ops/user/spec';
import { cIdentifier } from '../compiler/passes/front/sanitize-names';
import { nodeMilp } from '../pipeline/node/milp';
import { runPipeline } from '../pipeline/run';
import { preprocess } from '../sim/cc/preprocess';
import { LIBRARY_SOURCES } from '../sim/run/sources';

/** The name fields of the test model. Node and tensor names must sanitize to distinct identifiers. */
export interface ModelNames {
  graph: string;
  producer: string;
  /** Doc strings: of the model, the graph, each node, value info, initializer and attribute. */
  doc: string;
  nodes: [string, string];
  /** Inputs a, b; the user op's output t; the graph output y. */
  tensors: { a: string; b: string; t: string; y: string };
  /** An extra attribute's name on the Add (ignored by the op), and its string value. */
  attrName: string;
  attrValue: string;
  /** The user op's ONNX domain. */
  domain: string;
}

export const CLEAN: ModelNames = {
  graph: 'net', producer: 'tests', doc: 'doc', nodes: ['n_op', 'n_add'], tensors: { a: 'a', b: 'b', t: 't', y: 'y' },
  attrName: 'note', attrValue: 'plain', domain: 'lab.test',
};

/** The user op of the model: iLeakyReLU's spec under another name, in `domain`. */
export function hostOp(domain: string, op = 'HostOp', attr = 'shift'): UserOp {
  const lab = new URL('../pipeline/lab/', import.meta.url);
  const spec: UserOpSpec = JSON.parse(readFileSync(new URL('ileakyrelu.json', lab), 'utf8'));
  const kernel = readFileSync(new URL('scalar.c', lab), 'utf8');
  const s: UserOpSpec = { ...spec, op, domain, attrs: spec.attrs.map((a) => (a.name === 'shift' ? { ...a, name: attr } : a)),
    semantics: spec.semantics.replace(/\bshift\b/g, attr) };
  // The lab kernel's signature names its parameters; only the function name follows the op.
  return { spec: s, kernel: kernel.replace(/\biLeakyReLU_s8_s8\b/g, `${op}_s8_s8`).replace(/\bshift\b/g, attr) };
}

const SHAPE = [2, 8];

/** The model's ONNX bytes: y = Add(op(a), b) with op's attribute `attr` = 2, every name and doc string from `n`. */
export function modelBytes(n: ModelNames, attr = 'shift', op = 'HostOp'): Uint8Array {
  const g: Graph = {
    name: n.graph,
    nodes: [
      { name: n.nodes[0], op, domain: n.domain, inputs: [n.tensors.a], outputs: [n.tensors.t], attrs: { [attr]: { kind: 'int', value: 2 } } },
      { name: n.nodes[1], op: 'Add', domain: '', inputs: [n.tensors.t, n.tensors.b], outputs: [n.tensors.y],
        attrs: { [n.attrName]: { kind: 'string', value: n.attrValue } } },
    ],
    inputs: [{ name: n.tensors.a, dtype: 'int8', shape: SHAPE }, { name: n.tensors.b, dtype: 'int8', shape: SHAPE }],
    outputs: [{ name: n.tensors.y, dtype: 'int16', shape: SHAPE }],
    initializers: {},
    types: {},
    opsets: [{ domain: '', version: 17 }, { domain: n.domain, version: 1 }],
    producer: n.producer,
  };
  // Doc strings are not in the graph IR: set on the protobuf.
  const m = proto.ModelProto.decode(writeOnnx(g));
  m.docString = n.doc;
  const gp = m.graph!;
  gp.docString = n.doc;
  for (const x of [...(gp.node ?? []), ...(gp.input ?? []), ...(gp.output ?? []), ...(gp.valueInfo ?? []), ...(gp.initializer ?? [])])
    (x as { docString?: string }).docString = n.doc;
  for (const node of gp.node ?? []) for (const a of node.attribute ?? []) (a as onnx.IAttributeProto).docString = n.doc;
  return proto.ModelProto.encode(m).finish().slice();
}

const values = (seed: number) => Float64Array.from({ length: SHAPE[0] * SHAPE[1] }, (_, i) => ((i * 37 + seed * 11) % 256) - 128);

/** Fixed inputs (the same for both variants of a comparison). */
export const INPUTS = writeNpz([{ name: 'a', dtype: 'int8', shape: SHAPE, data: Int8Array.from(values(1)) },
  { name: 'b', dtype: 'int8', shape: SHAPE, data: Int8Array.from(values(2)) }] as never);

/** Compiles the model through the pipeline to its generated files (or the error). */
export async function compileModel(model: Uint8Array, ops: readonly UserOp[], config: Partial<Config>, inputs = INPUTS):
  Promise<{ code?: CodegenResult; error?: PlaygroundErrorData }> {
  let code: CodegenResult | undefined, error: PlaygroundErrorData | undefined;
  await runPipeline({ model, modelName: 'network.onnx', inputs, ops }, { ...DEFAULT_CONFIG, ...config },
    (e) => { if (e.type === 'stage' && e.stage === 'codegen') code = e.result; if (e.type === 'error') error = e.error; },
    { milp: nodeMilp, until: 'codegen' });
  return { code, error };
}

/** Every C file codegen writes (headers included), preprocessed as the builtin toolchain builds the program: the token texts. */
export function tokenStreams(code: CodegenResult): Map<string, string[]> {
  const files = new Map<string, string>();
  for (const [p, t] of LIBRARY_SOURCES) files.set(`/${p}`, t);
  for (const f of code.files) files.set(`/${f.path}`, f.content);
  const out = new Map<string, string[]>();
  for (const f of code.files) {
    if (!/\.[ch]$/.test(f.path)) continue;
    const r = preprocess(`/${f.path}`, {
      files: { read: (p) => files.get(p) }, includePaths: ['/', '/kernels', '/runtime'], systemPaths: ['/runtime/libc/include'], defines: ['DPG_XPULP'],
    });
    out.set(f.path, r.tokens.map((t) => t.text));
  }
  return out;
}

/**
 * The file's lines with the text of every comment and string or character literal blanked
 * (a lexer of C's comment and literal syntax, splices included): two files whose masked lines
 * are equal differ only inside comments and literals.
 */
export function maskedLines(text: string): string[] {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const body = end < 0 ? text.slice(i) : text.slice(i, end + 2);
      out += '/**/' + body.replace(/[^\n]/g, '');
      i += body.length;
    } else if (c === '/' && text[i + 1] === '/') {
      let j = i;
      while (j < n && !(text[j] === '\n' && text[j - 1] !== '\\')) j++;
      out += '//' + text.slice(i, j).replace(/[^\n]/g, '');
      i = j;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += `${c}${c}`;
      i = text[j] === c ? j + 1 : j;
    } else {
      out += c;
      i++;
    }
  }
  return out.split('\n');
}

/** The files codegen writes as text to compare (the user's kernel is the user's own C). */
export const comparedFiles = (code: CodegenResult) => code.files.filter((f) => f.kind !== 'kernel');

/** Replaces every hostile name by the identifier sanitize-names gives it: the clean twin of a model. */
export function cleanTwin(n: ModelNames): ModelNames {
  const id = cIdentifier;
  return {
    graph: CLEAN.graph, producer: CLEAN.producer, doc: CLEAN.doc, nodes: [id(n.nodes[0]), id(n.nodes[1])],
    tensors: { a: id(n.tensors.a), b: id(n.tensors.b), t: id(n.tensors.t), y: id(n.tensors.y) },
    attrName: CLEAN.attrName, attrValue: CLEAN.attrValue, domain: CLEAN.domain,
  };
}
