/**
 * Model picker (provider profile + model id, with the ids the provider lists), parameters
 * (ModelControls.tsx for the ones beyond temperature and max tokens), the scripted model's
 * script, and the replay model's run.
 */
import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Alert, Autocomplete, Button, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import type { Thread } from '../../../../shared/thread/schema';
import type { ProviderInfo } from '../../../../shared/protocol/host-api';
import { useApp } from '../../state/context';
import { useSession } from '../../state/hooks';
import { JsonField } from './JsonField';
import { ModelControls } from './ModelControls';
import { shortRunId } from '../runs/compare';
import { DROPDOWN_WHEN_OPEN } from '../../ui/dropdown';

const BUILTINS = ['scripted', 'openai', 'anthropic', 'replay'];

/**
 * The Provider picker's options: the built-ins, the configured providers and the thread's own.
 * The thread's provider, when it is none of those (removed in Settings, or a typo), is marked
 * "(not configured)". `configured` is null while the list is not known: nothing is marked.
 * A connection profile with a name is labelled "name (id)" (`names`: id → name).
 */
export function providerOptions(
  configured: readonly string[] | null,
  current: string,
  names: Readonly<Record<string, string>> = {},
): { options: { value: string; label: string }[]; missing: boolean } {
  const known = [...new Set([...BUILTINS, ...(configured ?? [])])];
  const missing = configured !== null && !known.includes(current);
  const options = known.map((id) => ({ value: id, label: names[id] && names[id] !== id ? `${names[id]} (${id})` : id }));
  if (!known.includes(current)) options.push({ value: current, label: missing ? `${current} (not configured)` : current });
  return { options, missing };
}

/**
 * A hosted provider with no key to send: none saved, and the environment variable it names is not
 * set (`detected` says it is; a saved `$VAR` is taken as set). Local and keyless APIs never need one.
 */
export function needsKey(p: Pick<ProviderInfo, 'api' | 'keyHint' | 'detected' | 'saved' | 'baseUrl' | 'builtin'>): boolean {
  if (p.api === 'scripted' || p.api === 'replay') return false;
  if (p.baseUrl && /^https?:\/\/(localhost|127\.|\[::1\])/i.test(p.baseUrl)) return false;
  if (!p.keyHint) return true;
  return p.keyHint.startsWith('$') && !p.detected && !p.saved;
}

