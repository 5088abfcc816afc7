import { defineConfig } from 'vitest/config';

// Browser tests: each file starts `vite preview` on the built dist/ (run `npm run build`
// first) and drives Debian's Chromium through playwright-core. Files run one after another.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
