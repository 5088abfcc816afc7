// The service worker that keeps the built app usable offline: it precaches every file of the
// build (scripts/offline/plugin.ts lists them and prepends `PRECACHE` when it writes sw.js) in a
// cache named after the build, serves those files cache-first, and deletes the caches of older
// builds when it takes over. A new build waits until the page asks it to take over (the header's
// Reload), so an open page never loses the lazily loaded chunks of the build it started with.
//
// Once its types are stripped this file is a classic worker script: it imports nothing, and the
// build removes the `export {}` that keeps its names out of the project's global scope.

/** Written by the build: the build's version and its files (URLs relative to this script) with their SHA-256. */
declare const PRECACHE: { version: string; files: { url: string; sha256: string }[] };

interface SwEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface SwFetchEvent extends SwEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface SwScope {
  readonly location: { href: string; origin: string };
  clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (e: SwEvent) => void): void;
  addEventListener(type: 'fetch', listener: (e: SwFetchEvent) => void): void;
  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void;
}

const sw = self as unknown as SwScope;
const CACHE_PREFIX = 'dpg-build-';
const CACHE = CACHE_PREFIX + PRECACHE.version;
/** Absolute URL -> expected SHA-256 of every precached file. */
const FILES = new Map(PRECACHE.files.map((f) => [new URL(f.url, sw.location.href).href, f.sha256]));
const SCOPE = new URL('./', sw.location.href).href;
const SCOPE_PATH = new URL(SCOPE).pathname;
const INDEX = new URL('index.html', SCOPE).href;

async function sha256(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Fetches every file of the build past the HTTP cache and keeps it only if it is the file this
 * build was made with: a server caught halfway through a deploy fails the install (the old build
 * stays in charge and the next visit tries again) instead of caching a mix of two builds.
 */
async function precache(): Promise<void> {
  const cache = await caches.open(CACHE);
  await Promise.all([...FILES].map(async ([url, expected]) => {
    const res = await fetch(new Request(url, { cache: 'reload' }));
    if (!res.ok) throw new Error(`offline cache: ${url} answered ${res.status}`);
    const got = await sha256(await res.clone().arrayBuffer());
    if (got !== expected) throw new Error(`offline cache: ${url} is not the file of build ${PRECACHE.version} (a deploy in progress?)`);
    await cache.put(url, res);
  }));
}

async function dropOldBuilds(): Promise<void> {
  for (const key of await caches.keys())
    if (key.startsWith(CACHE_PREFIX) && key !== CACHE) await caches.delete(key);
}

/** The cached file that answers a request, or null when the request is not for the app's files. */
function cachedUrl(req: Request): string | null {
  if (req.method !== 'GET') return null;
  const url = new URL(req.url);
  url.hash = '';
  // The app is one page: a navigation to it, whatever its query (?model=...), gets index.html.
  if (req.mode === 'navigate' && url.href.startsWith(SCOPE)) {
    const rest = url.pathname.slice(SCOPE_PATH.length);
    if (rest === '' || rest === 'index.html') return INDEX;
  }
  if (url.search) return null;
  return FILES.has(url.href) ? url.href : null;
}

async function respond(url: string, req: Request): Promise<Response> {
  const hit = await (await caches.open(CACHE)).match(url);
  return hit ?? fetch(req);
}

sw.addEventListener('install', (e) => e.waitUntil(precache()));

sw.addEventListener('activate', (e) => e.waitUntil(dropOldBuilds().then(() => sw.clients.claim())));

sw.addEventListener('message', (e) => {
  if ((e.data as { type?: unknown } | null)?.type === 'skip-waiting') void sw.skipWaiting();
});

sw.addEventListener('fetch', (e) => {
  const url = cachedUrl(e.request);
  if (url) e.respondWith(respond(url, e.request));
});

export {};