/** Model and parameter controls of the open thread. */
export function ModelSection({ thread, readOnly }: { thread: Thread; readOnly: boolean }) {
  const app = useApp();
  const session = useSession()!;
  /** Configured providers; null until known (a read-only viewer never knows them). */
  const [providers, setProviders] = useState<ProviderInfo[] | null>(null);
  // Read again each time Settings closes, so a provider just added is offered at once.
  const settingsOpen = useAtomValue(app.settingsOpenAtom);
  useEffect(() => {
    if (settingsOpen) return;
    if (app.host.presentational) return;
    app.host.call('settings.providers', {}).then((r) => setProviders(Array.isArray(r) ? r : []), () => setProviders(null));
  }, [app, settingsOpen]);
  const runs = useAtomValue(app.runRefsAtom);
  const m = thread.model;
  const names = Object.fromEntries((providers ?? []).filter((p) => p.name).map((p) => [p.id, p.name!]));
  const { options, missing } = providerOptions(providers?.map((p) => p.id) ?? null, m.provider, names);
  const info = providers?.find((p) => p.id === m.provider);
  const api = info?.api;
  const models = useProviderModels(m.provider, api);
  return (
    <Stack gap={6}>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Select comboboxProps={DROPDOWN_WHEN_OPEN} label="Provider" size="xs" w={missing ? 230 : 150} data={options} value={m.provider} error={missing || undefined} disabled={readOnly} allowDeselect={false} searchable
          onChange={(v) => v && session.edit((d) => void (d.model.provider = v))} />
        <Autocomplete comboboxProps={DROPDOWN_WHEN_OPEN} label="Model id" size="xs" w={220} value={m.id} disabled={readOnly} placeholder="e.g. gpt-4.1-mini" data={models.ids} limit={200}
          description={models.problem} onDropdownOpen={models.load}
          onChange={(v) => session.edit((d) => void (d.model.id = v), 'model.id')} />
        <NumberInput label="Temperature" size="xs" w={110} min={0} max={2} step={0.1} decimalScale={2} value={m.params.temperature ?? ''} disabled={readOnly}
          onChange={(v) => session.edit((d) => { if (typeof v === 'number') d.model.params.temperature = v; else delete d.model.params.temperature; }, 'model.temperature')} />
        <NumberInput label="Max tokens" size="xs" w={120} min={1} step={256} allowDecimal={false} value={m.params.maxTokens ?? ''} disabled={readOnly}
          onChange={(v) => session.edit((d) => { if (typeof v === 'number' && v >= 1) d.model.params.maxTokens = v; else delete d.model.params.maxTokens; }, 'model.maxTokens')} />
      </Group>
      <ModelControls thread={thread} readOnly={readOnly} api={api} />
      {missing && (
        <Alert color="yellow" variant="light" p={6} role="status" aria-label="Provider not configured">
          <Text size="xs">Provider “{m.provider}” is not configured, so runs of this thread will fail. Add it in Settings → Providers, or pick another provider.</Text>
        </Alert>
      )}
      {info && needsKey(info) && (
        <Alert color="yellow" variant="light" p={6} role="status" aria-label="API key missing">
          <Group gap="xs" wrap="nowrap" justify="space-between">
            <Text size="xs">No API key for “{info.name ?? info.id}”: runs of this thread will fail until you add one in Settings → Providers{info.keyHint?.startsWith('$') ? ` (or start Stepwise with ${info.keyHint.slice(1)} set)` : ''}.</Text>
            <Button size="compact-xs" variant="light" onClick={() => app.store.set(app.settingsOpenAtom, true)} style={{ flexShrink: 0 }}>Add a key</Button>
          </Group>
        </Alert>
      )}
      {m.provider === 'replay' && (
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select comboboxProps={DROPDOWN_WHEN_OPEN} label="Replay run" size="xs" w={320} disabled={readOnly} allowDeselect={false} placeholder={runs.length ? 'Pick a run of this thread' : 'No runs yet'}
            data={runs.map((r) => ({ value: r.id, label: `${r.mode} · ${shortRunId(r.id)} · ${new Date(r.startedAt).toLocaleString()}${r.preview ? ` · ${r.preview.slice(0, 40)}` : ''}` }))}
            value={m.replay?.runId ?? null}
            onChange={(v) => v && session.edit((d) => void (d.model.replay = { runId: v }))} />
          <Text size="xs" c="dimmed" maw={320}>Plays the run back exactly, offline: its model calls in order and its tools' recorded results; no provider or tool is contacted.</Text>
        </Group>
      )}
      {m.provider === 'scripted' && (
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            Script — responses the offline model streams, in order (optional “when” regex on the last message).
          </Text>
          <JsonField label="Scripted model script" value={m.script ?? []} readOnly={readOnly} maxHeight={240} invalidKey="model.script"
            validate={(v) => (Array.isArray(v) ? null : 'The script must be a JSON array of responses: [{ "text": "…" }, …]')}
            onValue={(v) => Array.isArray(v) && session.edit((d) => void (d.model.script = v as NonNullable<Thread['model']['script']>), 'model.script')} />
        </Stack>
      )}
    </Stack>
  );
}

/**
 * The model ids provider `provider` lists (`settings.providerModels`), read the first time the
 * Model id list opens; `problem` says why there are none when the provider could not list them.
 */
function useProviderModels(provider: string, api: string | undefined): { ids: string[]; problem?: string; load: () => void } {
  const app = useApp();
  const [state, setState] = useState<{ provider: string; ids: string[]; problem?: string } | null>(null);
  const current = state?.provider === provider ? state : null;
  const load = () => {
    if (current || !api || api === 'scripted' || api === 'replay' || app.host.presentational) return;
    setState({ provider, ids: [] });
    app.host.call('settings.providerModels', { id: provider }).then(
      (ids) => setState({ provider, ids }),
      (e: Error) => setState({ provider, ids: [], problem: `No model list: ${e.message}` }),
    );
  };
  return { ids: current?.ids ?? [], problem: current?.problem, load };
}
