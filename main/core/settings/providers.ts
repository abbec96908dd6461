/**
 * Provider settings (docs/architecture.md#providers): `$home/settings/providers.json` (mode 0600) merged with the
 * built-in providers. Keys are literals or `$ENV_NAME` references; a client only ever sees a
 * masked hint, never a whole key.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { inTurn } from './file-turns';
import { idleTimeoutProblem, type ProviderConfig } from '../../../shared/protocol/runner';
import { ProviderConfigSchema } from '../../../shared/protocol/contract/runner-channel';
import { problems } from '../../../shared/protocol/contract/define';
import type { ProviderInfo } from '../../../shared/protocol/host-api';
import { HostError } from '../errors';
import { parseSettingsJson } from './json-text';

/**
 * How literal API keys are kept in providers.json: the desktop shell passes the OS keychain
 * (Electron safeStorage); without one, keys are stored as they are (mode 0600) and
 * `plaintextWarning` says so in Settings. `$ENV` references are never encoded.
 */
export interface KeyCodec {
  encrypt(text: string): string;
  /** Throws naming the problem for a value it cannot open. */
  decrypt(stored: string): string;
}

function decodeKey(p: ProviderConfig, codec: KeyCodec | undefined): ProviderConfig {
  if (!codec || !p.apiKey || p.apiKey.startsWith('$')) return p;
  if (!/^(safe|plain):v1:/.test(p.apiKey)) return p; // written before a codec was in use
  try {
    return { ...p, apiKey: codec.decrypt(p.apiKey) };
  } catch (err) {
    throw new HostError('bad_settings', `The stored API key of provider "${p.id}" cannot be read (${(err as Error).message}). Enter it again in Settings → Providers.`);
  }
}

/** APIs a provider entry may name. */
export const PROVIDER_APIS: readonly ProviderConfig['api'][] = [
  'openai-completions',
  'openai-responses',
  'anthropic-messages',
  'scripted',
  'replay',
];

/**
 * The host's copy of the built-in providers (the runner has its own registry; main/ may not
 * import agent-runner/). Ids: openai, anthropic, scripted, replay.
 */
export const BUILTIN_PROVIDER_CONFIGS: readonly ProviderConfig[] = [
  { id: 'openai', api: 'openai-responses', apiKey: '$OPENAI_API_KEY' },
  { id: 'anthropic', api: 'anthropic-messages', apiKey: '$ANTHROPIC_API_KEY' },
  { id: 'scripted', api: 'scripted' },
  { id: 'replay', api: 'replay' },
];
export const BUILTIN_PROVIDER_IDS: readonly string[] = BUILTIN_PROVIDER_CONFIGS.map((p) => p.id);
/** Built-ins that need nothing from providers.json (no key, no network): they run even when it is broken. */
export const OFFLINE_PROVIDER_IDS: readonly string[] = ['scripted', 'replay'];

/** Path of providers.json under `home`. */
export function providersFile(home: string): string {
  return path.join(home, 'settings', 'providers.json');
}

function checkEntry(value: unknown, where: string): ProviderConfig {
  if (!value || typeof value !== 'object') throw new HostError('bad_settings', `${where}: a provider entry must be an object`);
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || !v.id) throw new HostError('bad_settings', `${where}/id: must be a non-empty string`);
  if (typeof v.api !== 'string' || !PROVIDER_APIS.includes(v.api as ProviderConfig['api'])) {
    throw new HostError('bad_settings', `${where}/api: must be one of ${PROVIDER_APIS.join(', ')}`);
  }
  for (const k of ['baseUrl', 'apiKey', 'name', 'preset'] as const) {
    if (v[k] !== undefined && typeof v[k] !== 'string') throw new HostError('bad_settings', `${where}/${k}: must be a string`);
  }
  const idle = idleTimeoutProblem(v.idleTimeoutMs);
  if (idle) throw new HostError('bad_settings', `${where}/idleTimeoutMs (provider "${v.id}"): ${idle}`);
  if (v.prices !== undefined) {
    if (!v.prices || typeof v.prices !== 'object' || Array.isArray(v.prices)) throw new HostError('bad_settings', `${where}/prices: must be an object of model id → { input, output }`);
    for (const [model, p] of Object.entries(v.prices as Record<string, unknown>)) {
      const price = p as Record<string, unknown>;
      for (const k of ['input', 'output'] as const) {
        if (typeof price?.[k] !== 'number' || (price[k] as number) < 0) throw new HostError('bad_settings', `${where}/prices/${model}/${k}: must be a price in USD per million tokens`);
      }
    }
  }
  // What the checks above do not cover (headers, …): the runner checks its start message against
  // the same schema, so an entry that passes here never fails a run's start.
  const rest = problems(ProviderConfigSchema, v, 1)[0];
  if (rest) throw new HostError('bad_settings', `${where}${rest.startsWith('/: ') ? rest.slice(1) : rest}`);
  return v as unknown as ProviderConfig;
}

