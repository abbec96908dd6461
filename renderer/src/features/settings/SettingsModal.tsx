/** Settings: providers (masked keys, add/save, remove the ones added here), MCP servers (status, Test with stderr), app theme. */
import { Fragment, useEffect, useState } from 'react';
import { useAtom } from 'jotai';
import { Badge, Button, Code, Group, Loader, Modal, PasswordInput, SegmentedControl, Select, Stack, Table, Tabs, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useMantineColorScheme } from '@mantine/core';
import type { McpServerInfo, ProviderInfo } from '../../../../shared/protocol/host-api';
import { useApp } from '../../state/context';
import { ErrorNotice, errorProps, type ErrorNoticeProps } from '../../ui/ErrorNotice';
import { McpServerForm } from './McpServerForm';

/** The wire APIs a provider entry may name (main/core/settings/providers.ts PROVIDER_APIS). */
const APIS = [
  { value: 'openai-completions', label: 'OpenAI Chat Completions (and compatible servers)' },
  { value: 'openai-responses', label: 'OpenAI Responses' },
  { value: 'anthropic-messages', label: 'Anthropic Messages' },
];

/** The settings modal (opened from the header). */
export function SettingsModal() {
  const app = useApp();
  const [open, setOpen] = useAtom(app.settingsOpenAtom);
  return (
    <Modal opened={open} onClose={() => setOpen(false)} title="Settings" size="xl">
      <Tabs defaultValue="providers">
        <Tabs.List>
          <Tabs.Tab value="providers">Providers</Tabs.Tab>
          <Tabs.Tab value="mcp">MCP servers</Tabs.Tab>
          <Tabs.Tab value="app">App</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="providers" pt="sm"><Providers /></Tabs.Panel>
        <Tabs.Panel value="mcp" pt="sm"><McpServers /></Tabs.Panel>
        <Tabs.Panel value="app" pt="sm"><AppSettings /></Tabs.Panel>
      </Tabs>
    </Modal>
  );
}

const EMPTY_PROVIDER_FORM = { id: '', api: 'openai-completions', baseUrl: '', apiKey: '' };

