/** `settings.*`: where the host keeps its data, and the providers of settings/providers.json. */
import { listProviders, providersFileStatus, removeProvider, saveProvider } from '../settings/providers';
import type { DomainHandlers } from './types';

export const settingsHandlers: DomainHandlers<'settings'> = {
  'settings.app': async (ctx) => ({ home: ctx.home, workspaceDir: ctx.workspaceDir }),
  'settings.providers': (ctx) => listProviders(ctx.home, process.env, ctx.keys),
  'settings.providersFile': (ctx) => providersFileStatus(ctx.home),
  'settings.saveProvider': (ctx, _client, p) => saveProvider(ctx.home, { id: p.id, api: p.api, baseUrl: p.baseUrl, apiKey: p.apiKey }, ctx.keys),
  'settings.removeProvider': (ctx, _client, p) => removeProvider(ctx.home, p.id, ctx.keys),
};