/**
 * The configured providers of providers.json (`{ providers: ProviderConfig[] }` or a bare
 * array). A missing file is an empty list; a malformed one throws `bad_settings` naming the
 * file and the line and column of a syntax error, or the JSON pointer of a bad entry.
 */
export async function loadProviderConfigs(home: string): Promise<ProviderConfig[]> {
  const file = providersFile(home);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const parsed = parseSettingsJson(text);
  if (!parsed.ok) throw new HostError('bad_settings', `${file}: ${parsed.problem}`);
  const data = parsed.value;
  const list = Array.isArray(data) ? data : (data as { providers?: unknown })?.providers;
  if (!Array.isArray(list)) throw new HostError('bad_settings', `${file}: expected { "providers": [...] }`);
  return list.map((p, i) => checkEntry(p, `${file}#/providers/${i}`));
}

const isSettingsError = (err: unknown): err is HostError => err instanceof HostError && err.code === 'bad_settings';

/** The built-ins overridden and extended by `configured` (by id), keys opened. */
function merge(configured: ProviderConfig[], codec: KeyCodec | undefined): ProviderConfig[] {
  const byId = new Map<string, ProviderConfig>();
  for (const p of BUILTIN_PROVIDER_CONFIGS) byId.set(p.id, { ...p });
  for (const p of configured.map((c) => decodeKey(c, codec))) byId.set(p.id, { ...byId.get(p.id), ...p });
  return [...byId.values()];
}

/** Built-ins overridden and extended by providers.json (by id); what a RunSpec carries. */
export async function effectiveProviders(home: string, codec?: KeyCodec): Promise<ProviderConfig[]> {
  return merge(await loadProviderConfigs(home), codec);
}

/**
 * The providers a run of a thread on `provider` carries. When providers.json cannot be read,
 * a run on an offline built-in (scripted, replay) still gets them (they need nothing from the
 * file); a run on any other provider is refused with the file's error (line and column).
 */
export async function providersForRun(home: string, provider: string, codec?: KeyCodec): Promise<ProviderConfig[]> {
  try {
    return await effectiveProviders(home, codec);
  } catch (err) {
    if (!isSettingsError(err)) throw err;
    if (OFFLINE_PROVIDER_IDS.includes(provider)) return BUILTIN_PROVIDER_CONFIGS.filter((p) => OFFLINE_PROVIDER_IDS.includes(p.id)).map((p) => ({ ...p }));
    throw new HostError('bad_settings', `Provider "${provider}" cannot be looked up: ${err.message}. Fix the file or delete it to run on "${provider}"; the offline providers scripted and replay run without it.`);
  }
}

/** What `settings.providersFile` answers: where providers.json is and, when it cannot be read, why. */
export async function providersFileStatus(home: string): Promise<{ file: string; error?: string }> {
  const file = providersFile(home);
  try {
    await loadProviderConfigs(home);
    return { file };
  } catch (err) {
    if (!isSettingsError(err)) throw err;
    return { file, error: err.message };
  }
}

/** providers.json's entries for a change to it; a file that cannot be read refuses the change, naming why. */
async function configsToChange(home: string): Promise<ProviderConfig[]> {
  try {
    return await loadProviderConfigs(home);
  } catch (err) {
    if (!isSettingsError(err)) throw err;
    throw new HostError('bad_settings', `${err.message}. Fix the file or delete it first: changing it now would lose what is in it, so nothing was changed.`);
  }
}

/** `sk-…abcd` for a literal key, the reference itself for `$ENV`, undefined for none. */
export function maskKey(apiKey: string | undefined): string | undefined {
  if (!apiKey) return undefined;
  if (apiKey.startsWith('$')) return apiKey;
  if (apiKey.length <= 8) return '…' + apiKey.slice(-2);
  return `${apiKey.slice(0, 3)}…${apiKey.slice(-4)}`;
}

/**
 * What `settings.providers` answers: every effective provider, keys masked. When providers.json
 * cannot be read, the built-ins alone (`providersFileStatus` says why).
 */
export async function listProviders(home: string, env: NodeJS.ProcessEnv = process.env, codec?: KeyCodec): Promise<ProviderInfo[]> {
  const list = await loadProviderConfigs(home).catch((err: unknown) => {
    if (isSettingsError(err)) return [];
    throw err;
  });
  const configured = new Set(list.map((p) => p.id));
  return merge(list, codec).map((p) => {
    const info: ProviderInfo = { id: p.id, api: p.api };
    if (p.name) info.name = p.name;
    if (p.preset) info.preset = p.preset;
    if (BUILTIN_PROVIDER_IDS.includes(p.id)) info.builtin = true;
    if (configured.has(p.id)) info.saved = true;
    if (p.baseUrl) info.baseUrl = p.baseUrl;
    if (p.prices) info.prices = p.prices;
    const hint = maskKey(p.apiKey);
    if (hint) info.keyHint = hint;
    if (!configured.has(p.id) && p.apiKey?.startsWith('$') && env[p.apiKey.slice(1)]) info.detected = true;
    return info;
  });
}

