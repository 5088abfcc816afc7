// The built-in models listed in public/models/index.json, and fetching their files.
import { PlaygroundError } from '../common/errors';
import type { NamedBytes } from './files';

export interface BuiltinModel {
  id: string;
  name: string;
  description: string;
  /** Paths relative to models/. */
  files: { model: string; inputs?: string; outputs?: string };
}

const base = `${import.meta.env.BASE_URL}models/`;

function isBuiltin(x: unknown): x is BuiltinModel {
  if (typeof x !== 'object' || x === null) return false;
  const m = x as Record<string, unknown>;
  const files = m.files as Record<string, unknown> | undefined;
  const optString = (v: unknown) => v === undefined || typeof v === 'string';
  return typeof m.id === 'string' && typeof m.name === 'string'
    && (m.description === undefined || typeof m.description === 'string')
    && typeof files === 'object' && files !== null && typeof files.model === 'string'
    && optString(files.inputs) && optString(files.outputs);
}

async function fetchOk(path: string): Promise<Response> {
  const url = base + path;
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new PlaygroundError({ code: 'bad-file', what: `could not fetch ${url}: ${String(err)}`, where: url });
  }
  if (!res.ok)
    throw new PlaygroundError({
      code: 'bad-file', what: `${url} answered ${res.status} ${res.statusText}`, where: url,
      hint: 'check public/models/index.json and the files it names',
    });
  return res;
}

/** The list of built-in models; entries that do not have the expected shape are left out. */
export async function fetchBuiltinIndex(): Promise<BuiltinModel[]> {
  const json: unknown = await (await fetchOk('index.json')).json().catch(() => {
    throw new PlaygroundError({ code: 'bad-file', what: 'models/index.json is not valid JSON', where: 'models/index.json' });
  });
  if (!Array.isArray(json))
    throw new PlaygroundError({ code: 'bad-file', what: 'models/index.json is not a JSON array', where: 'models/index.json' });
  const good = json.filter(isBuiltin);
  if (good.length < json.length) console.warn(`models/index.json: ${json.length - good.length} malformed entries ignored`);
  return good.map((m) => ({ ...m, description: m.description ?? '' }));
}

async function fetchBytes(path: string): Promise<NamedBytes> {
  const bytes = new Uint8Array(await (await fetchOk(path)).arrayBuffer());
  return { name: path, bytes };
}

/** Fetches a built-in model's files in parallel. */
export async function fetchBuiltinFiles(m: BuiltinModel): Promise<{ model: NamedBytes; inputs?: NamedBytes; outputs?: NamedBytes }> {
  const { model, inputs, outputs } = m.files;
  const [mb, ib, ob] = await Promise.all([
    fetchBytes(model),
    inputs ? fetchBytes(inputs) : undefined,
    outputs ? fetchBytes(outputs) : undefined,
  ]);
  return { model: mb, inputs: ib, outputs: ob };
}
