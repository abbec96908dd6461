/** `settings.*`: where the host keeps its data, the providers of settings/providers.json, and the skills found. */
import { listProviders, providersFileStatus, removeProvider, saveProvider } from '../settings/providers';
import { providerModels, testProvider } from '../settings/provider-check';
import { discoverSkills, listedSkills } from '../skills/discover';
import type { DomainHandlers } from './types';

export const settingsHandlers: DomainHandlers<'settings'> = {
  'settings.app': async (ctx) => ({ home: ctx.home, workspaceDir: ctx.workspaceDir }),
  'settings.providers': (ctx) => listProviders(ctx.home, process.env, ctx.keys),
  'settings.providersFile': (ctx) => providersFileStatus(ctx.home),
  'settings.saveProvider': (ctx, _client, p) => saveProvider(ctx.home, { id: p.id, api: p.api, baseUrl: p.baseUrl, apiKey: p.apiKey, name: p.name, preset: p.preset }, ctx.keys),
  'settings.testProvider': (ctx, _client, p) => testProvider(ctx.home, p.id, { codec: ctx.keys }),
  'settings.providerModels': (ctx, _client, p) => providerModels(ctx.home, p.id, { codec: ctx.keys }),
  'settings.skills': async (ctx) => listedSkills(await discoverSkills(ctx.skillRoots ?? [])),
  'settings.removeProvider': (ctx, _client, p) => removeProvider(ctx.home, p.id, ctx.keys),
};