/** What Settings saves of one provider (settings.saveProvider's parameters). */
export interface ProviderChange {
  id: string;
  api?: string;
  baseUrl?: string;
  apiKey?: string;
  name?: string;
  preset?: string;
}

/**
 * Add or update one provider (a connection profile) in providers.json (atomic write, mode
 * 0600). An absent `apiKey`, `name` or `preset` keeps the stored one; an empty string removes it. An absent `api` keeps the provider's API
 * (saved, or the built-in's); a new provider needs one. A providers.json that cannot be read
 * is not overwritten: the save is refused with its error.
 */
export async function saveProvider(home: string, entry: ProviderChange, codec?: KeyCodec): Promise<ProviderInfo[]> {
  const id = entry.id;
  // Stricter than loading (checkEntry) on purpose: a new id from Settings is held to a name
  // pattern, while a providers.json written by hand with another id keeps loading.
  if (typeof id !== 'string' || !/^[A-Za-z0-9][\w.-]{0,63}$/.test(id)) {
    throw new HostError('bad_settings', `Provider id "${String(id)}" is not valid: use 1–64 letters, digits, "_", "." or "-", starting with a letter or digit.`);
  }
  if (OFFLINE_PROVIDER_IDS.includes(id)) {
    throw new HostError('bad_settings', `"${id}" is the built-in offline provider and cannot be replaced; choose another id.`);
  }
  if (entry.baseUrl) {
    let url: URL | undefined;
    try {
      url = new URL(entry.baseUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new HostError('bad_settings', `Base URL "${entry.baseUrl}" of provider "${id}" is not an http(s) URL (for example https://api.example.com/v1).`);
    }
  }
  await inTurn(providersFile(home), () => saveEntry(home, entry, codec));
  return listProviders(home, process.env, codec);
}

/** saveProvider's read, change and write of providers.json (in turn with the file's other changes). */
async function saveEntry(home: string, entry: ProviderChange, codec?: KeyCodec): Promise<void> {
  const id = entry.id;
  const list = await configsToChange(home);
  const api = entry.api ?? list.find((p) => p.id === id)?.api ?? BUILTIN_PROVIDER_CONFIGS.find((p) => p.id === id)?.api;
  if (api === undefined) throw new HostError('bad_settings', `Choose the API of the new provider "${id}" (${PROVIDER_APIS.filter((a) => !OFFLINE_PROVIDER_IDS.includes(a)).join(', ')}).`);
  const next = checkEntry({ ...entry, api }, 'settings.saveProvider');
  const i = list.findIndex((p) => p.id === next.id);
  const merged: ProviderConfig = { ...(i >= 0 ? list[i] : {}), id: next.id, api: next.api };
  if (entry.baseUrl !== undefined) {
    if (entry.baseUrl) merged.baseUrl = entry.baseUrl;
    else delete merged.baseUrl;
  }
  for (const k of ['name', 'preset'] as const) {
    const v = entry[k]?.trim();
    if (v === undefined) continue;
    if (v) merged[k] = v;
    else delete merged[k];
  }
  if (entry.apiKey !== undefined) {
    if (entry.apiKey) merged.apiKey = codec && !entry.apiKey.startsWith('$') ? codec.encrypt(entry.apiKey) : entry.apiKey;
    else delete merged.apiKey;
  }
  if (i >= 0) list[i] = merged;
  else list.push(merged);
  await writeProviderConfigs(home, list);
}

/**
 * Remove a provider's entry from providers.json, and with it the API key stored in it (atomic
 * write, mode 0600). A provider the user added is gone; a built-in one (openai, anthropic)
 * goes back to its defaults (its key from the environment). A built-in with nothing saved is
 * `bad_request`; an id that is not in the file is `not_found`. Threads that name a removed
 * provider are left as they are: running one answers the runner's "Unknown provider" error
 * until it is added again.
 */
export async function removeProvider(home: string, id: string, codec?: KeyCodec): Promise<ProviderInfo[]> {
  await inTurn(providersFile(home), async () => {
    const list = await configsToChange(home);
    const rest = list.filter((p) => p.id !== id);
    if (rest.length === list.length) {
      if (BUILTIN_PROVIDER_IDS.includes(id)) {
        throw new HostError('bad_request', `"${id}" is a built-in provider with nothing saved in ${providersFile(home)}; there is nothing to remove or reset.`);
      }
      throw new HostError('not_found', `Provider "${id}" is not in ${providersFile(home)}; nothing was removed.`);
    }
    await writeProviderConfigs(home, rest);
  });
  return listProviders(home, process.env, codec);
}

async function writeProviderConfigs(home: string, list: ProviderConfig[]): Promise<void> {
  const file = providersFile(home);
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, JSON.stringify({ providers: list }, null, 2) + '\n', { mode: 0o600 });
}
