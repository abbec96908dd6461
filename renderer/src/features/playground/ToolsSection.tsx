/** The thread's tools: function tools (JSON Schema editor), agent tools, MCP import, enabled skills. */
import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Badge, Button, Checkbox, Group, Modal, Paper, Select, Stack, Text, TextInput, ActionIcon, Collapse, Loader } from '@mantine/core';
import { toolNameProblem, type Tool } from '../../../../shared/thread/tools';
import type { Thread } from '../../../../shared/thread/schema';
import type { McpToolInfo } from '../../../../shared/protocol/host-api';
import { useMcpServers } from '../settings/use-mcp-servers';
import { useApp } from '../../state/context';
import { useSession } from '../../state/hooks';
import { JsonField } from './JsonField';
import { SkillsField } from './SkillsField';
import { schemaProblems } from './schema-check';
import { ErrorNotice, errorProps, type ErrorNoticeProps } from '../../ui/ErrorNotice';
import { DROPDOWN_WHEN_OPEN } from '../../ui/dropdown';

/** Tools list with add / edit / remove. */
export function ToolsSection({ thread, readOnly }: { thread: Thread; readOnly: boolean }) {
  const session = useSession()!;
  const app = useApp();
  const { entries } = useAtomValue(app.workspaceAtom);
  const [open, setOpen] = useState<number | null>(null);
  const [importing, setImporting] = useState(false);
  const tools = thread.context.tools;
  const add = (tool: Tool) => {
    session.edit((d) => void d.context.tools.push(tool));
    setOpen(tools.length);
  };
  const uniqueName = (base: string) => {
    const names = new Set(tools.map((t) => t.name));
    let n = base;
    for (let i = 2; names.has(n); i++) n = `${base}_${i}`;
    return n;
  };
  return (
    <Stack gap={4}>
      {tools.length === 0 && <Text size="xs" c="dimmed">No tools — add a function tool, an agent tool, or import from an MCP server.</Text>}
      {tools.map((t, i) => (
        <Paper key={i} withBorder p={6} radius="sm">
          <Group gap={6} wrap="nowrap">
            <Badge size="xs" variant="outline">{t.type}</Badge>
            <Text size="sm" fw={500} ff="monospace" style={{ flex: 1 }} truncate>
              {t.name}
              {t.type === 'mcp' ? `  (${t.server})` : t.type === 'agent' ? `  → ${t.threadPath}` : ''}
            </Text>
            <Button size="compact-xs" variant="subtle" onClick={() => setOpen(open === i ? null : i)} aria-expanded={open === i} aria-label={`${readOnly || t.type === 'mcp' ? 'Show' : 'Edit'} tool ${t.name}`}>
              {open === i ? 'Close' : readOnly || t.type === 'mcp' ? 'Show' : 'Edit'}
            </Button>
            {!readOnly && (
              <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Remove tool ${t.name}`} onClick={() => session.edit((d) => void d.context.tools.splice(i, 1))}>
                ×
              </ActionIcon>
            )}
          </Group>
          <Collapse expanded={open === i}>
            <Stack gap={4} mt={6}>
              <Group gap="xs" grow>
                <TextInput size="xs" label="Name" value={t.name} disabled={readOnly} error={readOnly ? undefined : toolNameProblem(t.name)}
                  onChange={(e) => { const v = e.currentTarget.value; session.edit((d) => void (d.context.tools[i].name = v), `tool.${i}.name`); }} />
                {t.type === 'agent' && (
                  <Select comboboxProps={DROPDOWN_WHEN_OPEN} size="xs" label="Thread" searchable disabled={readOnly} value={t.threadPath}
                    data={[...new Set([t.threadPath, ...entries.filter((e) => e.kind === 'thread').map((e) => e.path)])]}
                    onChange={(v) => v && session.edit((d) => void ((d.context.tools[i] as { threadPath: string }).threadPath = v))} />
                )}
              </Group>
              <TextInput size="xs" label="Description" value={t.description ?? ''} disabled={readOnly}
                onChange={(e) => { const v = e.currentTarget.value; session.edit((d) => void (d.context.tools[i].description = v), `tool.${i}.description`); }} />
              <Checkbox size="xs" label="Requires approval (Auto-run tools stops here)" checked={!!t.requiresApproval} disabled={readOnly}
                onChange={(e) => { const v = e.currentTarget.checked; session.edit((d) => void (d.context.tools[i].requiresApproval = v)); }} />
              <Text size="xs" c="dimmed">{t.type === 'mcp' ? 'Input schema (from the server)' : 'Parameters (JSON Schema)'}</Text>
              <JsonField label={`JSON Schema of ${t.name}`} object readOnly={readOnly || t.type === 'mcp'} maxHeight={260} invalidKey={`tool.${i}.schema`}
                validate={(v) => schemaProblems(v) || null}
                value={t.type === 'mcp' ? t.inputSchema : (t.parameters ?? { type: 'object', properties: {} })}
                onValue={(v) => session.edit((d) => { const x = d.context.tools[i]; if (x.type !== 'mcp') x.parameters = v as Record<string, unknown>; }, `tool.${i}.schema`)} />
            </Stack>
          </Collapse>
        </Paper>
      ))}
      {!readOnly && (
        <Group gap={6}>
          <Button size="compact-xs" variant="light" onClick={() => add({ type: 'function', name: uniqueName('new_tool'), description: '', parameters: { type: 'object', properties: {}, required: [] } })}>
            Add function tool
          </Button>
          <Button size="compact-xs" variant="light" onClick={() => add({ type: 'agent', name: uniqueName('agent'), description: 'Ask another thread.', threadPath: entries.find((e) => e.kind === 'thread' && e.id !== thread.id)?.path ?? 'other.json', parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] } })}>
            Add agent tool
          </Button>
          <Button size="compact-xs" variant="light" onClick={() => setImporting(true)}>
            Import from MCP server
          </Button>
        </Group>
      )}
      <SkillsField thread={thread} readOnly={readOnly} />
      {importing && <McpImport existing={tools} onClose={() => setImporting(false)} onAdd={(ts) => session.edit((d) => void d.context.tools.push(...ts))} />}
    </Stack>
  );
}

function McpImport({ existing, onClose, onAdd }: { existing: Tool[]; onClose: () => void; onAdd: (t: Tool[]) => void }) {
  const app = useApp();
  const live = useMcpServers();
  const [failed, setFailed] = useState(false);
  const servers = live.servers ?? (failed ? [] : null);
  const [server, setServer] = useState<string | null>(null);
  const [tools, setTools] = useState<McpToolInfo[] | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [error, setError] = useState<ErrorNoticeProps | null>(null);
  const { track } = live;
  useEffect(() => {
    // A server is picked at once, its tools shown without a click: the first one not known to
    // have failed (a failed one would only show its error), else the first.
    track(() => app.host.call('mcp.servers', {})).then(
      (l) => {
        const first = l.find((s) => s.status !== 'error') ?? l[0];
        if (first) choose(first.name);
      },
      (err) => { setFailed(true); setError(errorProps('Could not list MCP servers', err, 'Add servers in Settings → MCP servers.')); },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per opening
  }, [app, track]);
  const choose = (name: string | null) => {
    setServer(name);
    setTools(null);
    setPicked([]);
    setError(null);
    if (name) app.host.call('mcp.tools', { server: name }).then(setTools, (err) => { setTools([]); setError(errorProps(`Could not list the tools of ${name}`, err, 'Test the server in Settings → MCP servers; its stderr shows why it failed.')); });
  };
  const names = new Set(existing.map((t) => t.name));
  return (
    <Modal opened onClose={onClose} title="Import tools from an MCP server" size="lg">
      <Stack gap="xs">
        {servers === null ? <Loader size="sm" /> : servers.length === 0 ? <Text size="sm" c="dimmed">No MCP servers configured — add one in Settings → MCP servers.</Text> : (
          <Select comboboxProps={DROPDOWN_WHEN_OPEN} label="Server" data={servers.map((s) => ({ value: s.name, label: `${s.name} (${s.transport}, ${s.status === 'error' ? `failed: ${s.error ?? 'unknown reason'}` : s.status})` }))} value={server} onChange={choose} />
        )}
        {error && <ErrorNotice {...error} />}
        {server && tools === null && <Loader size="sm" />}
        {tools?.map((t) => (
          <Checkbox key={t.name} checked={picked.includes(t.name)} disabled={names.has(t.name)}
            label={<><Text span ff="monospace" size="sm">{t.name}</Text>{names.has(t.name) ? ' (already added)' : ''}{t.description ? <Text size="xs" c="dimmed" lineClamp={2}>{t.description}</Text> : null}</>}
            onChange={(e) => { const on = e.currentTarget.checked; setPicked((p) => (on ? [...p, t.name] : p.filter((x) => x !== t.name))); }} />
        ))}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button disabled={picked.length === 0} onClick={() => {
            onAdd((tools ?? []).filter((t) => picked.includes(t.name)).map((t): Tool => ({
              type: 'mcp', name: t.name, description: t.description, server: server!, toolName: t.name, inputSchema: t.inputSchema,
              ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
              annotations: t.annotations as Extract<Tool, { type: 'mcp' }>['annotations'],
              requiresApproval: t.annotations?.destructiveHint === true ? true : undefined,
            })));
            onClose();
          }}>
            Add {picked.length || ''} tool{picked.length === 1 ? '' : 's'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
