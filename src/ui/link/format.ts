// The share link's format: what a link holds (LinkState) and its text, the URL's query string
// and, for the compressed part, its fragment (#z=..., never sent to a server).
// Short, readable parameters for the configuration and the view (a built-in model's link stays
// well under 300 characters); the bulky parts (edits as diffs, a small dropped model, the pinned
// baseline, tutorial progress) go deflated into one `z` parameter, in the fragment. Versioned (`v`); an older
// link is migrated. Parsed as data only and strictly: every parameter has a grammar and a size
// limit, unknown ones are refused, the compressed part is inflated with a byte limit and its
// JSON checked field by field; anything else is a LinkError saying what is wrong.
import type { Config, MemLevel, PlatformName } from '../../compiler/config';
import { DEFAULT_CONFIG, PLATFORMS } from '../../compiler/config';
import type { UserOp } from '../../compiler/ops/user/spec';
import { BadOp, readOps } from '../operator/read';
import { shownName } from '../names';
import { EDIT_LIMITS, type Hunk } from './diff';

export const LINK_VERSION = 1;

export class LinkError extends Error {
  constructor(readonly what: string) { super(what); }
}

export interface NamedBytes { name: string; bytes: Uint8Array }

export type LinkModel =
  | { kind: 'builtin'; id: string }
  /** A dropped model small enough to travel inside the link. */
  | { kind: 'inline'; model: NamedBytes; inputs?: NamedBytes; outputs?: NamedBytes }
  /** A larger one: its name and content hash; the app asks for the file. */
  | { kind: 'file'; name: string; sha256: string; size: number };

export interface LinkState {
  model?: LinkModel;
  /** The fields that differ from DEFAULT_CONFIG. */
  config: Partial<Config>;
  /** The view showed a compile's results: opening the link compiles (and runs) again. */
  run?: boolean;
  /** Workspace preset. */
  layout?: string;
  graph?: { left?: number; right?: number; node?: { snapshot: number; node: string }; hide?: boolean };
  code?: { file?: string; line?: number; asm?: boolean };
  timeline?: { t0: number; t1: number };
  baseline?: { config: Config; cycles: number; model: string };
  /** Code pane edits: path -> hunks against the generated (or library) text. */
  edits?: Record<string, Hunk[]>;
  /** Tutorial progress (its own module validates the inside). */
  tutorial?: { step: string; passed: string[] };
  /** User-defined operators (spec and kernel), installed before the model loads. */
  ops?: UserOp[];
}

// ---- limits
const MAX_QUERY = 200_000; // characters of the whole query string
const MAX_Z_INFLATED = 4 << 20; // bytes of the compressed part once inflated
const MAX_INLINE_MODEL = 48 << 10; // bytes of a model carried inside the link (before compression)
const MAX_EDIT_FILES = 64;
const MAX_HUNKS = 2000;
const MAX_LINES_INSERTED = EDIT_LIMITS.lines;
const MAX_BYTES_INSERTED = EDIT_LIMITS.bytes;
const MAX_DEPTH = 8; // nesting of the compressed JSON

export const INLINE_MODEL_LIMIT = MAX_INLINE_MODEL;

// ---- grammars
const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const PATH = /^(?!.*\.\.)[A-Za-z0-9_][A-Za-z0-9_./-]{0,127}$/;
const INT = /^(0|[1-9]\d{0,11})$/;
const HEX64 = /^[0-9a-f]{64}$/;
// Names (nodes, tensors, files, models): any text a model can hold, so that every link the app
// writes reads back: 1 to 1024 UTF-16 units of well-formed Unicode (no lone surrogate, which a
// URL cannot carry). They are data only: React escapes them as text, and the UI shows invisible
// and reordering characters as ⟨U+XXXX⟩ (names.ts).
const NAME = /^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff]){1,1024}$/;
export const MAX_NAME = 1024;
/** Whether a name can travel in a link as it is. */
export const isLinkName = (s: string): boolean => s.length <= MAX_NAME && NAME.test(s);
const LEVELS: readonly MemLevel[] = ['L2', 'L3'];

