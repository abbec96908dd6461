/**
 * The model controls beyond temperature and max tokens (issue 17 item 12): reasoning effort,
 * thinking (Anthropic), response format with a JSON Schema editor, tool choice, parallel tool
 * calls, stop sequences, seed and top-p. What the provider's API takes comes from
 * shared/thread/model-controls.ts: a control it lacks is disabled with the reason, and a value
 * set but not sent (kept from another provider) is listed.
 */
import { useState } from 'react';
import { Alert, Button, Checkbox, Collapse, Group, NumberInput, Select, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import type { ModelParams, ToolChoice } from '../../../../shared/thread/model-config';
import type { Thread } from '../../../../shared/thread/schema';
import { chatResponseFormat, controlsOf, flatResponseFormat, unsentControls, type FlatResponseFormat, type ModelControl } from '../../../../shared/thread/model-controls';
import { useSession } from '../../state/hooks';
import { JsonField } from './JsonField';
import { DROPDOWN_WHEN_OPEN } from '../../ui/dropdown';

const DEFAULT = 'default';
const API_NAMES: Record<string, string> = { 'openai-completions': 'Chat Completions', 'openai-responses': 'OpenAI Responses', 'anthropic-messages': 'Anthropic Messages' };
const NEW_SCHEMA: FlatResponseFormat = { type: 'json_schema', name: 'response', schema: { type: 'object', properties: {}, required: [], additionalProperties: false }, strict: true };

/** The Tool choice picker's value of a tool choice (`tool:<name>` for one tool). */
export function toolChoiceValue(c: ToolChoice | undefined): string {
  if (c === undefined) return DEFAULT;
  return typeof c === 'string' ? c : `tool:${c.name}`;
}

/** The tool choice of a picker value; undefined for the default. */
export function toolChoiceOf(v: string): ToolChoice | undefined {
  if (v === DEFAULT) return undefined;
  if (v.startsWith('tool:')) return { type: 'function', name: v.slice(5) };
  return v as ToolChoice;
}

/** True when `p` sets any control of this panel (it then opens by itself). */
export function hasAdvanced(p: ModelParams): boolean {
  return !!(p.reasoning || p.responseFormat !== undefined || p.toolChoice !== undefined || p.parallelToolCalls !== undefined || p.stopSequences?.length || p.seed !== undefined || p.topP !== undefined);
}

/** Model controls of the open thread for a provider speaking `api` (undefined: not known). */
export function ModelControls({ thread, readOnly, api }: { thread: Thread; readOnly: boolean; api: string | undefined }) {
  const session = useSession()!;
  const p = thread.model.params;
  const [open, setOpen] = useState(() => hasAdvanced(p));
  const controls = controlsOf(api);
  if (!controls) return null;
  const why = (c: ModelControl): string | undefined => controls.missing[c];
  const gate = (c: ModelControl) => ({ disabled: readOnly || !!why(c), title: why(c) });
  const edit = (fn: (params: ModelParams) => void, key?: string) => session.edit((d) => fn(d.model.params), key);
  const setReasoning = (patch: Partial<NonNullable<ModelParams['reasoning']>>) =>
    edit((params) => {
      const r: Record<string, unknown> = { ...(params.reasoning ?? {}), ...patch };
      for (const k of Object.keys(r)) if (r[k] === undefined || r[k] === false) delete r[k];
      if (Object.keys(r).length) params.reasoning = r as ModelParams['reasoning'];
      else delete params.reasoning;
    }, 'model.reasoning');
  const rf = flatResponseFormat(p.responseFormat);
  const setFormat = (f: FlatResponseFormat | undefined) =>
    edit((params) => {
      if (f) params.responseFormat = chatResponseFormat(f);
      else delete params.responseFormat;
    }, 'model.responseFormat');
  const thinking = p.reasoning?.adaptive ? 'adaptive' : p.reasoning?.budgetTokens ? 'budget' : 'off';
  const tools = thread.context.tools.map((t) => ({ value: `tool:${t.name}`, label: `tool: ${t.name}` }));
  const chosen = toolChoiceValue(p.toolChoice);
  // A named tool the thread no longer has stays visible, marked, rather than showing nothing.
  if (chosen.startsWith('tool:') && !tools.some((t) => t.value === chosen)) tools.push({ value: chosen, label: `${chosen.replace(':', ': ')} (not a tool of this thread)` });
  const unsent = unsentControls(api, p);
  const lacking = Object.values(controls.missing);
  return (
    <Stack gap={4}>
      <Group gap={6}>
        <Button size="compact-xs" variant="subtle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>{open ? 'Fewer parameters' : 'More parameters'}</Button>
        {!open && hasAdvanced(p) && <Text size="xs" c="dimmed">(some set)</Text>}
      </Group>
      {unsent.length > 0 && (
        <Alert color="yellow" variant="light" p={6} role="status" aria-label="Parameters not sent">
          <Text size="xs">Set but not sent to {API_NAMES[api!] ?? api}: {unsent.map((u) => u.why).join(' ')}</Text>
        </Alert>
      )}
      <Collapse expanded={open}>
        <Stack gap={6}>
          <Group gap="xs" align="flex-end" wrap="wrap">
            <NumberInput label="Top P" size="xs" w={90} min={0} max={1} step={0.05} decimalScale={3} value={p.topP ?? ''} {...gate('topP')}
              onChange={(v) => edit((params) => { if (typeof v === 'number' && v >= 0 && v <= 1) params.topP = v; else delete params.topP; }, 'model.topP')} />
            <NumberInput label="Seed" size="xs" w={110} step={1} allowDecimal={false} value={p.seed ?? ''} {...gate('seed')}
              onChange={(v) => edit((params) => { if (typeof v === 'number' && Number.isSafeInteger(v)) params.seed = v; else delete params.seed; }, 'model.seed')} />
            <TagsInput comboboxProps={DROPDOWN_WHEN_OPEN} label="Stop sequences" size="xs" w={260} placeholder="type, then Enter" value={p.stopSequences ?? []} {...gate('stopSequences')}
              onChange={(v) => edit((params) => { const s = v.filter(Boolean); if (s.length) params.stopSequences = s; else delete params.stopSequences; })} />
          </Group>
          <Group gap="xs" align="flex-end" wrap="wrap">
            <Select comboboxProps={DROPDOWN_WHEN_OPEN} label="Reasoning effort" size="xs" w={140} allowDeselect={false} value={p.reasoning?.effort ?? DEFAULT} disabled={readOnly}
              data={[DEFAULT, ...controls.efforts]} onChange={(v) => v && setReasoning({ effort: v === DEFAULT ? undefined : (v as NonNullable<ModelParams['reasoning']>['effort']) })} />
            <Select comboboxProps={DROPDOWN_WHEN_OPEN} label="Thinking" size="xs" w={130} allowDeselect={false} value={thinking} {...gate('thinking')}
              data={[{ value: 'off', label: 'off' }, { value: 'budget', label: 'budget' }, { value: 'adaptive', label: 'adaptive' }]}
              onChange={(v) => v && setReasoning(v === 'adaptive' ? { adaptive: true } : v === 'budget' ? { adaptive: undefined, budgetTokens: p.reasoning?.budgetTokens || 2048 } : { adaptive: undefined, budgetTokens: undefined })} />
            {thinking === 'budget' && (
              <NumberInput label="Thinking budget" size="xs" w={130} min={1024} step={1024} allowDecimal={false} value={p.reasoning?.budgetTokens ?? ''} {...gate('thinking')}
                onChange={(v) => typeof v === 'number' && v >= 1 && setReasoning({ budgetTokens: v })} />
            )}
            <Select comboboxProps={DROPDOWN_WHEN_OPEN} label="Tool choice" size="xs" w={170} allowDeselect={false} value={chosen} {...gate('toolChoice')}
              data={[DEFAULT, 'auto', 'none', { value: 'required', label: 'required (any tool)' }, ...tools]}
              onChange={(v) => v && edit((params) => { const c = toolChoiceOf(v); if (c === undefined) delete params.toolChoice; else params.toolChoice = c; })} />
            <Select comboboxProps={DROPDOWN_WHEN_OPEN} label="Parallel tool calls" size="xs" w={150} allowDeselect={false} {...gate('parallelToolCalls')}
              value={p.parallelToolCalls === undefined ? DEFAULT : p.parallelToolCalls ? 'allowed' : 'one at a time'} data={[DEFAULT, 'allowed', 'one at a time']}
              onChange={(v) => v && edit((params) => { if (v === DEFAULT) delete params.parallelToolCalls; else params.parallelToolCalls = v === 'allowed'; })} />
          </Group>
          <Group gap="xs" align="flex-end" wrap="wrap">
            <Select comboboxProps={DROPDOWN_WHEN_OPEN} label="Response format" size="xs" w={150} allowDeselect={false} value={rf?.type ?? DEFAULT} disabled={readOnly}
              data={[DEFAULT, ...controls.responseFormats.map((f) => ({ value: f, label: f === 'json_object' ? 'JSON object' : f === 'json_schema' ? 'JSON schema' : 'text' }))]}
              onChange={(v) => v && setFormat(v === DEFAULT ? undefined : v === 'json_schema' ? (rf?.type === 'json_schema' ? rf : NEW_SCHEMA) : { type: v as 'text' | 'json_object' })} />
            {rf?.type === 'json_schema' && (
              <>
                <TextInput label="Schema name" size="xs" w={160} value={rf.name} disabled={readOnly}
                  onChange={(e) => { const name = e.currentTarget.value; if (/^[A-Za-z0-9_-]{1,64}$/.test(name)) setFormat({ ...rf, name }); }} />
                <Checkbox size="xs" label="Strict" checked={rf.strict ?? false} disabled={readOnly} onChange={(e) => setFormat({ ...rf, strict: e.currentTarget.checked })} />
              </>
            )}
          </Group>
          {rf?.type === 'json_schema' && (
            <JsonField label="Response JSON schema" value={rf.schema} object readOnly={readOnly} maxHeight={240} invalidKey="model.responseFormat"
              onValue={(v) => setFormat({ ...rf, schema: v as Record<string, unknown> })} />
          )}
          {lacking.length > 0 && <Text size="xs" c="dimmed">Not on {API_NAMES[api!] ?? api}: {lacking.join(' ')}</Text>}
        </Stack>
      </Collapse>
    </Stack>
  );
}
