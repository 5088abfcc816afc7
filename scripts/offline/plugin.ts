// The Vite plugin that writes the service worker (src/ui/offline/sw.ts) into a production build,
// with the list of every file the build wrote (precache.ts). It runs after the bundle is written,
// when the output folder also holds the public files (the built-in models), so the list is what
// the server will serve. `vite dev` has no service worker: its /sw.js is a worker that removes
// itself (and the build's caches), for a browser that still has one from a preview of a build on
// the same origin, whose cached page would otherwise keep being served instead of the dev one.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { transformWithOxc } from 'vite';
import type { BuiltFile, PrecacheManifest } from './precache.ts';
import { SW_FILE, isPrecached, precacheManifest, serviceWorkerScript } from './precache.ts';

const SW_SOURCE = fileURLToPath(new URL('../../src/ui/offline/sw.ts', import.meta.url));

function filesUnder(dir: string, rel = ''): BuiltFile[] {
  const out: BuiltFile[] = [];
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...filesUnder(dir, p));
    else if (e.isFile() && isPrecached(p)) out.push({ path: p, bytes: readFileSync(path.join(dir, p)) });
  }
  return out;
}

/** The dev server's /sw.js: takes over from a build's worker, deletes its caches, unregisters, and reloads the pages it had. */
export const REMOVING_WORKER = `// Deeploy Playground under vite dev: no offline copy. Removes the worker a build left here.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil((async () => {
  for (const key of await caches.keys()) if (key.startsWith('dpg-build-')) await caches.delete(key);
  await self.registration.unregister();
  for (const c of await self.clients.matchAll({ type: 'window' })) c.navigate(c.url);
})()));
`;

export function offlinePlugin(): Plugin[] {
  const dev: Plugin = {
    name: 'dpg-offline-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== `${server.config.base}${SW_FILE}`) return next();
        res.setHeader('Content-Type', 'text/javascript');
        res.setHeader('Cache-Control', 'no-cache');
        res.end(REMOVING_WORKER);
      });
    },
  };
  return [dev, {
    name: 'dpg-offline',
    apply: 'build',
    writeBundle: {
      order: 'post',
      async handler(options) {
        if (!options.dir) throw new Error('offline: the build has no output folder');
        const { manifest, bytes } = await writeServiceWorker(options.dir);
        this.environment.logger.info(`offline: ${SW_FILE} precaches ${manifest.files.length} files (${(bytes / 1e6).toFixed(1)} MB), build ${manifest.version}`);
      },
    },
  }];
}

/** Writes sw.js into a built app's folder for the files it holds now; returns its manifest and their total size. */
export async function writeServiceWorker(outDir: string): Promise<{ manifest: PrecacheManifest; bytes: number }> {
  const files = filesUnder(outDir);
  const manifest = precacheManifest(files);
  // Strips the types (transformWithOxc throws on a syntax error).
  const { code } = await transformWithOxc(readFileSync(SW_SOURCE, 'utf8'), SW_SOURCE, { lang: 'ts', target: 'es2022' });
  writeFileSync(path.join(outDir, SW_FILE), serviceWorkerScript(code, manifest));
  return { manifest, bytes: files.reduce((n, f) => n + f.bytes.length, 0) };
}
