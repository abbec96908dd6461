/**
 * Tool results beyond text, through the real executor → mcp-host → server: an embedded
 * resource kept as a `resource` part, `structuredContent` kept and checked against the tool's
 * `outputSchema` — server-everything over stdio and Streamable HTTP, and a server whose
 * structuredContent breaks its own schema (tests/support/mcp-servers/structured.mjs).
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { McpService } from '../../../main/core/mcp/service';
import { everythingEntry, harness, makeHome, startService } from './harness';
import { cleanups } from '../../support/cleanups';

const STRUCTURED = path.resolve('tests/support/mcp-servers/structured.mjs');
const defer = cleanups('file');

describe.each(['stdio', 'http'] as const)('server-everything over %s: tool results', (transport) => {
  let h: Awaited<ReturnType<typeof harness>>;
  beforeAll(async () => {
    const entry = await everythingEntry(transport, defer);
    const svc: McpService = startService(makeHome({ ev: entry }));
    defer(() => svc.close());
    h = await harness(svc, 'ev');
    defer(() => h.detach());
  });

  it('an embedded resource is kept as a resource part', async () => {
    const { out } = await h.call('get-resource-reference', { resourceType: 'Text', resourceId: 3 });
    expect(out.isError).toBe(false);
    expect(out.content).toContainEqual({ type: 'resource', resource: { uri: 'demo://resource/dynamic/text/3', mimeType: 'text/plain', text: expect.stringMatching(/^Resource 3: /) } });
  });

  it('structuredContent is kept and, matching the outputSchema, has no problems', async () => {
    const { out, rec } = await h.call('get-structured-content', { location: 'Chicago' });
    expect(out.structuredContent).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    expect(rec.attrs.outputProblems).toBeUndefined();
  });
});

describe('structuredContent that breaks the outputSchema', () => {
  it('keeps the result and names each problem (the SDK alone would turn it into an error)', async () => {
    const svc = startService(makeHome({ st: { command: process.execPath, args: [STRUCTURED] } }));
    defer(() => svc.close());
    const h = await harness(svc, 'st');
    defer(() => h.detach());
    const bad = await h.call('bad-weather', {});
    expect(bad.out).toMatchObject({ isError: false, structuredContent: { temperature: 'hot' } });
    expect(bad.rec.attrs.outputProblems).toEqual(['structuredContent/conditions is required', 'structuredContent/temperature must be number']);
    const none = await h.call('no-structure', {});
    expect(none.rec.attrs.outputProblems).toEqual(['the tool declares an outputSchema but its result has no structuredContent']);
    const good = await h.call('weather', {});
    expect(good.rec.attrs.outputProblems).toBeUndefined();
    // The CLI path (McpService.callTool) carries them too.
    expect((await svc.callTool('st', 'bad-weather', {})).outputProblems).toHaveLength(2);
  });
});
