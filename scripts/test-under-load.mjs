#!/usr/bin/env node
// Runs the README's test command (`npm test`) with a CPU hog on every core, to show the suite
// holds on a busy machine (issue 27). The hog is a busy loop in one worker thread per core: it
// needs nothing installed, and the threads die with this process however it ends.
//
//   npm run test:under-load                          the suite as `npm test` runs it
//   npm run test:under-load -- --e2e-lock FILE       the same stages, the end-to-end one under `flock FILE`
//                                                    (Playwright's fixed ports, shared with other runs)
//   npm run test:under-load -- -- npx vitest run X   any other command under the same load
/* global process, console, setInterval, clearInterval, URL */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';

const LOAD_SAMPLE_MS = 15_000;

function parseArgs(argv) {
  const separator = argv.indexOf('--');
  const own = separator === -1 ? argv : argv.slice(0, separator);
  const command = separator === -1 ? null : argv.slice(separator + 1);
  const lockAt = own.indexOf('--e2e-lock');
  const hogsAt = own.indexOf('--hogs');
  return {
    lock: lockAt === -1 ? null : own[lockAt + 1],
    hogs: hogsAt === -1 ? availableParallelism() : Number(own[hogsAt + 1]),
    command: command && command.length > 0 ? command.join(' ') : null,
  };
}

/** The stages of package.json's `test` script; with a lock, the Playwright stage waits for it. */
function suiteStages(lock) {
  const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const stages = scripts.test.split('&&').map((stage) => stage.trim());
  return lock ? stages.map((stage) => (/\b(test:e2e|playwright test)\b/.test(stage) ? `flock ${JSON.stringify(lock)} ${stage}` : stage)) : ['npm test'];
}

function startHogs(count) {
  const hogs = [];
  for (let index = 0; index < count; index++) hogs.push(new Worker('for (;;) {}', { eval: true }));
  return hogs;
}

function runStage(command) {
  return new Promise((resolve) => {
    // Its own process group, so a signal reaches everything the stage started (npm, vitest's forks, Playwright's servers).
    const child = spawn(command, { shell: true, stdio: 'inherit', detached: true });
    const forward = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is gone already.
      }
    };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const format = (loads) => loads.map((load) => load.toFixed(2)).join(' / ');

async function main() {
  const { lock, hogs: hogCount, command } = parseArgs(process.argv.slice(2));
  const stages = command ? [command] : suiteStages(lock);
  const startLoad = loadavg();
  const started = Date.now();
  console.log(`[under-load] ${hogCount} busy threads on ${availableParallelism()} cores; load average (1/5/15 min) at start ${format(startLoad)}`);
  const hogs = startHogs(hogCount);
  const samples = [];
  const sampler = setInterval(() => samples.push(loadavg()[0]), LOAD_SAMPLE_MS);
  let code = 0;
  try {
    for (const stage of stages) {
      console.log(`[under-load] ${stage}`);
      code = await runStage(stage);
      if (code !== 0) break;
    }
  } finally {
    clearInterval(sampler);
    await Promise.all(hogs.map((hog) => hog.terminate()));
  }
  const minutes = (Date.now() - started) / 60_000;
  const peak = Math.max(...samples, loadavg()[0]);
  const mean = samples.length > 0 ? samples.reduce((sum, load) => sum + load, 0) / samples.length : loadavg()[0];
  console.log(
    `[under-load] ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${minutes.toFixed(1)} min; ` +
      `1-min load average: mean ${mean.toFixed(2)}, peak ${peak.toFixed(2)} (sampled every ${LOAD_SAMPLE_MS / 1000} s); at the end ${format(loadavg())}`,
  );
  process.exitCode = code;
}

await main();
