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
    testTimeout: 30_000,
  },
});
