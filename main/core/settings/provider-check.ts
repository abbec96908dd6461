/**
 * Settings → Providers → Test, and the model list of the model section: one `GET /models`
 * through the provider's official SDK client (`openai` for both OpenAI APIs and compatible
 * servers, `@anthropic-ai/sdk` for Anthropic), with the provider's key, base URL and headers.
 * The key is resolved here, on the host, and never leaves it: every message is scrubbed of it.
 * The SDKs load on the first call, so the host starts without them.
 */
import type { ProviderConfig } from '../../../shared/protocol/runner';
import { resolveApiKey } from '../../../shared/protocol/provider-keys';
import { HostError } from '../errors';
import { effectiveProviders, type KeyCodec } from './providers';

/** Time a test or model list may take, ms. */
export const PROVIDER_CHECK_TIMEOUT_MS = 15_000;

/** What the connection test answers. */
export interface ProviderTestResult {
  ok: boolean;
  /** What happened, for the person: never contains the key. */
  message: string;
  /** How many models `/models` listed, when it answered. */
  models?: number;
}

interface Options {
  env?: Readonly<Record<string, string | undefined>>;
  codec?: KeyCodec;
  timeoutMs?: number;
}

const OFFLINE = new Set<string>(['scripted', 'replay']);

async function configOf(home: string, id: string, codec?: KeyCodec): Promise<ProviderConfig> {
  const config = (await effectiveProviders(home, codec)).find((p) => p.id === id);
  if (!config) throw new HostError('not_found', `Provider "${id}" is not configured; add it in Settings → Providers.`);
  return config;
}

/** `text` with every occurrence of `secret` (when it is a real key) masked. */
function scrub(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 && secret !== 'not-needed' ? text.split(secret).join('…') : text;
}

/** The base URL as shown in a message: no user info, no query (either could hold a credential). */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`.replace(/\/$/, '');
  } catch {
    return '(an invalid base URL)';
  }
}

/** Why a `/models` call failed, in words: HTTP status and the server's message, or the network error. */
function failure(err: unknown): string {
  const e = err as { status?: number; message?: string; cause?: { code?: string; message?: string }; name?: string };
  if (typeof e?.status === 'number') return `HTTP ${e.status}: ${e.message ?? 'no message'}`;
  if (e?.name === 'APIConnectionTimeoutError') return 'no answer in time';
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`;
}

/**
 * The model ids of a `/models` answer's `data` (`[{ id, … }]`, OpenAI's and Anthropic's list
 * shape), without repeats; throws naming the problem when it is not such a list.
 */
export function modelIds(data: unknown): string[] {
  if (!Array.isArray(data)) throw new Error('the answer to GET /models is not a model list ({ "data": [{ "id": … }] })');
  const ids = data.map((m: unknown) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined)).filter((id): id is string => typeof id === 'string' && id.length > 0);
  return [...new Set(ids)];
}

/** Lists the model ids `config` answers on `GET /models`, or throws what the SDK threw. */
async function listIds(config: ProviderConfig, key: string, timeoutMs: number): Promise<string[]> {
  const common = { apiKey: key, maxRetries: 0, timeout: timeoutMs, defaultHeaders: config.headers, logLevel: 'off' as const };
  if (config.api === 'anthropic-messages') {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ ...common, ...(config.baseUrl ? { baseURL: config.baseUrl } : {}) });
    // The raw answer, not the SDK's page (which reads a body without `data` as an empty list).
    const body = await client.get<{ data?: unknown } | null>('/v1/models', { query: { limit: 1000 } });
    return modelIds(body?.data);
  }
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ ...common, ...(config.baseUrl ? { baseURL: config.baseUrl } : {}) });
  const body = await client.get<{ data?: unknown } | null>('/models');
  return modelIds(body?.data);
}

/** The key of `config`, or a HostError saying how to set one (never the key itself). */
function keyOf(config: ProviderConfig, env: Readonly<Record<string, string | undefined>>): string {
  const { key, error } = resolveApiKey(config, env);
  if (!key) throw new HostError('bad_settings', error!);
  return key;
}

/**
 * The model ids provider `id` lists (`GET /models`), sorted. Throws `not_found` for an unknown
 * provider, `bad_settings` without a key, `provider_error` naming the status or network error.
 * The offline providers list none.
 */
export async function providerModels(home: string, id: string, opts: Options = {}): Promise<string[]> {
  const config = await configOf(home, id, opts.codec);
  if (OFFLINE.has(config.api)) return [];
  const key = keyOf(config, opts.env ?? process.env);
  try {
    return (await listIds(config, key, opts.timeoutMs ?? PROVIDER_CHECK_TIMEOUT_MS)).sort();
  } catch (err) {
    const where = config.baseUrl ? shownUrl(config.baseUrl) : 'its API';
    throw new HostError('provider_error', scrub(`Could not list the models of provider "${id}" at ${where}: ${failure(err)}`, key));
  }
}

/** Connects to provider `id` with its key and lists its models; says what failed when it cannot. */
export async function testProvider(home: string, id: string, opts: Options = {}): Promise<ProviderTestResult> {
  const config = await configOf(home, id, opts.codec);
  if (OFFLINE.has(config.api)) return { ok: true, message: `"${id}" runs offline; there is nothing to connect to.` };
  const where = config.baseUrl ? shownUrl(config.baseUrl) : 'its API';
  let key: string;
  try {
    key = keyOf(config, opts.env ?? process.env);
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  try {
    const ids = await listIds(config, key, opts.timeoutMs ?? PROVIDER_CHECK_TIMEOUT_MS);
    return { ok: true, message: `Connected to "${id}" at ${where}: ${ids.length} models.`, models: ids.length };
  } catch (err) {
    const status = (err as { status?: number }).status;
    const hint = status === 401 || status === 403 ? ' Check the API key.' : status === 404 ? ' Check the base URL (it usually ends in /v1).' : status === undefined ? ' Is the server running, and the base URL right?' : '';
    return { ok: false, message: scrub(`Could not connect to "${id}" at ${where}: ${failure(err)}.${hint}`, key) };
  }
}