function int(key: string, v: string, min: number, max: number): number {
  if (!INT.test(v)) throw new LinkError(`'${key}' must be a whole number, not '${clip(v)}'`);
  const n = Number(v);
  if (n < min || n > max) throw new LinkError(`'${key}' = ${n} is out of range (${min}..${max})`);
  return n;
}
const bool = (key: string, v: string): boolean => {
  if (v !== '0' && v !== '1') throw new LinkError(`'${key}' must be 0 or 1, not '${clip(v)}'`);
  return v === '1';
};
const match = (key: string, v: string, re: RegExp, what: string): string => {
  if (!re.test(v)) throw new LinkError(`'${key}' is not ${what}: '${clip(v)}'`);
  return v;
};
// A piece of the link quoted in a message: short, its invisible and reordering characters shown (names.ts).
const clip = (s: string) => shownName(s.length > 40 ? `${s.slice(0, 40)}…` : s);

// ---- base64url and deflate (CompressionStream: browsers and Node 18+)
export function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
export function fromBase64Url(s: string, key: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new LinkError(`'${key}' is not base64url`);
  let bin: string;
  try {
    bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  } catch {
    throw new LinkError(`'${key}' is not base64url`);
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Inflates at most `limit` bytes; more is a LinkError (a compression bomb stops there). */
async function inflate(bytes: Uint8Array, limit: number, key: string): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > limit) throw new LinkError(`'${key}' inflates to more than ${limit} bytes`);
      parts.push(value);
    }
  } catch (e) {
    void reader.cancel().catch(() => undefined);
    if (e instanceof LinkError) throw e;
    throw new LinkError(`'${key}' is not valid compressed data`);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

// ---- the compressed part's JSON, checked field by field
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function depthOk(v: unknown, d: number): boolean {
  if (d > MAX_DEPTH) return false;
  if (Array.isArray(v)) return v.every((x) => depthOk(x, d + 1));
  if (v && typeof v === 'object') return Object.values(v).every((x) => depthOk(x, d + 1));
  return true;
}
const isObj = (v: unknown): v is Record<string, Json> => !!v && typeof v === 'object' && !Array.isArray(v);
function only(o: Record<string, unknown>, keys: readonly string[], where: string): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw new LinkError(`unknown field '${clip(k)}' in ${where}`);
}
function str(v: unknown, where: string, re = NAME, what = 'a name'): string {
  if (typeof v !== 'string' || !re.test(v)) throw new LinkError(`${where} is not ${what}`);
  return v;
}
function num(v: unknown, where: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new LinkError(`${where} must be a whole number in ${min}..${max}`);
  return v;
}

function readConfig(v: unknown, where: string): Config {
  if (!isObj(v)) throw new LinkError(`${where} is not a configuration`);
  only(v, Object.keys(DEFAULT_CONFIG), where);
  const c = { ...DEFAULT_CONFIG };
  if ('platform' in v) { if (!PLATFORMS.includes(v.platform as PlatformName)) throw new LinkError(`${where}.platform is not a platform`); c.platform = v.platform as PlatformName; }
  if ('cores' in v) c.cores = num(v.cores, `${where}.cores`, 1, 64);
  if ('l1' in v) c.l1 = num(v.l1, `${where}.l1`, 1, 1 << 30);
  if ('l2' in v) c.l2 = num(v.l2, `${where}.l2`, 1, 1 << 30);
  for (const k of ['tiled', 'doubleBuffer', 'neurekaWmem'] as const) {
    if (k in v) { if (typeof v[k] !== 'boolean') throw new LinkError(`${where}.${k} is not true or false`); c[k] = v[k] as boolean; }
  }
  if ('defaultMemLevel' in v) { if (!LEVELS.includes(v.defaultMemLevel as MemLevel)) throw new LinkError(`${where}.defaultMemLevel is not L2 or L3`); c.defaultMemLevel = v.defaultMemLevel as MemLevel; }
  if ('profileTiling' in v) {
    if (v.profileTiling !== null && !LEVELS.includes(v.profileTiling as MemLevel)) throw new LinkError(`${where}.profileTiling is not L2, L3 or null`);
    c.profileTiling = v.profileTiling as MemLevel | null;
  }
  return c;
}

