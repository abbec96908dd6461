/**
 * The mcp-host's resource, prompt and completion requests (`resources/list`, `resources/read`,
 * `resources/templates/list`, `resources/subscribe`, `completion/complete`, `prompts/list`,
 * `prompts/get`), each made with the session's SDK `Client` and answered in the contract's
 * shapes (shared/protocol/contract/mcp-resources.ts): fields outside those shapes are dropped,
 * so a server's extra fields never break the host's check of the answer.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpHostMethods } from '../shared/protocol/mcp';
import type { McpPromptMessage, McpResourceContents } from '../shared/protocol/contract/mcp-resources';

type Result<M extends keyof McpHostMethods> = McpHostMethods[M]['result'];
type Params<M extends keyof McpHostMethods> = McpHostMethods[M]['params'];

/** The session as these requests need it: a connected client and its per-request timeout (ms). */
export interface ResourceSession {
  connect(): Promise<Client>;
  readonly config: { timeoutMs?: number };
  /** URIs subscribed on this session (kept so a reconnect can subscribe again). */
  readonly subscriptions: Set<string>;
}

/** Copies the listed keys of `from` that are defined, and nothing else. */
function pick<K extends string>(from: Record<string, unknown>, keys: readonly K[]): Partial<Record<K, unknown>> {
  const out: Partial<Record<K, unknown>> = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out;
}

function page(nextCursor: string | undefined): { nextCursor?: string } {
  return nextCursor ? { nextCursor } : {};
}

function options(s: ResourceSession): { timeout?: number } {
  return s.config.timeoutMs ? { timeout: s.config.timeoutMs } : {};
}

/** One page of resources, from `cursor`. */
export async function listResources(s: ResourceSession, p: Params<'resources'>): Promise<Result<'resources'>> {
  const r = await (await s.connect()).listResources(p.cursor ? { cursor: p.cursor } : undefined, options(s));
  return {
    resources: r.resources.map((x) => pick(x, ['uri', 'name', 'title', 'description', 'mimeType', 'size'] as const) as Result<'resources'>['resources'][number]),
    ...page(r.nextCursor),
  };
}

/** One page of resource templates, from `cursor`. */
export async function listTemplates(s: ResourceSession, p: Params<'templates'>): Promise<Result<'templates'>> {
  const r = await (await s.connect()).listResourceTemplates(p.cursor ? { cursor: p.cursor } : undefined, options(s));
  return {
    resourceTemplates: r.resourceTemplates.map((x) => pick(x, ['uriTemplate', 'name', 'title', 'description', 'mimeType'] as const) as Result<'templates'>['resourceTemplates'][number]),
    ...page(r.nextCursor),
  };
}

/** Reads one resource: every contents entry, text or blob. */
export async function readResource(s: ResourceSession, p: Params<'readResource'>): Promise<Result<'readResource'>> {
  const r = await (await s.connect()).readResource({ uri: p.uri }, options(s));
  return { contents: r.contents.map((c) => pick(c, ['uri', 'mimeType', 'text', 'blob'] as const) as McpResourceContents) };
}

/** Subscribes to (or unsubscribes from) a resource's updates. */
export async function subscribe(s: ResourceSession, p: Params<'subscribe'>): Promise<Result<'subscribe'>> {
  const client = await s.connect();
  if (p.subscribe) {
    if (!client.getServerCapabilities()?.resources?.subscribe) throw new Error(`the server does not support resource subscriptions (its capabilities have no resources.subscribe)`);
    await client.subscribeResource({ uri: p.uri }, options(s));
    s.subscriptions.add(p.uri);
  } else {
    s.subscriptions.delete(p.uri);
    await client.unsubscribeResource({ uri: p.uri }, options(s));
  }
  return { ok: true };
}

/** Completes a prompt argument or a template variable. */
export async function complete(s: ResourceSession, p: Params<'complete'>): Promise<Result<'complete'>> {
  const client = await s.connect();
  if (!client.getServerCapabilities()?.completions) return { values: [] };
  const r = await client.complete({ ref: p.ref, argument: p.argument, ...(p.context ? { context: { arguments: p.context } } : {}) }, options(s));
  const { values, total, hasMore } = r.completion;
  return { values, ...(total !== undefined ? { total } : {}), ...(hasMore !== undefined ? { hasMore } : {}) };
}

/** One page of prompts, from `cursor`. */
export async function listPrompts(s: ResourceSession, p: Params<'prompts'>): Promise<Result<'prompts'>> {
  const r = await (await s.connect()).listPrompts(p.cursor ? { cursor: p.cursor } : undefined, options(s));
  return {
    prompts: r.prompts.map((x) => {
      const prompt = pick(x, ['name', 'title', 'description'] as const) as Result<'prompts'>['prompts'][number];
      if (x.arguments) prompt.arguments = x.arguments.map((a) => pick(a, ['name', 'title', 'description', 'required'] as const) as { name: string });
      return prompt;
    }),
    ...page(r.nextCursor),
  };
}

/** Gets one prompt with its arguments filled. */
export async function getPrompt(s: ResourceSession, p: Params<'getPrompt'>): Promise<Result<'getPrompt'>> {
  const r = await (await s.connect()).getPrompt({ name: p.name, arguments: p.arguments ?? {} }, options(s));
  return {
    ...(r.description ? { description: r.description } : {}),
    messages: r.messages.map((m) => ({ role: m.role, content: m.content as McpPromptMessage['content'] })),
  };
}
