import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { registerServiceWorker } from './offline/register';
import './app.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// Bench hooks: ?bench exposes window.__dpgBench for `npm run bench` (see bench-hooks.ts).
if (new URLSearchParams(window.location.search).has('bench'))
  void import('./bench-hooks').then((m) => m.installBenchHooks());

// The offline copy: registered once the page has loaded, so caching the build does not compete
// with the app's own start.
if (document.readyState === 'complete') void registerServiceWorker();
else window.addEventListener('load', () => void registerServiceWorker(), { once: true });
