import { defineConfig } from '@playwright/test';

// `npm run screenshots`: the README's screenshots of a real capture's journey, written to
// docs/screenshots/ by scripts/screenshots/. Not part of `npm test` (it writes files); it uses the
// same built app and Debian Chromium as the journeys, so run it under the e2e lock.
export default defineConfig({
  testDir: 'scripts/screenshots',
  workers: 1,
  // Deadlines for a starved CPU, as in playwright.config.ts.
  timeout: 10 * 60_000,
  expect: { timeout: 60_000 },
  reporter: [['list']],
  use: {
    baseURL: 'http://127.0.0.1:4173',
    launchOptions: { executablePath: '/usr/bin/chromium' },
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
  },
  webServer: [
    {
      command: 'npx vite preview --host 127.0.0.1 --port 4173 --strictPort',
      url: 'http://127.0.0.1:4173',
      reuseExistingServer: false,
      timeout: 180_000,
    },
  ],
});
