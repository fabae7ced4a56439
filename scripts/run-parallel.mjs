#!/usr/bin/env node
// `node scripts/run-parallel.mjs SCRIPT...`: runs the package's npm scripts side by side and
// fails when any fails. The type check, the lint and the build are each mostly one core's work,
// so on CI's two cores they take the time of the slowest rather than of all three. Each
// script's output is printed whole when it ends, so the logs do not interleave.
/* global process, console, performance, Buffer */
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs SCRIPT...');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const runs = scripts.map(
  (script) =>
    new Promise((resolve) => {
      const started = performance.now();
      const child = spawn(npm, ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      const output = [];
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
      child.on('close', (code, signal) => {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        const verdict = code === 0 ? 'passed' : signal ? `stopped by ${signal}` : `failed (exit ${code})`;
        process.stdout.write(Buffer.concat(output));
        process.stdout.write(`── npm run ${script}: ${verdict} in ${seconds} s\n`);
        resolve(code === 0);
      });
    }),
);
const passed = await Promise.all(runs);
process.exit(passed.every(Boolean) ? 0 : 1);
