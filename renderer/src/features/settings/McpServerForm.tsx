/**
 * Add an MCP server to settings/mcp.json (stdio: command and arguments; http / sse: URL and
 * headers), or import the servers of a Claude Desktop, Cursor or VS Code config file.
 */
import { useState } from 'react';
import { Button, Group, SegmentedControl, Stack, Text, TextInput, Textarea } from '@mantine/core';
import type { McpServerInfo } from '../../../../shared/protocol/host-api';
import { useApp } from '../../state/context';
import { splitArgs } from './split-args';
import { ConfirmRow } from '../../ui/ConfirmRow';

/** `KEY=value` lines to an object; returns an error text for a line without `=`. */
export function parsePairs(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) return `Line ${i + 1} needs the form NAME=value`;
    out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}

/**
 * The add-a-server and import form. `servers` is the current list (to ask before a save
 * replaces an entry of the same name); `onSaved` gets the list after a save or an import.
 */
export function McpServerForm({ servers, onSaved, onError }: { servers: McpServerInfo[] | null; onSaved(call: () => Promise<McpServerInfo[]>): Promise<unknown>; onError(title: string, err: unknown): void }) {
  const app = useApp();
  const [f, setF] = useState({ name: '', transport: 'stdio', command: '', args: '', url: '', pairs: '' });
  const [file, setFile] = useState('');
  const [note, setNote] = useState('');
  /** The name whose Save waits for "replace the existing server?" to be confirmed. */
  const [replacing, setReplacing] = useState<string | null>(null);
  const pairs = parsePairs(f.pairs);
  const stdio = f.transport === 'stdio';
  const args = splitArgs(f.args);
  const name = f.name.trim();
  const confirming = replacing !== null && replacing === name;
  const ready = name && (stdio ? f.command.trim() && args.ok : f.url.trim()) && typeof pairs !== 'string';
  const save = async (replace = false) => {
    if (typeof pairs === 'string' || (stdio && !args.ok)) return;
    if (!replace && servers?.some((s) => s.name === name)) {
      setReplacing(name);
      return;
    }
    setReplacing(null);
    const entry: Record<string, unknown> = stdio
      ? { command: f.command.trim(), args: args.ok ? args.args : [], ...(Object.keys(pairs).length ? { env: pairs } : {}) }
      : { type: f.transport, url: f.url.trim(), ...(Object.keys(pairs).length ? { headers: pairs } : {}) };
    try {
      await onSaved(() => app.host.call('mcp.saveServer', { name, entry }));
      setNote(`Saved "${name}"; it connects in the background — its state shows above.`);
      setF({ ...f, name: '', command: '', args: '', url: '', pairs: '' });
    } catch (err) {
      onError('Could not save the MCP server', err);
    }
  };
  const importFile = async () => {
    try {
      const r = await app.host.call('mcp.import', { file: file.trim() });
      const client = { 'claude-desktop': 'Claude Desktop', 'claude-code': 'Claude Code', cursor: 'Cursor', vscode: 'VS Code' }[r.format];
      setNote(`Read as a ${client} configuration. ${r.added.length ? `Added ${r.added.join(', ')}.` : 'Nothing added.'}${r.notes.length ? ` ${r.notes.join(' ')}` : ''}`);
      await onSaved(() => app.host.call('mcp.servers', {}));
    } catch (err) {
      onError('Could not import the MCP configuration', err);
    }
  };
  return (
    <Stack gap={6} mt="xs">
      <Text size="sm" fw={600}>Add a server</Text>
      <Group grow align="flex-end">
        <TextInput size="xs" label="Name" placeholder="filesystem" value={f.name} onChange={(e) => setF({ ...f, name: e.currentTarget.value })} />
        <SegmentedControl size="xs" aria-label="Transport" value={f.transport} onChange={(v) => setF({ ...f, transport: v })}
          data={[{ value: 'stdio', label: 'stdio' }, { value: 'http', label: 'Streamable HTTP' }, { value: 'sse', label: 'SSE' }]} />
      </Group>
      {stdio ? (
        <>
          <TextInput size="xs" label="Command" placeholder="npx" value={f.command} onChange={(e) => setF({ ...f, command: e.currentTarget.value })} />
          <TextInput size="xs" label="Arguments" placeholder="-y @modelcontextprotocol/server-filesystem '/path with spaces'" value={f.args}
            onChange={(e) => setF({ ...f, args: e.currentTarget.value })} error={args.ok ? undefined : `${args.error}.`} />
        </>
      ) : (
        <TextInput size="xs" label="URL" placeholder="http://127.0.0.1:3001/mcp" value={f.url} onChange={(e) => setF({ ...f, url: e.currentTarget.value })} />
      )}
      <Textarea size="xs" autosize minRows={1} label={stdio ? 'Environment (NAME=value per line; $ENV references allowed)' : 'Headers (Name=value per line; $ENV references allowed)'}
        value={f.pairs} onChange={(e) => setF({ ...f, pairs: e.currentTarget.value })} error={typeof pairs === 'string' ? pairs : undefined} />
      {confirming ? (
        <ConfirmRow label={`Confirm replacing ${name}`} action={`Replace ${name}`} disabled={!ready || app.host.presentational} onConfirm={() => void save(true)} onCancel={() => setReplacing(null)}>
          Replace the existing server “{name}”? Its entry in settings/mcp.json is overwritten with this one.
        </ConfirmRow>
      ) : (
        <Group justify="flex-end"><Button size="xs" disabled={!ready || app.host.presentational} onClick={() => void save()}>Save server</Button></Group>
      )}
      <Text size="sm" fw={600}>Import</Text>
      <Group align="flex-end" wrap="nowrap">
        <TextInput size="xs" style={{ flex: 1 }} label="Config file on this computer (Claude Desktop, Cursor, VS Code)" placeholder="~/.cursor/mcp.json"
          value={file} onChange={(e) => setFile(e.currentTarget.value)} />
        <Button size="xs" variant="light" disabled={!file.trim() || app.host.presentational} onClick={() => void importFile()}>Import</Button>
      </Group>
      {note && <Text size="xs" c="dimmed" aria-live="polite">{note}</Text>}
    </Stack>
  );
}
