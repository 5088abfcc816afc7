import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { offlinePlugin } from './scripts/offline/plugin.ts';

// COOP/COEP make the page cross-origin isolated, so the worker and simulator may use
// SharedArrayBuffer (cancel flags, shared simulator memory) in later stages.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  // offlinePlugin: the production build's service worker (the app works offline once loaded).
  plugins: [react(), offlinePlugin()],
  server: { headers: isolation },
  preview: { headers: isolation },
  worker: { format: 'es' },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
});
