/**
 * `stepwise mcp`: list servers, list a server's tools, call a tool, test a connection, import
 * another client's MCP file; list and read resources and templates, list and get prompts
 * (mcp-resources.ts). Exit codes: 0 ok, 1 tool error (`isError` result) or the server's own
 * JSON-RPC error to a request (an unknown resource URI, a prompt argument it refuses),
 * 2 bad input (bad JSON, unknown server, broken config entry, a settings/mcp.json that cannot
 * be read or parsed; `list` lists broken entries with their error and exits 2),
 * 3 connection failure.
 */
import type { Command } from 'commander';
import { importMcpServers } from '../../core/mcp/import';
import { checkServer, ExitError, homeOf, offerRoots, onServer, parseJsonObject, withService, type HomeOpts } from './mcp-common';
import { registerMcpResources } from './mcp-resources';
import type { ToolOutput } from '../../../shared/thread/messages';

function printOutput(out: ToolOutput): void {
  for (const p of out.content) {
    if (p.type === 'text') process.stdout.write(`${p.text}\n`);
    else if (p.type === 'image' || p.type === 'audio') process.stdout.write(`[${p.type} ${p.mimeType}, ${Math.floor((p.data.length * 3) / 4)} bytes]\n`);
    else if (p.type === 'resource_link') process.stdout.write(`[resource link ${p.uri}${p.name ? ` (${p.name})` : ''}]\n`);
    else process.stdout.write(`[resource ${p.resource.uri}]\n${p.resource.text ?? `(${p.resource.blob?.length ?? 0} base64 chars)`}\n`);
  }
  if (out.structuredContent !== undefined) process.stdout.write(`structuredContent: ${JSON.stringify(out.structuredContent, null, 2)}\n`);
}

/** How long `mcp list` waits for the servers to connect by default (ms). */
const LIST_PROBE_MS = 5000;

/** Registers `stepwise mcp`. */
export function registerMcp(program: Command): void {
  const mcp = program.command('mcp').description('MCP servers from settings/mcp.json: list, tools, call, test, import, resources, read, templates, prompts, prompt.');
  const homeOpt = ['--home <dir>', 'Stepwise home (default $STEPWISE_HOME or ~/.stepwise)'] as const;
  const rootOpt = ['--root <dir...>', 'folders offered to the server as roots (answered on roots/list; default none)'] as const;

  mcp
    .command('list')
    .description('List configured MCP servers with their state, connecting to each (exit 2 when an entry is broken; it is listed with its error).')
    .option(...homeOpt)
    .option(...rootOpt)
    .option('--json', 'print JSON')
    .option('--timeout <ms>', 'how long to wait for the servers to connect; one still connecting then reads "connecting"', String(LIST_PROBE_MS))
    .action((o: HomeOpts & { timeout: string }) =>
      withService(o, async (svc, config) => {
        const timeoutMs = Number(o.timeout);
        if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 120_000) throw new ExitError(`--timeout must be a whole number of ms from 1 to 120000 (got ${JSON.stringify(o.timeout)})`, 2);
        await offerRoots(svc, Object.keys(config.servers), o);
        const servers = await svc.servers({ timeoutMs });
        if (o.json) process.stdout.write(JSON.stringify(servers, null, 2) + '\n');
        else if (!servers.length) process.stdout.write(`No MCP servers configured in ${config.file}.\n`);
        else for (const s of servers) process.stdout.write(`${s.name}\t${s.transport}\t${s.status}${s.error ? `\t${s.error}` : ''}\n`);
        const broken = Object.keys(config.errors);
        if (!broken.length) return 0;
        const one = broken.length === 1;
        process.stderr.write(`stepwise mcp: ${config.file}: ${one ? 'the entry' : 'the entries'} ${broken.map((n) => `"${n}"`).join(', ')} ${one ? 'is' : 'are'} broken (listed with ${one ? 'its error' : 'their errors'}); fix or remove ${one ? 'it' : 'them'}\n`);
        return 2;
      }),
    );

  /** A subcommand on one configured `<server>`. */
  const serverCommand = (name: string, description: string) => mcp.command(name).description(description).argument('<server>').option(...homeOpt).option(...rootOpt);
  registerMcpResources(serverCommand);

  serverCommand('tools', "List a server's tools (connects to it).")
    .option('--json', 'print JSON (names, schemas, annotations)')
    .action(
      onServer(async (svc, server, o: HomeOpts) => {
        const tools = await svc.tools(server);
        if (o.json) process.stdout.write(JSON.stringify(tools, null, 2) + '\n');
        else for (const t of tools) process.stdout.write(`${t.name}${t.description ? `\t${t.description.split('\n')[0]}` : ''}\n`);
        return 0;
      }),
    );

  serverCommand('test', 'Connect to a server and say what is wrong if it fails.').action(
    onServer(async (svc, server) => {
      const r = await svc.test(server);
      process.stdout.write(`${r.message}\n`);
      if (!r.ok && r.stderr) process.stderr.write(`--- stderr of ${server} ---\n${r.stderr}\n`);
      return r.ok ? 0 : 3;
    }),
  );

  mcp
    .command('call')
    .description('Call one tool; prints its result (exit 1 when the result is an error).')
    .argument('<server>')
    .argument('<tool>')
    .option('--args <json>', 'arguments as a JSON object', '{}')
    .option(...rootOpt)
    .option('--timeout <ms>', 'per-call timeout, reset on progress', (v) => Number(v))
    .option(...homeOpt)
    .option('--json', 'print the whole result as JSON (every content part, structuredContent, protocol log)')
    .action((server: string, tool: string, o: HomeOpts & { args: string; root?: string[]; timeout?: number }) =>
      withService(o, async (svc, config) => {
        const args = parseJsonObject(o.args, 'args');
        if (o.timeout !== undefined && !(o.timeout > 0)) throw new ExitError('--timeout must be a positive number of milliseconds', 2);
        checkServer(config, server);
        const roots = await offerRoots(svc, [server], o);
        const tools = await svc.tools(server); // connection failures surface here (exit 3)
        if (!tools.some((t) => t.name === tool)) throw new ExitError(`server "${server}" has no tool "${tool}" (it has: ${tools.map((t) => t.name).join(', ')})`, 2);
        const r = await svc.callTool(server, tool, args, { roots, timeoutMs: o.timeout });
        if (o.json) process.stdout.write(JSON.stringify(r, null, 2) + '\n');
        else printOutput(r.output);
        if (!o.json && r.outputProblems.length) process.stdout.write(`structuredContent does not match the tool's outputSchema:\n${r.outputProblems.map((p) => `  ${p}\n`).join('')}`);
        return r.output.isError ? 1 : 0;
      }),
    );

  mcp
    .command('import')
    .description('Add the servers of a Claude Desktop, Cursor (.cursor/mcp.json) or VS Code (.vscode/mcp.json) file to settings/mcp.json (comments and trailing commas are accepted, as those clients do).')
    .argument('<file>')
    .option('--overwrite', 'replace servers that already exist')
    .option(...homeOpt)
    .action(async (file: string, o: HomeOpts & { overwrite?: boolean }) => {
      try {
        const r = await importMcpServers(homeOf(o), file, o.overwrite);
        process.stdout.write(`Imported ${r.added.length} server${r.added.length === 1 ? '' : 's'} from ${r.format}: ${r.added.join(', ') || '(none)'}\n`);
        for (const n of r.notes) process.stdout.write(`note: ${n}\n`);
      } catch (err) {
        process.stderr.write(`stepwise mcp: ${(err as Error).message}\n`);
        process.exitCode = 2;
      }
    });
}
