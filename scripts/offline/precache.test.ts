// The precache list and the service worker script the build writes; the worker itself run in a
// sandbox with a fake cache storage and network: install, activate, and which requests it answers.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { transformWithOxc } from 'vite';
import { describe, expect, it } from 'vitest';
import type { BuiltFile, PrecacheManifest } from './precache';
import { isPrecached, precacheManifest, serviceWorkerScript } from './precache';

const enc = new TextEncoder();
const file = (path: string, text: string): BuiltFile => ({ path, bytes: enc.encode(text) });
const hex = (text: string) => createHash('sha256').update(text).digest('hex');

const BUILD = [
  file('index.html', '<!doctype html><script src="/assets/index-a1.js"></script>'),
  file('assets/index-a1.js', 'console.log(1)'),
  file('assets/editor-b2.js', 'monaco'),
  file('assets/pipeline.worker-c3.js', 'worker'),
  file('assets/sim-d4.wasm', '\0asm'),
  file('assets/index-e5.css', 'body{}'),
  file('models/index.json', '[]'),
  file('models/adder/network.onnx', 'onnx'),
];

describe('precacheManifest', () => {
  it('lists every file of the build with its SHA-256, sorted, and leaves out the worker, maps and dot folders', () => {
    const m = precacheManifest([...BUILD, file('sw.js', 'old'), file('assets/index-a1.js.map', '{}'), file('.vite/manifest.json', '{}')]);
    expect(m.files.map((f) => f.url)).toEqual([...BUILD.map((f) => f.path)].sort());
    expect(m.files.find((f) => f.url === 'models/adder/network.onnx')?.sha256).toBe(hex('onnx'));
    expect(m.version).toMatch(/^[0-9a-f]{16}$/);
    expect(['sw.js', 'a.js.map', '.vite/x', 'assets/.hidden'].map(isPrecached)).toEqual([false, false, false, false]);
  });

  it('has a version that follows the files: their names and their contents, not their order', () => {
    const v = precacheManifest(BUILD).version;
    expect(precacheManifest([...BUILD].reverse()).version).toBe(v);
    // A model regenerated under the same name is a new build.
    const changed = BUILD.map((f) => (f.path === 'models/adder/network.onnx' ? file(f.path, 'onnx v2') : f));
    expect(precacheManifest(changed).version).not.toBe(v);
    const renamed = BUILD.map((f) => (f.path === 'assets/editor-b2.js' ? file('assets/editor-b3.js', 'monaco') : f));
    expect(precacheManifest(renamed).version).not.toBe(v);
    expect(precacheManifest([...BUILD, file('favicon.svg', '<svg/>')]).version).not.toBe(v);
  });

  it('refuses a build without index.html, a file listed twice, and paths that leave the folder', () => {
    expect(() => precacheManifest(BUILD.filter((f) => f.path !== 'index.html'))).toThrow(/no index\.html/);
    expect(() => precacheManifest([...BUILD, file('models/index.json', '[]')])).toThrow(/listed twice/);
    expect(() => precacheManifest([...BUILD, file('../secret', 'x')])).toThrow(/not a relative path/);
    expect(() => precacheManifest([...BUILD, file('/etc/passwd', 'x')])).toThrow(/not a relative path/);
    expect(() => precacheManifest([...BUILD, file('assets\\a.js', 'x')])).toThrow(/not a relative path/);
  });
});

async function swJs(): Promise<string> {
  const src = new URL('../../src/ui/offline/sw.ts', import.meta.url);
  return (await transformWithOxc(readFileSync(src, 'utf8'), src.pathname, { lang: 'ts', target: 'es2022' })).code;
}

describe('serviceWorkerScript', () => {
  it('is a classic script with the manifest before the worker', async () => {
    const script = serviceWorkerScript(await swJs(), precacheManifest(BUILD));
    expect(() => new vm.Script(script)).not.toThrow();
    expect(script).not.toMatch(/^\s*(import|export)\b/m);
    expect(script).toContain(`const PRECACHE = ${JSON.stringify(precacheManifest(BUILD))};`);
  });

  it('refuses a worker that imports or exports, or does not read the manifest', () => {
    const m = precacheManifest(BUILD);
    expect(() => serviceWorkerScript('import x from "y";\nPRECACHE;', m)).toThrow(/classic script.*import x/);
    expect(() => serviceWorkerScript('PRECACHE;\nexport const a = 1;', m)).toThrow(/classic script/);
    expect(() => serviceWorkerScript('const a = 1;', m)).toThrow(/does not read PRECACHE/);
  });
});

// ---- the worker in a sandbox ----

const ORIGIN = 'https://play.example';
const BASE = `${ORIGIN}/app/`;

interface FakeRequest { url: string; method: string; mode: string }
type Listener = (e: unknown) => void;

/** A cache storage in memory, as the worker uses it. */
function fakeCaches() {
  const stores = new Map<string, Map<string, Response>>();
  const open = (name: string) => {
    let m = stores.get(name);
    if (!m) stores.set(name, (m = new Map()));
    const cache = m;
    return {
      put: async (url: string, res: Response) => { cache.set(url, res); },
      match: async (url: string) => cache.get(url)?.clone(),
    };
  };
  return {
    stores,
    api: {
      open: async (name: string) => open(name),
      keys: async () => [...stores.keys()],
      delete: async (name: string) => stores.delete(name),
    },
  };
}

