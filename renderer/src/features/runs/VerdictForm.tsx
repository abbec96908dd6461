/**
 * Verdict and rubric of two compared runs (LLM Space's manual evaluation): A better, B better,
 * tie, pass or fail; a note; 2–6 criteria scored 1–5 per run with the B−A delta. Saved into the
 * open thread's `evaluations` as a thread edit (undoable, synced like any edit).
 */
import { useState } from 'react';
import { ActionIcon, Alert, Button, Group, List, SegmentedControl, Select, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import type { Verdict } from '../../../../shared/thread/evaluation';
import { useAtomValue } from 'jotai';
import type { ThreadSession } from '../../state/thread-session';
import { draftOf, emptyEvaluationDraft, findEvaluation, MAX_CRITERIA, readEvaluation, scoreDelta, upsertEvaluation, type CriterionDraft, type EvaluationDraft } from './evaluation-form';

const VERDICTS: { value: Verdict; label: string }[] = [
  { value: 'a', label: 'A better' },
  { value: 'b', label: 'B better' },
  { value: 'tie', label: 'Tie' },
  { value: 'pass', label: 'Pass' },
  { value: 'fail', label: 'Fail' },
];
const SCORES = ['1', '2', '3', '4', '5'];

/** The form for runs `runA` and `runB` of the thread open in `session`. */
export function VerdictForm({ session, runA, runB }: { session: ThreadSession; runA: string; runB: string }) {
  const thread = useAtomValue(session.threadAtom);
  const prev = findEvaluation(thread?.evaluations, runA, runB);
  const [draft, setDraft] = useState<EvaluationDraft>(() => (prev ? draftOf(prev) : emptyEvaluationDraft()));
  const [errors, setErrors] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  const set = (d: EvaluationDraft) => {
    setDraft(d);
    setSaved(false);
  };
  const setCriterion = (i: number, patch: Partial<CriterionDraft>) => set({ ...draft, criteria: draft.criteria.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  const save = () => {
    const r = readEvaluation(draft, runA, runB, { prev, now: Date.now(), newId: () => crypto.randomUUID() });
    if (!r.ok) return setErrors(r.errors);
    const ok = session.edit((t) => {
      t.evaluations = upsertEvaluation(t.evaluations as never, r.evaluation) as never;
    });
    setErrors(ok || prev ? [] : ['The thread is read-only: the evaluation was not saved.']);
    setSaved(ok);
  };
  const score = (v: number | undefined, onChange: (n: number | undefined) => void, name: string) => (
    <Select size="xs" w={70} aria-label={name} clearable placeholder="–" data={SCORES} value={v === undefined ? null : String(v)} onChange={(x) => onChange(x ? Number(x) : undefined)} />
  );
  return (
    <Stack gap={6} aria-label="Evaluation of the two runs" role="group" className="sw-sticky-footer">
      {/* One row, kept in view at the foot of the dialog (docs/ui.md#dialogs): verdict, note, Save. */}
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Text fw={600} size="sm" pt={4}>Evaluation</Text>
        <SegmentedControl size="xs" aria-label="Verdict" value={draft.verdict ?? ''} onChange={(v) => set({ ...draft, verdict: v as Verdict })} data={VERDICTS} />
        <Textarea size="xs" aria-label="Note" placeholder="Note (optional)" autosize minRows={1} maxRows={4} style={{ flex: 1 }} value={draft.note} onChange={(e) => set({ ...draft, note: e.currentTarget.value })} />
        <Button size="xs" variant="subtle" disabled={draft.criteria.length >= MAX_CRITERIA} onClick={() => set({ ...draft, criteria: [...draft.criteria, { name: '' }] })}>Add criterion</Button>
        <Button size="xs" onClick={save}>Save evaluation</Button>
      </Group>
      {draft.criteria.length > 0 && (
        <Table fz="xs" aria-label="Rubric">
          <Table.Thead>
            <Table.Tr><Table.Th>Criterion</Table.Th><Table.Th>A</Table.Th><Table.Th>B</Table.Th><Table.Th>B−A</Table.Th><Table.Th /></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {draft.criteria.map((c, i) => {
              const delta = scoreDelta(c);
              return (
                <Table.Tr key={i}>
                  <Table.Td><TextInput size="xs" aria-label={`Criterion ${i + 1}`} value={c.name} onChange={(e) => setCriterion(i, { name: e.currentTarget.value })} /></Table.Td>
                  <Table.Td>{score(c.scoreA, (n) => setCriterion(i, { scoreA: n }), `Score of run A on criterion ${i + 1}`)}</Table.Td>
                  <Table.Td>{score(c.scoreB, (n) => setCriterion(i, { scoreB: n }), `Score of run B on criterion ${i + 1}`)}</Table.Td>
                  <Table.Td aria-label={`B−A on criterion ${i + 1}`}>
                    <Text size="xs" c={delta === undefined || delta === 0 ? 'dimmed' : delta > 0 ? 'green' : 'red'}>{delta === undefined ? '—' : delta > 0 ? `+${delta}` : String(delta)}</Text>
                  </Table.Td>
                  <Table.Td><ActionIcon size="sm" variant="subtle" color="red" aria-label={`Remove criterion ${i + 1}`} onClick={() => set({ ...draft, criteria: draft.criteria.filter((_, j) => j !== i) })}>×</ActionIcon></Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {errors.length > 0 && (
        <Alert color="red" role="alert" title="The evaluation was not saved"><List size="xs">{errors.map((e, i) => <List.Item key={i}>{e}</List.Item>)}</List></Alert>
      )}
      {saved && <Text size="xs" c="green" role="status">Saved with the thread.</Text>}
    </Stack>
  );
}
