import { defineConfig } from 'vitest/config';

// Unit tests: everything under src/ and scripts/ (browser tests live in e2e/ with their own config).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