function Providers() {
  const app = useApp();
  const [list, setList] = useState<ProviderInfo[] | null>(null);
  const [error, setError] = useState<ErrorNoticeProps | null>(null);
  const [form, setForm] = useState(EMPTY_PROVIDER_FORM);
  /** The provider whose Remove waits for confirmation. */
  const [removing, setRemoving] = useState<string | null>(null);
  useEffect(() => {
    app.host.call('settings.providers', {}).then(setList, (e) => { setList([]); setError(errorProps('Could not load providers', e)); });
  }, [app]);
  const save = async () => {
    try {
      setList(await app.host.call('settings.saveProvider', { id: form.id.trim(), api: form.api, baseUrl: form.baseUrl.trim() || undefined, apiKey: form.apiKey || undefined }));
      setForm(EMPTY_PROVIDER_FORM);
      setError(null);
    } catch (e) {
      setError(errorProps(`Could not save provider ${form.id}`, e, 'Check the id (letters, digits, dashes) and the base URL.'));
    }
  };
  const remove = async (id: string) => {
    setRemoving(null);
    try {
      setList(await app.host.call('settings.removeProvider', { id }));
      if (form.id.trim() === id) setForm(EMPTY_PROVIDER_FORM);
      setError(null);
    } catch (e) {
      setError(errorProps(`Could not remove provider ${id}`, e));
    }
  };
  /** Added providers are removed; a built-in one with a saved key or URL is reset to its defaults. */
  const action = (p: ProviderInfo): 'Remove' | 'Reset' | null => (app.host.presentational ? null : !p.builtin ? 'Remove' : p.saved ? 'Reset' : null);
  return (
    <Stack gap="xs">
      {error && <ErrorNotice {...error} onClose={() => setError(null)} />}
      <Table fz="sm">
        <Table.Thead><Table.Tr><Table.Th>id</Table.Th><Table.Th>api</Table.Th><Table.Th>base URL</Table.Th><Table.Th>key</Table.Th><Table.Th><VisuallyHidden>actions</VisuallyHidden></Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {list?.map((p) => (
            <Fragment key={p.id}>
              <Table.Tr onClick={() => setForm({ id: p.id, api: p.api, baseUrl: p.baseUrl ?? '', apiKey: '' })} style={{ cursor: 'pointer' }}>
                <Table.Td ff="monospace">{p.id}</Table.Td><Table.Td>{p.api}</Table.Td><Table.Td>{p.baseUrl ?? '—'}</Table.Td>
                <Table.Td ff="monospace">{p.keyHint ?? 'no key'}{p.detected && <Badge size="xs" ml={4} variant="light">from environment</Badge>}</Table.Td>
                <Table.Td ta="right">
                  {action(p) && removing !== p.id && (
                    <Button size="compact-xs" variant="subtle" color="red" aria-label={`${action(p)} ${p.id}`} onClick={(e) => { e.stopPropagation(); setRemoving(p.id); }}>{action(p)}</Button>
                  )}
                </Table.Td>
              </Table.Tr>
              {removing === p.id && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Group gap={6} role="group" aria-label={`Confirm ${action(p) === 'Reset' ? 'resetting' : 'removing'} ${p.id}`}>
                      <Text size="xs" style={{ flex: 1 }}>
                        {action(p) === 'Reset'
                          ? `Forget the API key and base URL saved for “${p.id}” in settings/providers.json? It goes back to its defaults (its key from the environment, if set).`
                          : `Remove “${p.id}” and its saved API key from settings/providers.json? Threads that use it will get an error when they run, until it is added again.`}
                      </Text>
                      <Button size="compact-xs" variant="default" onClick={() => setRemoving(null)}>Cancel</Button>
                      <Button size="compact-xs" color="red" onClick={() => void remove(p.id)}>{action(p)} {p.id}</Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
      {list === null && <Group gap={6}><Loader size="xs" /><Text size="sm" c="dimmed">Loading providers…</Text></Group>}
      {list?.length === 0 && <Text size="sm" c="dimmed">No providers — the scripted model works offline; add a provider to use a real model.</Text>}
      <Text size="sm" fw={600}>Add or update a provider</Text>
      <Group grow align="flex-end">
        <TextInput size="xs" label="Id" placeholder="openai" value={form.id} onChange={(e) => setForm({ ...form, id: e.currentTarget.value })} />
        <Select size="xs" label="API" data={APIS} value={form.api} allowDeselect={false} onChange={(v) => setForm({ ...form, api: v ?? form.api })} />
      </Group>
      <TextInput size="xs" label="Base URL (optional)" placeholder="http://localhost:11434/v1" value={form.baseUrl} onChange={(e) => setForm({ ...form, baseUrl: e.currentTarget.value })} />
      <PasswordInput size="xs" label="API key or $ENV_VAR (left empty keeps the saved key)" value={form.apiKey} onChange={(e) => setForm({ ...form, apiKey: e.currentTarget.value })} />
      <Group justify="flex-end"><Button size="xs" disabled={!form.id.trim() || app.host.presentational} onClick={() => void save()}>Save provider</Button></Group>
    </Stack>
  );
}

function McpServers() {
  const app = useApp();
  const [list, setList] = useState<McpServerInfo[] | null>(null);
  const [tests, setTests] = useState<Record<string, { ok: boolean; message: string; stderr?: string } | 'testing'>>({});
  const [error, setError] = useState<ErrorNoticeProps | null>(null);
  /** The server whose Remove waits for confirmation. */
  const [removing, setRemoving] = useState<string | null>(null);
  const remove = async (name: string) => {
    setRemoving(null);
    try {
      setList(await app.host.call('mcp.removeServer', { name }));
    } catch (e) {
      setError(errorProps(`Could not remove ${name}`, e));
    }
  };
  useEffect(() => {
    app.host.call('mcp.servers', {}).then(setList, (e) => { setList([]); setError(errorProps('Could not list MCP servers', e)); });
  }, [app]);
  const test = async (name: string) => {
    setTests((t) => ({ ...t, [name]: 'testing' }));
    try {
      const r = await app.host.call('mcp.test', { server: name });
      setTests((t) => ({ ...t, [name]: r }));
      // The test connected (or failed to): show the server's status as it is now.
      app.host.call('mcp.servers', {}).then(setList, () => {});
    } catch (e) {
      setTests((t) => ({ ...t, [name]: { ok: false, message: (e as Error).message } }));
    }
  };
  return (
    <Stack gap="xs">
      {error && <ErrorNotice {...error} onClose={() => setError(null)} />}
      {list === null && <Group gap={6}><Loader size="xs" /><Text size="sm" c="dimmed">Loading MCP servers…</Text></Group>}
      {list?.length === 0 && <Text size="sm" c="dimmed">No MCP servers yet — add one below or import a config file.</Text>}
      {list?.map((s) => {
        const t = tests[s.name];
        return (
          <Stack key={s.name} gap={4} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }} pb={6}>
            <Group gap={6}>
              <Text ff="monospace" fw={600} size="sm">{s.name}</Text>
              <Badge size="xs" variant="outline">{s.transport}</Badge>
              <Badge size="xs" variant="light" color={s.status === 'connected' ? 'teal' : s.status === 'error' ? 'red' : 'gray'}>{s.status}</Badge>
              <div style={{ flex: 1 }} />
              <Button size="compact-xs" variant="light" loading={t === 'testing'} onClick={() => void test(s.name)} aria-label={`Test ${s.name}`}>Test</Button>
              {!app.host.presentational && removing !== s.name && (
                <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove ${s.name}`} onClick={() => setRemoving(s.name)}>Remove</Button>
              )}
            </Group>
            {removing === s.name && (
              <Group gap={6} role="group" aria-label={`Confirm removing ${s.name}`}>
                <Text size="xs" style={{ flex: 1 }}>Remove “{s.name}” from settings/mcp.json? Threads whose tools use it will get an error when they call them.</Text>
                <Button size="compact-xs" variant="default" onClick={() => setRemoving(null)}>Cancel</Button>
                <Button size="compact-xs" color="red" onClick={() => void remove(s.name)}>Remove {s.name}</Button>
              </Group>
            )}
            {s.error && <Text size="xs" c="red">{s.error}</Text>}
            {t && t !== 'testing' && (
              <>
                <Text size="xs" c={t.ok ? 'teal' : 'red'}>{t.ok ? 'OK' : 'Failed'}: {t.message}</Text>
                {t.stderr && <Code block style={{ maxHeight: 200, overflow: 'auto' }}>{t.stderr}</Code>}
              </>
            )}
          </Stack>
        );
      })}
      <McpServerForm servers={list} onSaved={setList} onError={(title, e) => setError(errorProps(title, e))} />
    </Stack>
  );
}

function AppSettings() {
  const app = useApp();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const [where, setWhere] = useState<{ home: string; workspaceDir: string } | null>(null);
  useEffect(() => {
    app.host.call('settings.app', {}).then(setWhere, () => setWhere(null));
  }, [app]);
  return (
    <Stack gap="xs">
      {where && (
        <>
          <Text size="sm" fw={600}>Workspace folder</Text>
          <Code>{where.workspaceDir}</Code>
          <Text size="xs" c="dimmed">Threads are files in this folder; runs and settings live in {where.home}. To use another folder, start Stepwise with STEPWISE_HOME set (or `stepwise serve --home DIR`).</Text>
        </>
      )}
      <Text size="sm" fw={600}>Theme</Text>
      <SegmentedControl value={colorScheme} onChange={(v) => setColorScheme(v as 'light' | 'dark' | 'auto')} aria-label="Theme"
        data={[{ value: 'auto', label: 'System' }, { value: 'light', label: 'Light' }, { value: 'dark', label: 'Dark' }]} />
      <Text size="xs" c="dimmed">System follows your operating system's light or dark setting.</Text>
    </Stack>
  );
}
