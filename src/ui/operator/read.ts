// Reading user operators back from outside the app (a share link, the browser's storage): the
// JSON is checked field by field against UserOp's shape and bounds before the app uses it, and
// the first wrong field is named. Whether a well-formed op makes sense (names, ranges, the
// semantics' expression) is the compiler's checkUserOp; the callers run it after this.
import type { UserAttr, UserOp, UserOpSpec, UserTensor, UserTileRule } from '../../compiler/ops/user/spec';
import { SHAPE_TEMPLATES } from '../../compiler/ops/user/spec';
import { OP_DTYPES } from './names';

export const OP_LIMITS = { ops: 16, attrs: 32, inputs: 8, rules: 8, name: 64, semantics: 2000, kernel: 64 * 1024, list: 64 };

export class BadOp extends Error {
  constructor(readonly field: string, readonly problem: string) {
    super(`${field} ${problem}`);
    this.name = 'BadOp';
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function obj(v: unknown, at: string, keys: readonly string[]): Obj {
  if (!isObj(v)) throw new BadOp(at, 'is not an object');
  for (const k of Object.keys(v)) if (!keys.includes(k)) throw new BadOp(at, `has an unknown field '${k.slice(0, 40)}'`);
  return v;
}
function str(v: unknown, at: string, max: number): string {
  if (typeof v !== 'string') throw new BadOp(at, 'is not text');
  if (v.length > max) throw new BadOp(at, `is longer than ${max} characters`);
  return v;
}
function int(v: unknown, at: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new BadOp(at, 'is not an integer');
  return v;
}
function list(v: unknown, at: string, max: number): unknown[] {
  if (!Array.isArray(v)) throw new BadOp(at, 'is not a list');
  if (v.length > max) throw new BadOp(at, `has more than ${max} entries`);
  return v;
}
function oneOf<T extends string>(v: unknown, values: readonly T[], at: string): T {
  if (!values.includes(v as T)) throw new BadOp(at, `is not one of ${values.join(', ')}`);
  return v as T;
}

function readAttr(v: unknown, at: string): UserAttr {
  const o = obj(v, at, ['name', 'kind', 'default', 'min', 'max']);
  const kind = oneOf(o.kind, ['int', 'ints'] as const, `${at}.kind`);
  const a: UserAttr = { name: str(o.name, `${at}.name`, OP_LIMITS.name), kind };
  if (o.default !== undefined)
    a.default = Array.isArray(o.default) ? list(o.default, `${at}.default`, OP_LIMITS.list).map((x, i) => int(x, `${at}.default.${i}`)) : int(o.default, `${at}.default`);
  if (o.min !== undefined) a.min = int(o.min, `${at}.min`);
  if (o.max !== undefined) a.max = int(o.max, `${at}.max`);
  return a;
}

function readTensor(v: unknown, at: string): UserTensor {
  const o = obj(v, at, ['name', 'dtype']);
  return { name: str(o.name, `${at}.name`, OP_LIMITS.name), dtype: oneOf(o.dtype, OP_DTYPES, `${at}.dtype`) };
}

function readRule(v: unknown, at: string): UserTileRule {
  const o = obj(v, at, ['axis', 'multiple', 'min']);
  const r: UserTileRule = { axis: int(o.axis, `${at}.axis`) };
  if (o.multiple !== undefined) r.multiple = int(o.multiple, `${at}.multiple`);
  if (o.min !== undefined) r.min = int(o.min, `${at}.min`);
  return r;
}

export function readSpec(v: unknown, at: string): UserOpSpec {
  const o = obj(v, at, ['op', 'domain', 'attrs', 'inputs', 'output', 'shape', 'semantics', 'tiling']);
  return {
    op: str(o.op, `${at}.op`, OP_LIMITS.name),
    domain: str(o.domain, `${at}.domain`, OP_LIMITS.name),
    attrs: list(o.attrs, `${at}.attrs`, OP_LIMITS.attrs).map((x, i) => readAttr(x, `${at}.attrs.${i}`)),
    inputs: list(o.inputs, `${at}.inputs`, OP_LIMITS.inputs).map((x, i) => readTensor(x, `${at}.inputs.${i}`)),
    output: readTensor(o.output, `${at}.output`),
    shape: oneOf(o.shape, SHAPE_TEMPLATES, `${at}.shape`),
    semantics: str(o.semantics, `${at}.semantics`, OP_LIMITS.semantics),
    tiling: list(o.tiling, `${at}.tiling`, OP_LIMITS.rules).map((x, i) => readRule(x, `${at}.tiling.${i}`)),
  };
}

export function readOp(v: unknown, at: string): UserOp {
  const o = obj(v, at, ['spec', 'kernel']);
  return { spec: readSpec(o.spec, `${at}.spec`), kernel: str(o.kernel, `${at}.kernel`, OP_LIMITS.kernel) };
}

/** A list of ops, each well-formed, with distinct op types. */
export function readOps(v: unknown, at: string): UserOp[] {
  const ops = list(v, at, OP_LIMITS.ops).map((x, i) => readOp(x, `${at}.${i}`));
  const seen = new Set<string>();
  for (const [i, o] of ops.entries()) {
    if (seen.has(o.spec.op)) throw new BadOp(`${at}.${i}.spec.op`, `names '${o.spec.op.slice(0, 40)}' a second time`);
    seen.add(o.spec.op);
  }
  return ops;
}
