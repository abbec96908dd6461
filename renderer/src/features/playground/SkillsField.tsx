/**
 * The thread's enabled skills (`settings.skills`): picked among the skills the host found
 * (`settings.skills`), with a `skill` built-in tool added so the model can load them.
 * `{{available_skills}}` lists the enabled ones in a prompt.
 */
import { useEffect, useState } from 'react';
import { Button, Group, MultiSelect, Stack, Text } from '@mantine/core';
import type { Thread } from '../../../../shared/thread/schema';
import type { SkillInfo } from '../../../../shared/skills/skill-info';
import { useApp } from '../../state/context';
import { useSession } from '../../state/hooks';
import { DROPDOWN_WHEN_OPEN } from '../../ui/dropdown';

/** Picks the thread's skills; names enabled but not found any more stay listed, marked missing. */
export function SkillsField({ thread, readOnly }: { thread: Thread; readOnly: boolean }) {
  const app = useApp();
  const session = useSession()!;
  const [skills, setSkills] = useState<SkillInfo[] | null>(null);
  useEffect(() => {
    let live = true;
    app.host.call('settings.skills', {}).then((s) => live && setSkills(s), () => live && setSkills([]));
    return () => { live = false; };
  }, [app]);
  const enabled = thread.settings?.skills ?? [];
  const usable = (skills ?? []).filter((s) => !s.problem);
  const data = [
    ...usable.map((s) => ({ value: s.name, label: `${s.name} — ${s.location}` })),
    ...enabled.filter((n) => !usable.some((s) => s.name === n)).map((n) => ({ value: n, label: `${n} (not found)` })),
  ];
  const hasTool = thread.context.tools.some((t) => t.type === 'builtin' && t.name === 'skill');
  return (
    <Stack gap={2}>
      <MultiSelect comboboxProps={DROPDOWN_WHEN_OPEN} size="xs" label="Skills" aria-label="Skills" placeholder={skills === null ? 'Looking for skills…' : usable.length ? 'Enable skills' : 'No skills found'}
        description="Folders with a SKILL.md in <home>/skills, ~/.claude/skills, ~/.agents/skills or ~/.codex/skills. {{available_skills}} lists the enabled ones."
        data={data} value={enabled} disabled={readOnly} searchable clearable
        onChange={(v) => session.edit((d) => {
          d.settings ??= {};
          if (v.length) d.settings.skills = v;
          else delete d.settings.skills;
        })} />
      {enabled.length > 0 && !hasTool && !readOnly && (
        <Group gap={6}>
          <Text size="xs" c="dimmed">The model loads a skill with the skill tool.</Text>
          <Button size="compact-xs" variant="light" onClick={() => session.edit((d) => void d.context.tools.push({ type: 'builtin', name: 'skill', description: 'Load one of the available skills: its instructions and files.', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }))}>
            Add skill tool
          </Button>
        </Group>
      )}
      {(skills ?? []).filter((s) => s.problem).map((s) => (
        <Text key={s.location} size="xs" c="orange">{s.location}: {s.problem}</Text>
      ))}
    </Stack>
  );
}
