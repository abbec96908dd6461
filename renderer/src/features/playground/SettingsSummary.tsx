/**
 * The thread settings folded into one line, under the name "Thread setup" (a button named
 * "…settings" would be a second Settings next to the header's) (docs/ui.md#after-run): what the model is, which
 * tools it has and how the system prompt starts, and a button that opens the whole form again.
 */
import { Group, Text, UnstyledButton } from '@mantine/core';
import type { Thread } from '../../../../shared/thread/schema';

/** The summary's words: "scripted · scripted · 2 tools · “You are a careful…”". */
export function settingsSummary(thread: Thread): string {
  const m = thread.model;
  const tools = thread.context.tools.length;
  const prompt = thread.context.systemPrompt.trim().split('\n')[0] ?? '';
  return [
    m.id && m.id !== m.provider ? `${m.provider} · ${m.id}` : m.provider,
    tools === 0 ? 'no tools' : tools === 1 ? '1 tool' : `${tools} tools`,
    prompt ? `“${prompt.length > 60 ? `${prompt.slice(0, 60)}…` : prompt}”` : 'no system prompt',
  ].join(' · ');
}

/** The toggle: `folded` shows the summary, open shows "Fold settings". `controls`: the id of the settings' region. */
export function SettingsSummary({ thread, folded, onToggle, controls }: { thread: Thread; folded: boolean; onToggle: () => void; controls: string }) {
  return (
    <UnstyledButton onClick={onToggle} aria-expanded={!folded} aria-controls={controls} className="sw-settings-toggle">
      <Group gap={6} wrap="nowrap">
        <Text size="xs" fw={600} span aria-hidden style={{ width: 10 }}>{folded ? '▸' : '▾'}</Text>
        <Text size="xs" fw={600} span style={{ flexShrink: 0 }}>Thread setup</Text>
        <Text size="xs" c="dimmed" span truncate style={{ minWidth: 0 }}>{folded ? settingsSummary(thread) : 'model, tools, system prompt, variables — fold them away'}</Text>
      </Group>
    </UnstyledButton>
  );
}
