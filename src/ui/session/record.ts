// What a session keeps across a reload, as stored in IndexedDB: the model (a built-in one by id,
// opened files by reference to their bytes in the files store), the configuration, the code
// pane's edits and the pinned baseline. Versioned; everything read back is checked field by field
// before the app uses it (storage can hold anything: an older app's records, a broken write,
// another tab's bug), and the check names the first field that is wrong.
import { PlaygroundError } from '../../common/errors';
import type { Config } from '../../compiler/config';
import { PLATFORMS, validateConfig } from '../../compiler/config';
import type { UserOp } from '../../compiler/ops/user/spec';
import { BadOp, readOp, readOps } from '../operator/read';
import type { RunBaseline } from '../panes/run/baseline';
import type { FileEdit } from '../panes/code/state';

export const SESSION_VERSION = 1;

/** A file kept in the files store: its key there (`sha256:<hex>` of its bytes, or `id:<random>`), its name and size. */
export interface StoredFile {
  key: string;
  name: string;
  size: number;
}

export type StoredModel =
  /** A built-in model, fetched again by id; npz files opened for it instead of its own are kept. */
  | { kind: 'builtin'; id: string; inputs?: StoredFile; outputs?: StoredFile }
  /** A model the user dropped or opened, with its npz files. */
  | { kind: 'files'; model: StoredFile; inputs?: StoredFile; outputs?: StoredFile };

export interface StoredCode {
  file: string | null;
  editing: boolean;
  asm: boolean;
  edits: Record<string, FileEdit>;
}

export interface SessionRecord {
  version: typeof SESSION_VERSION;
  /** The browser tab's session id (kept in its sessionStorage). */
  id: string;
  /** Date.now() of the write; the oldest sessions are pruned. */
  savedAt: number;
  model: StoredModel | null;
  config: Config;
  code: StoredCode;
  /** The generated files of the last compile, by path: edits of them go into the first compile after a restore. */
  programFiles: string[] | null;
  baseline: RunBaseline | null;
  /** The applied user operators (absent: none; records before them have none). */
  ops?: UserOp[];
  /** The Operator pane's op being edited, when it is not the empty one. */
  operator?: { draft: UserOp; editing: string | null };
}

/** A stored file's bytes as kept in the files store. */
export interface FileBlob {
  key: string;
  bytes: Uint8Array;
}

/** Bounds on what a record may hold: far above real use, low enough that a broken record cannot swamp the page. */
export const LIMITS = {
  name: 1_000, edits: 1_000, editChars: 32 * 1024 * 1024, programFiles: 10_000, layers: 100_000, fileBytes: 64 * 1024 * 1024,
};

/** A record that does not have the expected shape; `field` is the path to the first bad value. */
export class BadRecord extends Error {
  constructor(readonly field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.name = 'BadRecord';
  }
}

type Obj = Record<string, unknown>;

function obj(v: unknown, at: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new BadRecord(at, 'is not an object');
  return v as Obj;
}

function str(v: unknown, at: string, max = LIMITS.name): string {
  if (typeof v !== 'string') throw new BadRecord(at, 'is not a string');
  if (v.length > max) throw new BadRecord(at, `is longer than ${max} characters`);
  return v;
}

function bool(v: unknown, at: string): boolean {
  if (typeof v !== 'boolean') throw new BadRecord(at, 'is not true or false');
  return v;
}

