/**
 * Answers ask_user_question while its tool node waits in `awaiting_input`: one field per
 * question (a choice among its options, or free text), sent with `run.input` as
 * `{ kind: 'answers', answers: { <question id>: text } }`, as the elicitation form sends its answer.
 */
import { useState } from 'react';
import { Button, Group, Paper, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useRunInput } from './use-run-input';
import type { Question } from '../../../../shared/tools/builtin-results';

/** The form; every question needs an answer before Send answers. */
export function QuestionForm({ runId, nodeId, questions }: { runId: string; nodeId: string; questions: Question[] }) {
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const { sent, answer } = useRunInput(runId, nodeId);
  const missing = questions.filter((q) => !answers[q.id]?.trim()).length;
  const set = (id: string, v: string) => setAnswers((old) => ({ ...old, [id]: v }));
  return (
    <Paper withBorder p={6} mt={4} onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()} aria-label="Questions from the agent">
      <Text size="xs" fw={600} mb={4}>The agent asks:</Text>
      <Stack gap={6}>
        {questions.map((q) =>
          q.options?.length ? (
            <Radio.Group key={q.id} label={q.question} size="xs" value={answers[q.id] ?? null} onChange={(v) => set(q.id, v)}>
              <Stack gap={2} mt={2}>{q.options.map((o) => <Radio key={o} value={o} label={o} size="xs" />)}</Stack>
            </Radio.Group>
          ) : (
            <TextInput key={q.id} label={q.question} size="xs" value={answers[q.id] ?? ''} onChange={(e) => set(q.id, e.currentTarget.value)} />
          ),
        )}
      </Stack>
      <Group gap={6} mt={6}>
        <Button size="compact-xs" disabled={sent || missing > 0} onClick={() => void answer({ kind: 'answers', answers })}>Send answers</Button>
        {missing > 0 && !sent && <Text size="xs" c="dimmed">{missing} question{missing === 1 ? '' : 's'} left</Text>}
        {sent && <Text size="xs" c="dimmed">Sent.</Text>}
      </Group>
    </Paper>
  );
}
