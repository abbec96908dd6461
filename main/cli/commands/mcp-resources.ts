/**
 * `stepwise mcp resources|read|templates|prompts|prompt <server>`: a server's resources,
 * resource templates and prompts (exit codes in main/cli/commands/mcp.ts: 1 when the server
 * answers with an error, 2 bad input, 3 connection failure).
 */
import type { Command } from 'commander';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { McpService } from '../../core/mcp/service';
import type { McpPrompt, McpPromptMessage, McpResource, McpResourceContents, McpResourceTemplate } from '../../../shared/protocol/contract/mcp-resources';
import { ExitError, onServer, parseStringMap, type HomeOpts } from './mcp-common';

/** Most pages `resources`, `templates` and `prompts` follow (a server whose cursors never end is cut there). */
const MAX_PAGES = 100;

type Json = HomeOpts & { json?: boolean };

/** Every page of a paged list, following `nextCursor`. */
async function allPages<T>(get: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await get(cursor);
    out.push(...r.items);
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return out;
}

function print(o: Json, value: unknown, lines: () => string[]): void {
  process.stdout.write(o.json ? JSON.stringify(value, null, 2) + '\n' : lines().map((l) => `${l}\n`).join(''));
}

/** One contents entry as text: its text, or what its blob is (type and size). */
function contentsLines(c: McpResourceContents): string[] {
  if (c.text !== undefined) return [c.text];
  const bytes = Math.floor(((c.blob ?? '').replace(/=+$/, '').length * 3) / 4);
  return [`[blob ${c.mimeType ?? 'of unknown type'}, ${bytes} bytes: ${c.uri}]`];
}

function messageLines(m: McpPromptMessage): string[] {
  const c = m.content as { type: string; text?: string; mimeType?: string; uri?: string; resource?: McpResourceContents };
  if (c.type === 'text') return [`[${m.role}] ${c.text ?? ''}`];
  if (c.type === 'resource' && c.resource) return [`[${m.role}] [resource ${c.resource.uri}]`, ...contentsLines(c.resource)];
  if (c.type === 'resource_link') return [`[${m.role}] [resource link ${c.uri ?? ''}]`];
  return [`[${m.role}] [${c.type}${c.mimeType ? ` ${c.mimeType}` : ''}]`];
}

/** What each paged list holds, and the key of its items in the answer. */
type Lists = { resources: McpResource; templates: McpResourceTemplate; prompts: McpPrompt };
const LIST_KEY = { resources: 'resources', templates: 'resourceTemplates', prompts: 'prompts' } as const;

/** Every page of list `method` on `server`. */
function listAll<M extends keyof Lists>(svc: McpService, method: M, server: string): Promise<Lists[M][]> {
  return allPages(async (cursor) => {
    const r = (await svc.resourceRequest(method, { server, cursor })) as unknown as Record<string, unknown> & { nextCursor?: string };
    return { items: r[LIST_KEY[method]] as Lists[M][], nextCursor: r.nextCursor };
  });
}

/** Registers the resource and prompt subcommands through `serverCommand` (a subcommand on one `<server>`). */
export function registerMcpResources(serverCommand: (name: string, description: string) => Command): void {
  serverCommand('resources', "List a server's resources (every page).")
    .option('--json', 'print JSON')
    .action(
      onServer(async (svc: McpService, server, o: Json) => {
        const all = await listAll(svc, 'resources', server);
        print(o, all, () => all.map((r) => `${r.uri}\t${r.name}${r.mimeType ? `\t${r.mimeType}` : ''}`));
        return 0;
      }),
    );

  serverCommand('templates', "List a server's resource templates (RFC 6570 URI templates; read one with `mcp read --vars`).")
    .option('--json', 'print JSON')
    .action(
      onServer(async (svc: McpService, server, o: Json) => {
        const all = await listAll(svc, 'templates', server);
        print(o, all, () => all.map((t) => `${t.uriTemplate}\t${t.name}`));
        return 0;
      }),
    );

  serverCommand('read', 'Read one resource: prints text contents, and the type and size of blobs (exit 1 when the server refuses the URI).')
    .argument('<uri>', 'the resource URI, or a URI template filled from --vars')
    .option('--vars <json>', 'variables of a URI template, as a JSON object of strings')
    .option('--json', 'print the contents as JSON (blobs as base64)')
    .action((server: string, uri: string, o: Json & { vars?: string }) =>
      onServer(async (svc: McpService, srv, opts: Json & { vars?: string }) => {
        let target = uri;
        if (opts.vars !== undefined) {
          const vars = parseStringMap(opts.vars, 'vars');
          let template: UriTemplate;
          try {
            template = new UriTemplate(uri);
          } catch (err) {
            throw new ExitError(`<uri> is not a valid URI template: ${(err as Error).message}`, 2);
          }
          const missing = template.variableNames.filter((n) => !(n in vars));
          if (missing.length) throw new ExitError(`--vars lacks ${missing.map((n) => `"${n}"`).join(', ')} for ${uri}`, 2);
          target = template.expand(vars);
        } else if (UriTemplate.isTemplate(uri)) throw new ExitError(`${uri} is a URI template: give its variables with --vars`, 2);
        const r = await svc.resourceRequest('readResource', { server: srv, uri: target });
        print(opts, r, () => r.contents.flatMap(contentsLines));
        return 0;
      })(server, o),
    );

  serverCommand('prompts', "List a server's prompts and their arguments (* required).")
    .option('--json', 'print JSON')
    .action(
      onServer(async (svc: McpService, server, o: Json) => {
        const all = await listAll(svc, 'prompts', server);
        print(o, all, () => all.map((p) => `${p.name}(${(p.arguments ?? []).map((a) => `${a.name}${a.required ? '*' : ''}`).join(', ')})${p.description ? `\t${p.description.split('\n')[0]}` : ''}`));
        return 0;
      }),
    );

  serverCommand('prompt', 'Get one prompt with its arguments filled; prints its messages (exit 2 for a prompt the server does not list or a required argument left out).')
    .argument('<name>')
    .option('--args <json>', 'arguments as a JSON object of strings', '{}')
    .option('--json', 'print the result as JSON')
    .action((server: string, name: string, o: Json & { args: string }) =>
      onServer(async (svc: McpService, srv, opts: Json & { args: string }) => {
        const args = parseStringMap(opts.args, 'args');
        const prompts = await listAll(svc, 'prompts', srv);
        const prompt = prompts.find((p) => p.name === name);
        if (!prompt) throw new ExitError(`server "${srv}" has no prompt "${name}" (it has: ${prompts.map((p) => p.name).join(', ') || 'none'})`, 2);
        const missing = (prompt.arguments ?? []).filter((a) => a.required && !(a.name in args)).map((a) => `"${a.name}"`);
        if (missing.length) throw new ExitError(`prompt "${name}" needs ${missing.join(', ')} in --args`, 2);
        const r = await svc.resourceRequest('getPrompt', { server: srv, name, arguments: args });
        print(opts, r, () => r.messages.flatMap(messageLines));
        return 0;
      })(server, o),
    );
}