/** Loads the built worker with a network that serves `served` (path under BASE -> text). */
async function sandbox(manifest: PrecacheManifest, served: Record<string, string>) {
  const listeners = new Map<string, Listener>();
  const caches = fakeCaches();
  const fetched: string[] = [];
  let claimed = 0, skipped = 0;
  const fetchFake = async (req: Request | FakeRequest | string) => {
    const url = typeof req === 'string' ? req : req.url;
    fetched.push(url);
    const path = url.startsWith(BASE) ? url.slice(BASE.length) : null;
    const body = path !== null ? served[path] : undefined;
    return body === undefined ? new Response('not found', { status: 404 }) : new Response(body, { status: 200 });
  };
  const scope = {
    location: { href: `${BASE}sw.js`, origin: ORIGIN },
    clients: { claim: async () => { claimed++; } },
    skipWaiting: async () => { skipped++; },
    addEventListener: (type: string, l: Listener) => listeners.set(type, l),
  };
  const context = vm.createContext({ self: scope, caches: caches.api, fetch: fetchFake, Request, Response, URL, crypto: globalThis.crypto });
  vm.runInContext(serviceWorkerScript(await swJs(), manifest), context);
  /** Dispatches an extendable event; resolves with what it waited for. */
  const extendable = async (type: string) => {
    let work: Promise<unknown> = Promise.resolve();
    listeners.get(type)!({ waitUntil: (p: Promise<unknown>) => { work = p; } });
    return work;
  };
  /** Dispatches a fetch: the response the worker gave, or null when it let the request through. */
  const request = async (url: string, init: Partial<FakeRequest> = {}) => {
    let answer: Promise<Response> | null = null;
    listeners.get('fetch')!({ request: { url, method: 'GET', mode: 'cors', ...init }, respondWith: (r: Promise<Response>) => { answer = r; } });
    return answer === null ? null : (await answer as Response).text();
  };
  return { caches, fetched, extendable, request, listeners, counts: () => ({ claimed, skipped }) };
}

const SERVED = Object.fromEntries(BUILD.map((f) => [f.path, new TextDecoder().decode(f.bytes)]));

describe('the service worker', () => {
  it('precaches every file of its build under the build\'s version, checked against its hash', async () => {
    const m = precacheManifest(BUILD);
    const sw = await sandbox(m, SERVED);
    await sw.extendable('install');
    expect([...sw.caches.stores.keys()]).toEqual([`dpg-build-${m.version}`]);
    expect([...sw.caches.stores.get(`dpg-build-${m.version}`)!.keys()].sort()).toEqual(BUILD.map((f) => BASE + f.path).sort());
  });

  it('fails the install when a file is missing or is not the one of its build (a deploy in progress)', async () => {
    const m = precacheManifest(BUILD);
    const missing = await sandbox(m, { ...SERVED, 'assets/sim-d4.wasm': undefined as unknown as string });
    await expect(missing.extendable('install')).rejects.toThrow(/sim-d4\.wasm answered 404/);
    const changed = await sandbox(m, { ...SERVED, 'models/index.json': '[{"id":"new"}]' });
    await expect(changed.extendable('install')).rejects.toThrow(/models\/index\.json is not the file of build/);
  });

  it('answers the app\'s files from the cache, without the network, and lets every other request through', async () => {
    const m = precacheManifest(BUILD);
    const sw = await sandbox(m, SERVED);
    await sw.extendable('install');
    sw.fetched.length = 0;
    expect(await sw.request(`${BASE}assets/editor-b2.js`)).toBe('monaco');
    expect(await sw.request(`${BASE}models/adder/network.onnx#x`)).toBe('onnx');
    // Every navigation to the page gets index.html, whatever the query.
    expect(await sw.request(`${BASE}?model=adder&stall=5`, { mode: 'navigate' })).toBe(SERVED['index.html']);
    expect(await sw.request(`${BASE}index.html`, { mode: 'navigate' })).toBe(SERVED['index.html']);
    expect(sw.fetched).toEqual([]);
    // Not the app's files: the network as if there were no worker.
    expect(await sw.request(`${BASE}assets/unknown.js`)).toBeNull();
    expect(await sw.request(`${BASE}models/index.json?fresh=1`)).toBeNull();
    expect(await sw.request(`${BASE}assets/editor-b2.js`, { method: 'POST' })).toBeNull();
    expect(await sw.request(`${ORIGIN}/other/`, { mode: 'navigate' })).toBeNull();
    expect(await sw.request(`${BASE}docs.html`, { mode: 'navigate' })).toBeNull();
    expect(await sw.request('https://cdn.example/app/assets/editor-b2.js')).toBeNull();
  });

  it('deletes older builds\' caches (only its own kind) when it takes over, and takes the page', async () => {
    const m = precacheManifest(BUILD);
    const sw = await sandbox(m, SERVED);
    sw.caches.stores.set('dpg-build-0123456789abcdef', new Map());
    sw.caches.stores.set('someone-else', new Map());
    await sw.extendable('install');
    await sw.extendable('activate');
    expect([...sw.caches.stores.keys()].sort()).toEqual([`dpg-build-${m.version}`, 'someone-else']);
    expect(sw.counts().claimed).toBe(1);
  });

  it('takes over from an older build only when the page asks', async () => {
    const sw = await sandbox(precacheManifest(BUILD), SERVED);
    sw.listeners.get('message')!({ data: { type: 'something' } });
    sw.listeners.get('message')!({ data: null });
    expect(sw.counts().skipped).toBe(0);
    sw.listeners.get('message')!({ data: { type: 'skip-waiting' } });
    expect(sw.counts().skipped).toBe(1);
  });
});
