/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  build: { target: 'es2022', chunkSizeWarningLimit: 2000 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'workers/**/*.test.ts', 'cli/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    // Builds the command-line runner (dist-cli/) when stale, for the tests that spawn it.
    globalSetup: ['cli/vitest-global-setup.ts'],
    // UI tests opt into a DOM per file with `// @vitest-environment happy-dom`.
    // Deadlines for a starved CPU, not speed checks (issue 27): the slowest tests (the seeded fuzz
    // families) take about 15 s on a busy machine, and 20× that must still pass. Hooks (servers,
    // generated captures) get the same.
    testTimeout: 600_000,
    // Test files share a worker's module cache instead of loading the core afresh (~3 s a file,
    // 217 files): `vitest run` 11 → 6.8 min here. The suite passes in shuffled file order too
    // (`--sequence.shuffle.files`), so no file leans on another's state.
    isolate: false,
    hookTimeout: 600_000,
  },
});
