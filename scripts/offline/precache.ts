// What the service worker precaches: every file of the build (JS chunks, the lazily loaded ones
// and the workers included, wasm, CSS, fonts, index.html, the built-in models) with its SHA-256,
// and the build's version, a hash of that list (names and contents), which names the worker's cache.
// Pure: the Vite plugin (plugin.ts) reads the files and writes the script.
import { createHash } from 'node:crypto';

export interface BuiltFile {
  /** Relative to the output folder, with '/' separators. */
  path: string;
  bytes: Uint8Array;
}

export interface PrecacheManifest {
  /** 16 hex digits: changes whenever any file's name or content changes. */
  version: string;
  /** Sorted by URL; URLs are relative to the service worker's script (the output folder's root). */
  files: { url: string; sha256: string }[];
}

/** The service worker's own file (written after the list is made). */
export const SW_FILE = 'sw.js';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

/** Whether a built file is precached: not the worker itself, not source maps, nothing in a dot folder (Vite's manifests). */
export function isPrecached(path: string): boolean {
  return path !== SW_FILE && !path.endsWith('.map') && !path.split('/').some((part) => part.startsWith('.'));
}

export function precacheManifest(files: readonly BuiltFile[]): PrecacheManifest {
  const seen = new Set<string>();
  for (const f of files) {
    if (f.path.startsWith('/') || f.path.includes('\\') || f.path.split('/').some((p) => p === '..' || p === '.' || p === ''))
      throw new Error(`offline: '${f.path}' is not a relative path with '/' separators`);
    if (seen.has(f.path)) throw new Error(`offline: '${f.path}' is listed twice`);
    seen.add(f.path);
  }
  const kept = files.filter((f) => isPrecached(f.path));
  if (!kept.some((f) => f.path === 'index.html')) throw new Error('offline: the build has no index.html to precache');
  const list = kept.map((f) => ({ url: f.path, sha256: sha256(f.bytes) }))
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return { version: sha256(list.map((f) => `${f.url}\0${f.sha256}\n`).join('')).slice(0, 16), files: list };
}

/**
 * The service worker script: its JavaScript (src/ui/offline/sw.ts without types) with the
 * manifest before it. The script must stay a classic one (browsers without module service
 * workers run it too): an import or export left in it is an error here, not a broken worker.
 */
export function serviceWorkerScript(js: string, manifest: PrecacheManifest): string {
  const body = js.replace(/^export\s*\{\s*\};?[ \t]*$/m, '');
  const bad = /^\s*(import|export)\b.*$/m.exec(body);
  if (bad) throw new Error(`offline: the service worker must be a classic script, but it has '${bad[0].trim()}'`);
  if (!/\bPRECACHE\b/.test(body)) throw new Error('offline: the service worker does not read PRECACHE');
  return `// Deeploy Playground's service worker, build ${manifest.version} (generated: see src/ui/offline/sw.ts).\n`
    + `const PRECACHE = ${JSON.stringify(manifest)};\n${body}`;
}
