import type { ProviderTarget } from '../provider-types.ts';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** The HTTP providers (the scripted one never touches the network). */
export type HttpProviderKind = 'openai' | 'anthropic' | 'openai-compatible';

export type EndpointResolution = { ok: true; url: URL } | { ok: false; message: string };

/**
 * The URL a target's requests go to. Chat-style targets end in `/chat/completions` and Anthropic
 * in `/v1/messages`; a base URL may stop at the host, at `/v1`, or already name the endpoint, and
 * any of those resolves the same way (`http://localhost:11434`, `…/v1`, `…/v1/chat/completions`).
 */
export function resolveEndpoint(target: ProviderTarget & { provider: HttpProviderKind }): EndpointResolution {
  const configured = target.baseUrl?.trim();
  if (target.provider === 'openai-compatible' && !configured) {
    return { ok: false, message: 'An OpenAI-compatible target needs a base URL, for example http://localhost:11434/v1 (Ollama), http://localhost:1234/v1 (LM Studio) or http://localhost:8080/v1 (llama.cpp).' };
  }
  const base = configured || (target.provider === 'anthropic' ? ANTHROPIC_BASE_URL : OPENAI_BASE_URL);
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return { ok: false, message: `The base URL ${JSON.stringify(base)} is not a valid URL: write it as http://host:port/v1.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: `The base URL must start with http:// or https://, got ${url.protocol}` };
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = target.provider === 'anthropic' ? anthropicPath(path) : chatPath(path);
  url.hash = '';
  return { ok: true, url };
}

function chatPath(path: string): string {
  if (path.endsWith('/chat/completions')) return path;
  if (/\/v\d+$/.test(path)) return `${path}/chat/completions`;
  return `${path}/v1/chat/completions`;
}

function anthropicPath(path: string): string {
  if (path.endsWith('/v1/messages')) return path;
  if (path.endsWith('/v1')) return `${path}/messages`;
  return `${path}/v1/messages`;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '0.0.0.0', '[::1]', '::1']);

export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname) || url.hostname.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/** The endpoint without query or credentials, safe to show in a message. */
export function displayEndpoint(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * How to let a page's origin through a local server's CORS check, by the server its port
 * suggests (llm-wire.md §4, §6, §7). All three are listed when the port is not a default one.
 */
export function localCorsHint(url: URL, pageOrigin: string): string {
  const ollama = `Ollama: restart it with OLLAMA_ORIGINS=${pageOrigin} in its environment (set before \`ollama serve\` starts; localhost and 127.0.0.1 pages are allowed by default).`;
  const lmStudio = 'LM Studio: turn on "Enable CORS" in the Developer tab\'s server settings, then restart the server.';
  const llamaCpp = `llama.cpp: llama-server allows every origin unless it was started with --cors-origins; if so add ${pageOrigin} to that list.`;
  switch (url.port) {
    case '11434':
      return ollama;
    case '1234':
      return lmStudio;
    case '8080':
      return llamaCpp;
    default:
      return `${ollama} ${lmStudio} ${llamaCpp}`;
  }
}