function readBytes(v: unknown, where: string, limit: number): NamedBytes {
  if (!isObj(v)) throw new LinkError(`${where} is not a file`);
  only(v, ['name', 'data'], where);
  const name = str(v.name, `${where}.name`);
  if (typeof v.data !== 'string' || v.data.length > Math.ceil((limit * 4) / 3) + 4) throw new LinkError(`${where} is larger than ${limit} bytes`);
  return { name, bytes: fromBase64Url(v.data, `${where}.data`) };
}

function readHunks(v: unknown, where: string, budget: { lines: number; bytes: number }): Hunk[] {
  if (!Array.isArray(v) || v.length > MAX_HUNKS) throw new LinkError(`${where} is not a list of at most ${MAX_HUNKS} edits`);
  return v.map((h, i) => {
    const w = `${where}[${i}]`;
    if (!Array.isArray(h) || h.length !== 4) throw new LinkError(`${w} is not an edit`);
    const at = num(h[0], `${w} line`, 0, 10_000_000), del = num(h[1], `${w} count`, 0, 10_000_000);
    const hash = str(h[2], `${w} hash`, /^[0-9a-f]{8}$/, 'a hash');
    if (!Array.isArray(h[3])) throw new LinkError(`${w} has no inserted lines`);
    budget.lines -= h[3].length;
    if (budget.lines < 0) throw new LinkError(`the edits insert more than ${MAX_LINES_INSERTED} lines`);
    const ins = h[3].map((l, k) => { if (typeof l !== 'string' || l.length > 10_000) throw new LinkError(`${w} line ${k} is not text`); return l; });
    for (const l of ins) budget.bytes -= l.length + 1;
    if (budget.bytes < 0) throw new LinkError(`the edits insert more than ${MAX_BYTES_INSERTED} characters`);
    return [at, del, hash, ins] as Hunk;
  });
}

async function readZ(z: string, s: LinkState): Promise<void> {
  const raw = await inflate(fromBase64Url(z, 'z'), MAX_Z_INFLATED, 'z');
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    throw new LinkError("'z' is not JSON");
  }
  if (!isObj(v) || !depthOk(v, 0)) throw new LinkError(`'z' is not an object of at most ${MAX_DEPTH} levels`);
  only(v, ['edits', 'model', 'baseline', 'tutorial', 'ops'], "'z'");
  if ('edits' in v) {
    if (!isObj(v.edits)) throw new LinkError('the edits are not a map of files');
    const paths = Object.keys(v.edits);
    if (paths.length > MAX_EDIT_FILES) throw new LinkError(`edits of ${paths.length} files: at most ${MAX_EDIT_FILES}`);
    const budget = { lines: MAX_LINES_INSERTED, bytes: MAX_BYTES_INSERTED };
    s.edits = {};
    for (const p of paths) s.edits[match('edit path', p, PATH, 'a file path')] = readHunks(v.edits[p], `the edit of ${p}`, budget);
  }
  if ('model' in v) {
    if (s.model) throw new LinkError('the link names two models');
    const m = v.model;
    if (!isObj(m)) throw new LinkError('the inline model is not a model');
    only(m, ['model', 'inputs', 'outputs'], 'the inline model');
    s.model = {
      kind: 'inline', model: readBytes(m.model, 'the inline model', MAX_INLINE_MODEL),
      ...(m.inputs !== undefined ? { inputs: readBytes(m.inputs, 'its inputs', MAX_INLINE_MODEL) } : {}),
      ...(m.outputs !== undefined ? { outputs: readBytes(m.outputs, 'its outputs', MAX_INLINE_MODEL) } : {}),
    };
  }
  if ('baseline' in v) {
    const b = v.baseline;
    if (!isObj(b)) throw new LinkError('the baseline is not a run');
    only(b, ['config', 'cycles', 'model'], 'the baseline');
    s.baseline = { config: readConfig(b.config, 'the baseline configuration'), cycles: num(b.cycles, 'the baseline cycles', 1, Number.MAX_SAFE_INTEGER), model: str(b.model, 'the baseline model') };
  }
  if ('ops' in v) s.ops = await readLinkOps(v.ops);
  if ('tutorial' in v) {
    const t = v.tutorial;
    if (!isObj(t)) throw new LinkError('the tutorial progress is not an object');
    only(t, ['step', 'passed'], 'the tutorial progress');
    if (!Array.isArray(t.passed) || t.passed.length > 100) throw new LinkError('the tutorial progress is not a list of steps');
    s.tutorial = { step: str(t.step, 'the tutorial step', ID, 'a step id'), passed: t.passed.map((x) => str(x, 'a passed step', ID, 'a step id')) };
  }
}

