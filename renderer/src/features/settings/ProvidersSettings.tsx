/**
 * Settings → Providers: the providers, each a connection profile with an optional name
 * (masked keys), a connection test per provider, add one from a preset (shared/protocol/provider-presets.ts)
 * or by hand, update one, remove the ones added here, reset a built-in one. A settings/providers.json that cannot be read is shown above the
 * table with its line and column; the built-ins are still listed.
 */
import { Fragment, useCallback, useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, Loader, PasswordInput, Select, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import type { ProviderInfo } from '../../../../shared/protocol/host-api';
import { PROVIDER_PRESETS, presetById, presetKeyRef, profileId } from '../../../../shared/protocol/provider-presets';
import { useApp } from '../../state/context';
import { ErrorNotice, errorProps, type ErrorNoticeProps } from '../../ui/ErrorNotice';
import { ConfirmRow } from '../../ui/ConfirmRow';

/** The wire APIs a provider entry may name (main/core/settings/providers.ts PROVIDER_APIS). */
const APIS = [
  { value: 'openai-completions', label: 'OpenAI Chat Completions (and compatible servers)' },
  { value: 'openai-responses', label: 'OpenAI Responses' },
  { value: 'anthropic-messages', label: 'Anthropic Messages' },
];

const EMPTY_PROVIDER_FORM = { preset: '', name: '', id: '', api: 'openai-completions', baseUrl: '', apiKey: '' };
type ProviderForm = typeof EMPTY_PROVIDER_FORM;

/**
 * The form after picking preset `presetId` (or typing a name with one picked): its API, base URL
 * and key variable, the name (the vendor's by default) and a free id for the new profile.
 */
export function formForPreset(form: ProviderForm, presetId: string, name: string, taken: readonly string[]): ProviderForm {
  const preset = presetById(presetId);
  if (!preset) return { ...form, preset: '', name };
  const shownName = name || preset.name;
  return { preset: preset.id, name, id: profileId(preset, shownName, taken), api: preset.api, baseUrl: preset.baseUrl ?? '', apiKey: presetKeyRef(preset) ?? '' };
}

/** What the Reset / Remove confirmation of provider `id` says. */
export function confirmText(action: 'Remove' | 'Reset', id: string): string {
  return action === 'Reset'
    ? `Forget the API key, base URL and API choice saved for “${id}” in settings/providers.json? It goes back to its defaults (its key from the environment, if set).`
    : `Remove “${id}” and its saved API key from settings/providers.json? Threads that use it will get an error when they run, until it is added again.`;
}

/** The form's API when its Id is `id`: an existing provider's API, else `current`. */
export function apiForId(list: ProviderInfo[] | null, id: string, current: string): string {
  const known = list?.find((p) => p.id === id.trim());
  return known && APIS.some((a) => a.value === known.api) ? known.api : current;
}

/** The id of a new profile of a preset follows its name; an existing provider's id stays. */
export function renamedId(form: ProviderForm, name: string, taken: readonly string[]): string {
  const preset = presetById(form.preset);
  return preset && !taken.includes(form.id) ? profileId(preset, name || preset.name, taken) : form.id;
}

/** The Providers tab of Settings. */
export function ProvidersSettings() {
  const app = useApp();
  const [list, setList] = useState<ProviderInfo[] | null>(null);
  const [error, setError] = useState<ErrorNoticeProps | null>(null);
  /** Why settings/providers.json cannot be read (line and column), when it cannot. */
  const [fileError, setFileError] = useState<string | null>(null);
  const [form, setForm] = useState(EMPTY_PROVIDER_FORM);
  /** The provider whose Remove waits for confirmation. */
  const [removing, setRemoving] = useState<string | null>(null);
  /** The last connection test: running (no result yet) or its answer. */
  const [test, setTest] = useState<{ id: string; ok?: boolean; message?: string } | null>(null);
  const ids = list?.map((p) => p.id) ?? [];
  const runTest = async (id: string) => {
    setTest({ id });
    try {
      setTest({ id, ...(await app.host.call('settings.testProvider', { id })) });
    } catch (e) {
      setTest({ id, ok: false, message: (e as Error).message });
    }
  };
  const checkFile = useCallback(() => {
    app.host.call('settings.providersFile', {}).then((s) => setFileError(s.error ?? null), () => setFileError(null));
  }, [app]);
  useEffect(() => {
    app.host.call('settings.providers', {}).then(setList, (e) => { setList([]); setError(errorProps('Could not load providers', e)); });
    checkFile();
  }, [app, checkFile]);
  const save = async () => {
    try {
      setList(await app.host.call('settings.saveProvider', {
        id: form.id.trim(),
        api: form.api,
        baseUrl: form.baseUrl.trim() || undefined,
        apiKey: form.apiKey || undefined,
        ...(form.name.trim() || form.preset ? { name: form.name.trim() || presetById(form.preset)?.name } : {}),
        ...(form.preset ? { preset: form.preset } : {}),
      }));
      setForm(EMPTY_PROVIDER_FORM);
      setError(null);
    } catch (e) {
      // A broken providers.json: its message already says what to do.
      const broken = /providers\.json/.test(String((e as Error).message));
      setError(errorProps(`Could not save provider ${form.id}`, e, broken ? undefined : 'Check the id (letters, digits, dashes) and the base URL.'));
    }
    checkFile();
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
    checkFile();
  };
  /** Added providers are removed; a built-in one with a saved key or URL is reset to its defaults. */
  const action = (p: ProviderInfo): 'Remove' | 'Reset' | null => (app.host.presentational ? null : !p.builtin ? 'Remove' : p.saved ? 'Reset' : null);
  return (
    <Stack gap="xs">
      {fileError && (
        <ErrorNotice title="settings/providers.json cannot be read" message={fileError}
          hint="Fix the file at the line and column named (or delete it), then open Settings again. Until then only the built-in providers are listed, saving is refused, and runs on providers from the file fail; scripted and replay still run." />
      )}
      {error && <ErrorNotice {...error} onClose={() => setError(null)} />}
      <Table fz="sm">
        <Table.Thead><Table.Tr><Table.Th>id</Table.Th><Table.Th>name</Table.Th><Table.Th>api</Table.Th><Table.Th>base URL</Table.Th><Table.Th>key</Table.Th><Table.Th><VisuallyHidden>actions</VisuallyHidden></Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {list?.map((p) => {
            const act = action(p);
            return (
              <Fragment key={p.id}>
                <Table.Tr onClick={() => setForm({ preset: p.preset ?? '', name: p.name ?? '', id: p.id, api: apiForId(list, p.id, form.api), baseUrl: p.baseUrl ?? '', apiKey: '' })} style={{ cursor: 'pointer' }}>
                  <Table.Td ff="monospace">{p.id}</Table.Td><Table.Td>{p.name ?? '—'}</Table.Td><Table.Td>{p.api}</Table.Td><Table.Td>{p.baseUrl ?? '—'}</Table.Td>
                  <Table.Td ff="monospace">{p.keyHint ?? 'no key'}{p.detected && <Badge size="xs" ml={4} variant="light">from environment</Badge>}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {!app.host.presentational && (
                      <Button size="compact-xs" variant="subtle" aria-label={`Test ${p.id}`} loading={test?.id === p.id && test.ok === undefined}
                        onClick={(e) => { e.stopPropagation(); void runTest(p.id); }}>Test</Button>
                    )}
                    {act && removing !== p.id && (
                      <Button size="compact-xs" variant="subtle" color="red" aria-label={`${act} ${p.id}`} onClick={(e) => { e.stopPropagation(); setRemoving(p.id); }}>{act}</Button>
                    )}
                  </Table.Td>
                </Table.Tr>
                {act && removing === p.id && (
                  <Table.Tr>
                    <Table.Td colSpan={6}>
                      <ConfirmRow label={`Confirm ${act === 'Reset' ? 'resetting' : 'removing'} ${p.id}`} action={`${act} ${p.id}`} onConfirm={() => void remove(p.id)} onCancel={() => setRemoving(null)}>
                        {confirmText(act, p.id)}
                      </ConfirmRow>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
      {test?.ok !== undefined && (
        <Alert color={test.ok ? 'green' : 'red'} variant="light" p={6} role="status" aria-label={`Test of ${test.id}`} withCloseButton onClose={() => setTest(null)}>
          <Text size="xs">{test.ok ? 'OK: ' : 'Failed: '}{test.message}</Text>
        </Alert>
      )}
      {list === null && <Group gap={6}><Loader size="xs" /><Text size="sm" c="dimmed">Loading providers…</Text></Group>}
      {list?.length === 0 && !fileError && <Text size="sm" c="dimmed">No providers — the scripted model works offline; add a provider to use a real model.</Text>}
      <Text size="sm" fw={600}>Add or update a provider</Text>
      <Group grow align="flex-end">
        <Select size="xs" label="Preset" placeholder="none (fill in below)" clearable value={form.preset || null}
          data={PROVIDER_PRESETS.map((p) => ({ value: p.id, label: p.name }))}
          onChange={(v) => setForm((f) => (v ? formForPreset(f, v, f.name, ids) : { ...f, preset: '' }))} />
        <TextInput size="xs" label="Name" placeholder="e.g. OpenAI work" value={form.name}
          onChange={(e) => { const name = e.currentTarget.value; setForm((f) => ({ ...f, name, id: renamedId(f, name, ids) })); }} />
      </Group>
      <Group grow align="flex-end">
        <TextInput size="xs" label="Id" placeholder="openai" value={form.id}
          onChange={(e) => { const id = e.currentTarget.value; setForm((f) => ({ ...f, id, api: apiForId(list, id, f.api) })); }} />
        <Select size="xs" label="API" data={APIS} value={form.api} allowDeselect={false} onChange={(v) => setForm({ ...form, api: v ?? form.api })} />
      </Group>
      <TextInput size="xs" label="Base URL (optional)" placeholder="http://localhost:11434/v1" value={form.baseUrl} onChange={(e) => setForm({ ...form, baseUrl: e.currentTarget.value })} />
      <PasswordInput size="xs" label="API key or $ENV_VAR (left empty keeps the saved key)" value={form.apiKey} onChange={(e) => setForm({ ...form, apiKey: e.currentTarget.value })} />
      <Group justify="flex-end"><Button size="xs" disabled={!form.id.trim() || app.host.presentational} onClick={() => void save()}>Save provider</Button></Group>
    </Stack>
  );
}
