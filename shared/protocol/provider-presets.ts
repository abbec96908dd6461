/**
 * Provider presets: the wire API, base URL and API key variable of known providers, as their
 * vendors document them, so adding one in Settings is a pick and a key. Each saved provider
 * entry (a connection profile: id, name, key) may name the preset it came from; several
 * profiles may share one ("OpenAI work", "OpenAI personal").
 *
 * Base URLs and key variables, from each vendor's documentation of its OpenAI-compatible API:
 * OpenRouter openrouter.ai/docs (OPENROUTER_API_KEY); DeepSeek api-docs.deepseek.com (the `/v1`
 * form is accepted "for compatibility"); Groq console.groq.com/docs/openai; Mistral
 * docs.mistral.ai; xAI docs.x.ai ("Integrations": OpenAI SDK with base URL api.x.ai/v1);
 * Together docs.together.ai ("OpenAI compatibility": api.together.ai/v1); Fireworks
 * docs.fireworks.ai (api.fireworks.ai/inference/v1); Gemini ai.google.dev/gemini-api/docs/openai
 * (generativelanguage.googleapis.com/v1beta/openai/); Ollama docs.ollama.com/openai (port
 * 11434, no key); LM Studio lmstudio.ai/docs (port 1234, no key unless "Require
 * Authentication"); vLLM docs.vllm.ai "OpenAI-Compatible Server" (port 8000, a key only when
 * started with `--api-key`).
 */

/** One preset. */
export interface ProviderPreset {
  /** Stable id, also the default provider id of a profile made from it. */
  id: string;
  /** The vendor's name, as shown. */
  name: string;
  api: 'openai-completions' | 'openai-responses' | 'anthropic-messages';
  /** Absent: the API's own endpoint (api.openai.com, api.anthropic.com). */
  baseUrl?: string;
  /** The environment variable the vendor's docs name for the key; absent for local servers without one. */
  keyEnv?: string;
  /** Runs on this machine (no key by default). */
  local?: boolean;
  /** Answers an OpenAI-style `GET /models` list (Anthropic: its own `GET /v1/models`). */
  models: boolean;
}

/** Every preset, in the order Settings offers them. */
export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { id: 'openai', name: 'OpenAI', api: 'openai-responses', keyEnv: 'OPENAI_API_KEY', models: true },
  { id: 'anthropic', name: 'Anthropic', api: 'anthropic-messages', keyEnv: 'ANTHROPIC_API_KEY', models: true },
  { id: 'openrouter', name: 'OpenRouter', api: 'openai-completions', baseUrl: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY', models: true },
  { id: 'deepseek', name: 'DeepSeek', api: 'openai-completions', baseUrl: 'https://api.deepseek.com/v1', keyEnv: 'DEEPSEEK_API_KEY', models: true },
  { id: 'groq', name: 'Groq', api: 'openai-completions', baseUrl: 'https://api.groq.com/openai/v1', keyEnv: 'GROQ_API_KEY', models: true },
  { id: 'mistral', name: 'Mistral', api: 'openai-completions', baseUrl: 'https://api.mistral.ai/v1', keyEnv: 'MISTRAL_API_KEY', models: true },
  { id: 'xai', name: 'xAI', api: 'openai-completions', baseUrl: 'https://api.x.ai/v1', keyEnv: 'XAI_API_KEY', models: true },
  { id: 'together', name: 'Together', api: 'openai-completions', baseUrl: 'https://api.together.ai/v1', keyEnv: 'TOGETHER_API_KEY', models: true },
  { id: 'fireworks', name: 'Fireworks', api: 'openai-completions', baseUrl: 'https://api.fireworks.ai/inference/v1', keyEnv: 'FIREWORKS_API_KEY', models: true },
  { id: 'gemini', name: 'Gemini (OpenAI-compatible)', api: 'openai-completions', baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai', keyEnv: 'GEMINI_API_KEY', models: true },
  { id: 'ollama', name: 'Ollama', api: 'openai-completions', baseUrl: 'http://localhost:11434/v1', local: true, models: true },
  { id: 'lmstudio', name: 'LM Studio', api: 'openai-completions', baseUrl: 'http://localhost:1234/v1', local: true, models: true },
  { id: 'vllm', name: 'vLLM', api: 'openai-completions', baseUrl: 'http://localhost:8000/v1', keyEnv: 'VLLM_API_KEY', local: true, models: true },
];

/** The preset `id`, or undefined. */
export function presetById(id: string | undefined): ProviderPreset | undefined {
  return id ? PROVIDER_PRESETS.find((p) => p.id === id) : undefined;
}

/** The API key reference a new profile of `preset` starts with: `$KEY_ENV`, or none for a local server. */
export function presetKeyRef(preset: ProviderPreset): string | undefined {
  if (!preset.keyEnv) return undefined;
  // vLLM's variable is the key the server was started with; a local server usually has none.
  return preset.local ? undefined : `$${preset.keyEnv}`;
}

/**
 * A provider id for a new profile named `name` of `preset`, not among `taken`: the preset id
 * for the first, then `<preset>-<name as a slug>` (`openai-work`), then with a number.
 */
export function profileId(preset: ProviderPreset, name: string, taken: readonly string[]): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  const base = !taken.includes(preset.id) ? preset.id : slug && slug !== preset.id ? (slug.startsWith(preset.id) ? slug : `${preset.id}-${slug}`) : preset.id;
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base}-${i}`)) return `${base}-${i}`;
}
