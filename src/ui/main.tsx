import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { registerServiceWorker } from './offline/register';
import { testHooks } from './test-hooks';
import './app.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// Bench hooks: window.__dpgBench for `npm run bench` (see bench-hooks.ts), only when the harness
// asked for them before the page loaded (test-hooks.ts); an address's ?bench is ignored.
if (testHooks().bench)
  void import('./bench-hooks').then((m) => m.installBenchHooks());

// The offline copy: registered once the page has loaded, so caching the build does not compete
// with the app's own start.
if (document.readyState === 'complete') void registerServiceWorker();
else window.addEventListener('load', () => void registerServiceWorker(), { once: true });
