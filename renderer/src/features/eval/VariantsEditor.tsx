/** The variants of a batch as rows of text fields (read by variant-draft.ts). */
import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { emptyDraft, type VariantDraft } from './variant-draft';

export function VariantsEditor({ drafts, scenarios, onChange }: { drafts: VariantDraft[]; scenarios: string[]; onChange(d: VariantDraft[]): void }) {
  const set = (i: number, patch: Partial<VariantDraft>) => onChange(drafts.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  const listId = 'eval-variant-scenarios';
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">Variants</Text>
      <Text size="xs" c="dimmed">Each case runs once per variant. Empty fields keep the thread’s own model, scenario and parameters.</Text>
      <datalist id={listId}>{scenarios.map((s) => <option key={s} value={s} />)}</datalist>
      {drafts.map((d, i) => (
        <Group key={i} gap="xs" wrap="nowrap" align="flex-end" aria-label={`variant ${i + 1}`} role="group">
          <TextInput size="xs" w={140} label={i === 0 ? 'Name' : undefined} aria-label={`Name of variant ${i + 1}`} value={d.name} onChange={(e) => set(i, { name: e.currentTarget.value })} />
          <TextInput size="xs" w={200} label={i === 0 ? 'Model (provider/id)' : undefined} aria-label={`Model of variant ${i + 1}`} placeholder="the thread's" value={d.model} onChange={(e) => set(i, { model: e.currentTarget.value })} />
          <TextInput size="xs" w={160} label={i === 0 ? 'Scenario' : undefined} aria-label={`Scenario of variant ${i + 1}`} placeholder="the thread's" list={listId} value={d.scenario} onChange={(e) => set(i, { scenario: e.currentTarget.value })} />
          <TextInput size="xs" style={{ flex: 1 }} ff="monospace" label={i === 0 ? 'Params (JSON)' : undefined} aria-label={`Params of variant ${i + 1}`} placeholder='{"temperature": 0}' value={d.params} onChange={(e) => set(i, { params: e.currentTarget.value })} />
          <ActionIcon variant="subtle" color="red" aria-label={`Remove variant ${i + 1}`} disabled={drafts.length === 1} onClick={() => onChange(drafts.filter((_, j) => j !== i))}>×</ActionIcon>
        </Group>
      ))}
      <Group><Button size="xs" variant="light" onClick={() => onChange([...drafts, emptyDraft(`variant ${drafts.length + 1}`)])}>Add variant</Button></Group>
    </Stack>
  );
}
