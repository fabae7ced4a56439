import { defineConfig } from '@playwright/test';

/** How long a server may take to answer after starting: Playwright's default 60 s, 3× for a busy machine. */
const SERVER_START_MS = 180_000;

// Debian's Chromium drives the tests; Playwright's own browser downloads do not work here.
export default defineConfig({
  testDir: 'e2e',
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  // Deadlines for a starved CPU, not speed checks (issue 27): a journey takes seconds on a quiet
  // machine and may stretch 20× on a shared one, so a test gets 10 minutes and an assertion a
  // minute (12× Playwright's default 5 s) before either fails. Speed goals live in `npm run bench -- ui`.
  timeout: 10 * 60_000,
  expect: { timeout: 60_000 },
  reporter: [['list']],
  use: {
    baseURL: 'http://127.0.0.1:4173',
    launchOptions: { executablePath: '/usr/bin/chromium' },
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'journeys', testIgnore: /-responsiveness\.spec\.ts$/ },
    // These measure main-thread long tasks, so they run after the journeys and one at a time: on
    // two cores, parallel tests would preempt the page's main thread and inflate every task's wall time.
    { name: 'responsiveness', testMatch: /-responsiveness\.spec\.ts$/, dependencies: ['journeys'], workers: 1 },
  ],
  webServer: [
    {
      command: 'npx vite preview --host 127.0.0.1 --port 4173 --strictPort',
      url: 'http://127.0.0.1:4173',
      reuseExistingServer: !process.env.CI,
      timeout: SERVER_START_MS,
    },
    {
      // A tool served over HTTP (loopback only) for the endpoint-bound tool journey.
      command: 'node e2e/fixtures/tool-server.mjs',
      url: 'http://127.0.0.1:4175/health',
      reuseExistingServer: !process.env.CI,
      timeout: SERVER_START_MS,
    },
    {
      // A mock LLM server (OpenAI, Anthropic and OpenAI-compatible wire formats; loopback only) for the Planner journeys.
      command: 'node e2e/fixtures/mock-llm-server.mjs --port 4177',
      url: 'http://127.0.0.1:4177/v1/models',
      reuseExistingServer: !process.env.CI,
      timeout: SERVER_START_MS,
    },
    {
      // The reference MCP server (server-everything) over Streamable HTTP for the MCP journey. Its
      // own CORS middleware allows any origin and exposes Mcp-Session-Id, so the page reaches it directly.
      // It has no host option and would listen on every interface: the preload keeps it on loopback.
      command: 'node --import ./e2e/fixtures/loopback-only.mjs node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp',
      env: { PORT: '4365' },
      url: 'http://127.0.0.1:4365/mcp',
      reuseExistingServer: !process.env.CI,
      timeout: SERVER_START_MS,
    },
  ],
});