function num(v: unknown, at: string, min: number, max: number, integer = true): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isInteger(v)) || v < min || v > max)
    throw new BadRecord(at, `is not ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  return v;
}

function oneOf<T extends string | null>(v: unknown, values: readonly T[], at: string): T {
  if (!values.includes(v as T)) throw new BadRecord(at, `is not one of ${values.map((x) => JSON.stringify(x)).join(', ')}`);
  return v as T;
}

/** Own keys of a plain record, bounded. */
function entries(v: unknown, at: string, max: number): [string, unknown][] {
  const e = Object.entries(obj(v, at));
  if (e.length > max) throw new BadRecord(at, `has more than ${max} entries`);
  return e;
}

const FILE_KEY = /^(sha256:[0-9a-f]{64}|id:[0-9A-Za-z-]{8,64})$/;

export function checkStoredFile(v: unknown, at: string): StoredFile {
  const o = obj(v, at);
  const key = str(o.key, `${at}.key`);
  if (!FILE_KEY.test(key)) throw new BadRecord(`${at}.key`, 'is not a file key');
  return { key, name: str(o.name, `${at}.name`), size: num(o.size, `${at}.size`, 0, LIMITS.fileBytes) };
}

function checkModel(v: unknown, at: string): StoredModel | null {
  if (v === null) return null;
  const o = obj(v, at);
  const npz = {
    ...(o.inputs !== undefined ? { inputs: checkStoredFile(o.inputs, `${at}.inputs`) } : {}),
    ...(o.outputs !== undefined ? { outputs: checkStoredFile(o.outputs, `${at}.outputs`) } : {}),
  };
  const kind = oneOf(o.kind, ['builtin', 'files'] as const, `${at}.kind`);
  if (kind === 'builtin') return { kind, id: str(o.id, `${at}.id`), ...npz };
  return { kind, model: checkStoredFile(o.model, `${at}.model`), ...npz };
}

/** A configuration: every field of the right type, then the compiler's own range checks. */
export function checkConfig(v: unknown, at: string): Config {
  const o = obj(v, at);
  const levels = ['L2', 'L3'] as const;
  const c: Config = {
    platform: oneOf(o.platform, PLATFORMS, `${at}.platform`),
    cores: num(o.cores, `${at}.cores`, 1, 1024),
    tiled: bool(o.tiled, `${at}.tiled`),
    l1: num(o.l1, `${at}.l1`, 0, 2 ** 32),
    l2: num(o.l2, `${at}.l2`, 0, 2 ** 32),
    defaultMemLevel: oneOf(o.defaultMemLevel, levels, `${at}.defaultMemLevel`),
    doubleBuffer: bool(o.doubleBuffer, `${at}.doubleBuffer`),
    neurekaWmem: bool(o.neurekaWmem, `${at}.neurekaWmem`),
    profileTiling: oneOf(o.profileTiling, [...levels, null], `${at}.profileTiling`),
  };
  try {
    return validateConfig(c);
  } catch (err) {
    if (err instanceof PlaygroundError) throw new BadRecord(`${at}.${err.data.where ?? ''}`, err.data.what);
    throw err;
  }
}

function checkCode(v: unknown, at: string): StoredCode {
  const o = obj(v, at);
  let chars = 0;
  // fromEntries defines own properties: a path such as "__proto__" stays a key.
  const edits: Record<string, FileEdit> = Object.fromEntries(entries(o.edits, `${at}.edits`, LIMITS.edits).map(([path, e]) => {
    const where = `${at}.edits[${JSON.stringify(path.slice(0, 80))}]`;
    str(path, where);
    const eo = obj(e, where);
    const text = str(eo.text, `${where}.text`, LIMITS.editChars);
    const base = str(eo.base, `${where}.base`, LIMITS.editChars);
    chars += text.length + base.length;
    if (chars > LIMITS.editChars) throw new BadRecord(`${at}.edits`, `hold more than ${LIMITS.editChars} characters`);
    return [path, { text, base }];
  }));
  return {
    file: o.file === null ? null : str(o.file, `${at}.file`),
    editing: bool(o.editing, `${at}.editing`),
    asm: bool(o.asm, `${at}.asm`),
    edits,
  };
}

function checkBaseline(v: unknown, at: string): RunBaseline | null {
  if (v === null) return null;
  const o = obj(v, at);
  const layers: Record<string, number> = Object.fromEntries(entries(o.layers, `${at}.layers`, LIMITS.layers).map(([node, cycles]) =>
    [str(node, `${at}.layers`), num(cycles, `${at}.layers[${JSON.stringify(node.slice(0, 80))}]`, 0, Number.MAX_SAFE_INTEGER, false)]));
  return {
    cycles: num(o.cycles, `${at}.cycles`, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER, false),
    layers,
    config: o.config === null ? null : checkConfig(o.config, `${at}.config`),
    model: str(o.model, `${at}.model`),
  };
}

/** The operators' shape (read.ts) as a BadRecord naming the field; their validity is checked again when applied. */
function checkOps<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof BadOp) throw new BadRecord(e.field, e.problem);
    throw e;
  }
}

function checkOperator(v: unknown, at: string): { draft: UserOp; editing: string | null } {
  const o = obj(v, at);
  return { draft: checkOps(() => readOp(o.draft, `${at}.draft`)), editing: o.editing === null ? null : str(o.editing, `${at}.editing`) };
}

function checkPaths(v: unknown, at: string): string[] | null {
  if (v === null) return null;
  if (!Array.isArray(v)) throw new BadRecord(at, 'is not a list');
  if (v.length > LIMITS.programFiles) throw new BadRecord(at, `has more than ${LIMITS.programFiles} entries`);
  return v.map((p, i) => str(p, `${at}[${i}]`));
}

/**
 * A record read back from storage, checked: a copy holding only the known fields, or BadRecord.
 * Records of an older schema version are migrated here (none yet: version 1 is the first);
 * one of a newer version (a newer app ran in this browser) is refused rather than guessed at.
 */
export function checkSession(raw: unknown): SessionRecord {
  const o = obj(raw, 'session');
  const version = o.version;
  if (typeof version === 'number' && Number.isInteger(version) && version > SESSION_VERSION)
    throw new BadRecord('session.version', `is ${version}, saved by a newer version of the playground (this one reads ${SESSION_VERSION})`);
  if (version !== SESSION_VERSION) throw new BadRecord('session.version', `is not a known version (${SESSION_VERSION})`);
  return {
    version,
    id: str(o.id, 'session.id', 100),
    savedAt: num(o.savedAt, 'session.savedAt', 0, Number.MAX_SAFE_INTEGER),
    model: checkModel(o.model, 'session.model'),
    config: checkConfig(o.config, 'session.config'),
    code: checkCode(o.code, 'session.code'),
    programFiles: checkPaths(o.programFiles, 'session.programFiles'),
    baseline: checkBaseline(o.baseline, 'session.baseline'),
    ...(o.ops !== undefined ? { ops: checkOps(() => readOps(o.ops, 'session.ops')) } : {}),
    ...(o.operator !== undefined ? { operator: checkOperator(o.operator, 'session.operator') } : {}),
  };
}

/** A file's bytes read back: the record of `ref` with bytes of its size (the caller checks the hash). */
export function checkBlob(raw: unknown, ref: StoredFile): Uint8Array {
  if (raw === undefined) throw new BadRecord(ref.name, 'is no longer in the browser\'s storage');
  const o = obj(raw, ref.name);
  if (o.key !== ref.key) throw new BadRecord(ref.name, 'is stored under another key');
  if (!(o.bytes instanceof Uint8Array)) throw new BadRecord(ref.name, 'has no bytes');
  if (o.bytes.length !== ref.size) throw new BadRecord(ref.name, `has ${o.bytes.length} bytes, not the ${ref.size} it had`);
  return o.bytes;
}