/** The link's operators: each well-formed (read.ts), then valid as the compiler checks an op (its checks load with the first link that has ops). */
async function readLinkOps(v: unknown): Promise<UserOp[]> {
  let ops: UserOp[];
  try {
    ops = readOps(v, 'ops');
  } catch (e) {
    if (e instanceof BadOp) throw new LinkError(`the link's operators: ${e.field} ${e.problem}`);
    throw e;
  }
  const { checkUserOp } = await import('../../compiler/ops/user/entry');
  for (const op of ops) {
    const p = checkUserOp(op.spec)[0];
    if (p) throw new LinkError(`the link's operator '${clip(op.spec.op)}' is not valid: ${p.field}: ${p.message}`);
  }
  return ops;
}

// ---- the query string
/** Parameters the app once read for tests and benchmarks: accepted beside a link and ignored (test-hooks.ts), dropped from the address. */
const FOREIGN = new Set(['stall', 'bench']);
const CONFIG_KEYS: Record<string, keyof Config> = { p: 'platform', c: 'cores', t: 'tiled', l1: 'l1', l2: 'l2', hl: 'defaultMemLevel', db: 'doubleBuffer', w: 'neurekaWmem', pt: 'profileTiling' };

/** Parses a location's query string (with or without '?') and fragment ('#z=...', after it). An empty one is an empty state. */
export async function decodeLink(search: string): Promise<LinkState> {
  if (search.length > MAX_QUERY) throw new LinkError(`the link is ${search.length} characters long: at most ${MAX_QUERY}`);
  // The bulky part travels in the fragment (#z=...), which no request carries to a server (no
  // header limit to meet); a link made before that has it in the query, and opens as it did.
  const hashAt = search.indexOf('#');
  const query = hashAt < 0 ? search : search.slice(0, hashAt);
  const fragment = hashAt < 0 ? '' : search.slice(hashAt + 1);
  let params: URLSearchParams, frag: URLSearchParams;
  try {
    params = new URLSearchParams(query);
    frag = new URLSearchParams(fragment);
  } catch {
    throw new LinkError('the link\'s query string cannot be read');
  }
  const seen = new Set<string>();
  for (const k of params.keys()) {
    if (seen.has(k)) throw new LinkError(`'${clip(k)}' appears twice`);
    seen.add(k);
  }
  for (const k of frag.keys()) {
    if (k !== 'z') throw new LinkError(`unknown parameter '${clip(k)}' in the link's fragment (#): only 'z' goes there`);
    if (seen.has(k)) throw new LinkError(`'${clip(k)}' appears twice`);
    seen.add(k);
  }
  const get = (k: string) => params.get(k) ?? frag.get(k) ?? undefined;
  const version = get('v');
  // Version 0: the address the app wrote before links existed, ?model=<id> alone.
  if (version === undefined) {
    for (const k of seen) if (k !== 'model' && !FOREIGN.has(k)) throw new LinkError(`unknown parameter '${clip(k)}' (a link without a version may only name a model)`);
    const id = get('model');
    return migrate0(id === undefined ? undefined : match('model', id, ID, 'a built-in model id'));
  }
  const v = int('v', version, 0, 1_000_000);
  if (v > LINK_VERSION) throw new LinkError(`the link was made by a newer version of the playground (format ${v}; this one reads up to ${LINK_VERSION})`);
  const known = new Set(['v', 'm', 'mf', 'mh', 'ms', 'r', ...Object.keys(CONFIG_KEYS), 'lay', 'gl', 'gr', 'gn', 'gh', 'f', 'ln', 'asm', 'tw', 'z']);
  for (const k of seen) if (!known.has(k) && !FOREIGN.has(k)) throw new LinkError(`unknown parameter '${clip(k)}'`);

  const s: LinkState = { config: {} };
  const m = get('m'), mf = get('mf');
  if (m !== undefined && mf !== undefined) throw new LinkError('the link names two models');
  if (m !== undefined) s.model = { kind: 'builtin', id: match('m', m, ID, 'a built-in model id') };
  if (mf !== undefined) {
    const mh = get('mh'), ms = get('ms');
    if (mh === undefined || ms === undefined) throw new LinkError("a model file ('mf') needs its hash ('mh') and size ('ms')");
    s.model = { kind: 'file', name: match('mf', mf, NAME, 'a file name'), sha256: match('mh', mh, HEX64, 'a SHA-256 hash'), size: int('ms', ms, 1, 1 << 30) };
  }
  for (const [k, field] of Object.entries(CONFIG_KEYS)) {
    const x = get(k);
    if (x === undefined) continue;
    switch (field) {
      case 'platform': if (!PLATFORMS.includes(x as PlatformName)) throw new LinkError(`'p' is not a platform: '${clip(x)}'`); s.config.platform = x as PlatformName; break;
      case 'cores': s.config.cores = int(k, x, 1, 64); break;
      case 'l1': s.config.l1 = int(k, x, 1, 1 << 30); break;
      case 'l2': s.config.l2 = int(k, x, 1, 1 << 30); break;
      case 'tiled': s.config.tiled = bool(k, x); break;
      case 'doubleBuffer': s.config.doubleBuffer = bool(k, x); break;
      case 'neurekaWmem': s.config.neurekaWmem = bool(k, x); break;
      case 'defaultMemLevel': if (!LEVELS.includes(x as MemLevel)) throw new LinkError(`'hl' is not L2 or L3: '${clip(x)}'`); s.config.defaultMemLevel = x as MemLevel; break;
      case 'profileTiling': if (!LEVELS.includes(x as MemLevel)) throw new LinkError(`'pt' is not L2 or L3: '${clip(x)}'`); s.config.profileTiling = x as MemLevel; break;
    }
  }
  const r = get('r');
  if (r !== undefined) s.run = bool('r', r);
  const lay = get('lay');
  if (lay !== undefined) s.layout = match('lay', lay, ID, 'a layout');
  const gl = get('gl'), gr = get('gr'), gn = get('gn'), gh = get('gh');
  if (gl !== undefined || gr !== undefined || gn !== undefined || gh !== undefined) {
    s.graph = {};
    if (gl !== undefined) s.graph.left = int('gl', gl, 0, 10_000);
    if (gr !== undefined) s.graph.right = int('gr', gr, 0, 10_000);
    if (gh !== undefined) s.graph.hide = bool('gh', gh);
    if (gn !== undefined) {
      const dot = gn.indexOf('.');
      if (dot <= 0) throw new LinkError("'gn' is not <pass>.<node>");
      s.graph.node = { snapshot: int('gn', gn.slice(0, dot), 0, 10_000), node: match('gn', gn.slice(dot + 1), NAME, 'a node name') };
    }
  }
  const f = get('f'), ln = get('ln'), asm = get('asm');
  if (f !== undefined || ln !== undefined || asm !== undefined) {
    s.code = {};
    if (f !== undefined) s.code.file = match('f', f, PATH, 'a file path');
    if (ln !== undefined) s.code.line = int('ln', ln, 1, 10_000_000);
    if (asm !== undefined) s.code.asm = bool('asm', asm);
  }
  const tw = get('tw');
  if (tw !== undefined) {
    const [a, b, ...rest] = tw.split('-');
    if (a === undefined || b === undefined || rest.length) throw new LinkError("'tw' is not <from>-<to>");
    const t0 = int('tw', a, 0, Number.MAX_SAFE_INTEGER), t1 = int('tw', b, 0, Number.MAX_SAFE_INTEGER);
    if (t1 <= t0) throw new LinkError("'tw' ends before it starts");
    s.timeline = { t0, t1 };
  }
  const z = get('z');
  if (z !== undefined) await readZ(z, s);
  return s;
}

