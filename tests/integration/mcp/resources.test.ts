/**
 * Resources, resource templates, subscriptions, completions and prompts through the real
 * McpService → mcp-host → server-everything, over stdio and over Streamable HTTP; paging
 * against a server that pages its lists (tests/support/mcp-servers/paged.mjs), whose errors (a
 * bad cursor, a missing resource) come with the SDK's "MCP error <code>: " prefix said once.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { McpService } from '../../../main/core/mcp/service';
import { everythingEntry, makeHome, startService } from './harness';
import { cleanups } from '../../support/cleanups';

const PAGED = path.resolve('tests/support/mcp-servers/paged.mjs');
const defer = cleanups('file');

describe.each(['stdio', 'http'] as const)('server-everything over %s: resources and prompts', (transport) => {
  let svc: McpService;
  beforeAll(async () => {
    const entry = await everythingEntry(transport, defer);
    svc = startService(makeHome({ ev: entry }));
    defer(() => svc.close());
  });

  it('lists resources and reads a text resource (markdown)', async () => {
    const r = await svc.resourceRequest('resources', { server: 'ev' });
    const doc = r.resources.find((x) => x.name === 'instructions.md');
    expect(doc).toMatchObject({ uri: 'demo://resource/static/document/instructions.md', mimeType: 'text/markdown' });
    const read = await svc.resourceRequest('readResource', { server: 'ev', uri: doc!.uri });
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({ uri: doc!.uri, mimeType: 'text/markdown', text: expect.stringMatching(/\S/) });
  });

  it('lists templates, completes a variable, expands the template (RFC 6570) and reads a blob', async () => {
    const t = await svc.resourceRequest('templates', { server: 'ev' });
    const blob = t.resourceTemplates.find((x) => x.uriTemplate === 'demo://resource/dynamic/blob/{resourceId}');
    expect(blob).toBeDefined();
    const c = await svc.resourceRequest('complete', { server: 'ev', ref: { type: 'ref/resource', uri: blob!.uriTemplate }, argument: { name: 'resourceId', value: '7' } });
    expect(c.values).toEqual(['7']);
    const uri = new UriTemplate(blob!.uriTemplate).expand({ resourceId: c.values[0] });
    const read = await svc.resourceRequest('readResource', { server: 'ev', uri });
    expect(read.contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/blob/7', mimeType: 'text/plain' });
    expect(read.contents[0].text).toBeUndefined();
    expect(Buffer.from(read.contents[0].blob!, 'base64').toString()).toMatch(/^Resource 7: This is a base64 blob/);
  });

  it('a read of an unknown resource is the server\'s own error (mcp_error), not a crash', async () => {
    await expect(svc.resourceRequest('readResource', { server: 'ev', uri: 'demo://resource/dynamic/text/0' })).rejects.toMatchObject({ code: 'mcp_error', message: expect.stringContaining('demo://resource/dynamic/text/0') });
    await expect(svc.resourceRequest('resources', { server: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a subscribed resource\'s update arrives as resource_updated; unsubscribing is accepted', { timeout: 30_000 }, async () => {
    const uri = 'demo://resource/dynamic/text/1';
    const updates: string[] = [];
    const off = svc.onResourceUpdated((server, u) => updates.push(`${server} ${u}`));
    defer(off);
    await svc.resourceRequest('subscribe', { server: 'ev', uri, subscribe: true });
    // server-everything sends updates for subscribed resources once its updates are switched on.
    const on = await svc.callTool('ev', 'toggle-subscriber-updates', {});
    expect(on.output.isError).toBe(false);
    await expect.poll(() => updates, { timeout: 10_000 }).toContain(`ev ${uri}`);
    await svc.resourceRequest('subscribe', { server: 'ev', uri, subscribe: false });
    await svc.callTool('ev', 'toggle-subscriber-updates', {});
  });

  it('lists prompts, completes an argument from the context of another, gets a prompt with arguments', async () => {
    const p = await svc.resourceRequest('prompts', { server: 'ev' });
    expect(p.prompts.find((x) => x.name === 'args-prompt')).toMatchObject({
      title: 'Arguments Prompt',
      arguments: [expect.objectContaining({ name: 'city', required: true }), expect.objectContaining({ name: 'state', required: false })],
    });
    const ref = { type: 'ref/prompt' as const, name: 'completable-prompt' };
    expect((await svc.resourceRequest('complete', { server: 'ev', ref, argument: { name: 'department', value: 'E' } })).values).toEqual(['Engineering']);
    expect((await svc.resourceRequest('complete', { server: 'ev', ref, argument: { name: 'name', value: '' }, context: { department: 'Sales' } })).values).toEqual(['David', 'Eve', 'Frank']);
    const got = await svc.resourceRequest('getPrompt', { server: 'ev', name: 'args-prompt', arguments: { city: 'Lyon', state: 'Rhône' } });
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: "What's weather in Lyon, Rhône?" } }]);
    // A prompt whose message embeds a resource keeps it as such.
    const res = await svc.resourceRequest('getPrompt', { server: 'ev', name: 'resource-prompt', arguments: { resourceType: 'Text', resourceId: '2' } });
    expect(res.messages.some((m) => m.content.type === 'resource')).toBe(true);
  });
});

describe('paged lists', () => {
  it('follows nextCursor page by page; a cursor it never gave is the server\'s error', async () => {
    const svc = startService(makeHome({ paged: { command: process.execPath, args: [PAGED] } }));
    defer(() => svc.close());
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await svc.resourceRequest('resources', { server: 'paged', ...(cursor ? { cursor } : {}) });
      seen.push(...r.resources.map((x) => x.name));
      cursor = r.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `r${i}`));
    const prompts = await svc.resourceRequest('prompts', { server: 'paged', cursor: '10' });
    expect(prompts).toEqual({ prompts: [{ name: 'p10' }, { name: 'p11' }] });
    await expect(svc.resourceRequest('resources', { server: 'paged', cursor: 'zzz' })).rejects.toMatchObject({ code: 'mcp_error', message: 'MCP error -32602: bad cursor "zzz"' });
  });

  it('a missing resource is the server\'s -32002, its "MCP error" prefix said once (the SDK server sends it prefixed already)', async () => {
    const svc = startService(makeHome({ paged: { command: process.execPath, args: [PAGED] } }));
    defer(() => svc.close());
    expect((await svc.resourceRequest('readResource', { server: 'paged', uri: 'paged://r/3' })).contents).toEqual([{ uri: 'paged://r/3', mimeType: 'text/plain', text: 'r3' }]);
    await expect(svc.resourceRequest('readResource', { server: 'paged', uri: 'paged://r/99' })).rejects.toMatchObject({ code: 'mcp_error', message: 'MCP error -32002: Resource not found: paged://r/99' });
  });
});