/** Version 0 (?model=<id>): the model, nothing else. */
export function migrate0(id: string | undefined): LinkState {
  return { config: {}, ...(id ? { model: { kind: 'builtin', id } } : {}) };
}

/** The link of a state: its query string (with '?') and, when it has a compressed part, the fragment '#z=...'. */
export async function encodeLink(s: LinkState): Promise<string> {
  const q: [string, string][] = [['v', String(LINK_VERSION)]];
  if (s.model?.kind === 'builtin') q.push(['m', s.model.id]);
  if (s.model?.kind === 'file') q.push(['mf', s.model.name], ['mh', s.model.sha256], ['ms', String(s.model.size)]);
  for (const [k, field] of Object.entries(CONFIG_KEYS)) {
    const v = s.config[field];
    if (v === undefined || v === null || v === DEFAULT_CONFIG[field]) continue;
    q.push([k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v)]);
  }
  if (s.run) q.push(['r', '1']);
  if (s.layout) q.push(['lay', s.layout]);
  if (s.graph?.left !== undefined) q.push(['gl', String(s.graph.left)]);
  if (s.graph?.right !== undefined) q.push(['gr', String(s.graph.right)]);
  if (s.graph?.hide) q.push(['gh', '1']);
  if (s.graph?.node) q.push(['gn', `${s.graph.node.snapshot}.${s.graph.node.node}`]);
  if (s.code?.file) q.push(['f', s.code.file]);
  if (s.code?.line) q.push(['ln', String(s.code.line)]);
  if (s.code?.asm) q.push(['asm', '1']);
  if (s.timeline) q.push(['tw', `${Math.round(s.timeline.t0)}-${Math.round(s.timeline.t1)}`]);
  const z: Record<string, unknown> = {};
  if (s.edits && Object.keys(s.edits).length) z.edits = s.edits;
  if (s.model?.kind === 'inline') {
    const nb = (x: NamedBytes) => ({ name: x.name, data: toBase64Url(x.bytes) });
    z.model = { model: nb(s.model.model), ...(s.model.inputs ? { inputs: nb(s.model.inputs) } : {}), ...(s.model.outputs ? { outputs: nb(s.model.outputs) } : {}) };
  }
  if (s.baseline) z.baseline = s.baseline;
  if (s.tutorial) z.tutorial = s.tutorial;
  if (s.ops?.length) z.ops = s.ops;
  const query = `?${new URLSearchParams(q).toString()}`;
  // The compressed part in the fragment: a model carried inside can make it tens of kilobytes,
  // more than servers take in a request line (vite preview and Node: 16 KB of headers).
  if (!Object.keys(z).length) return query;
  return `${query}#${new URLSearchParams([['z', toBase64Url(await deflate(new TextEncoder().encode(JSON.stringify(z))))]]).toString()}`;
}
