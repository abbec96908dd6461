/** One assistant tool call: editable arguments (validated against the tool's schema) and result; remove. */
import { useAtomValue } from 'jotai';
import { ActionIcon, Badge, Button, Checkbox, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import type { Thread } from '../../../../shared/thread/schema';
import type { ToolCall } from '../../../../shared/thread/messages';
import { useApp } from '../../state/context';
import { useSession, useThreadMetaField } from '../../state/hooks';
import { PromptEditor } from '../../ui/editors';
import { JsonField } from './JsonField';
import { checkAgainstSchema, toolSchema } from './schema-check';
import { ImagePreview } from './images';
import { ToolResultExtras } from './ToolResultExtras';
import { TemplatePreview } from './TemplatePreview';
import { removeToolCall } from './tool-call-edits';
import { setChangedKeys } from './json-keys';
import { useFieldHighlight } from './find-context';
import { ApprovalPreviewView, ToolResultBody } from '../../ui/ToolResults';
import { useHeldPreview } from './use-held-preview';

/** Tool call card inside an assistant message. */
export function ToolCallEditor({ thread, mi, ci, call, readOnly }: { thread: Thread; mi: number; ci: number; call: ToolCall; readOnly: boolean }) {
  const app = useApp();
  const session = useSession()!;
  const version = useThreadMetaField('version') ?? 0;
  const tool = thread.context.tools.find((t) => t.name === call.name);
  const schema = toolSchema(tool);
  const out = call.output;
  // Only the last message's tool calls can run (a tool step runs the pending calls of the last
  // message); an earlier call without a result can only get one typed in.
  const last = mi === thread.context.messages.length - 1;
  const argsInvalid = useAtomValue(app.invalidFieldsAtom).has(`args.${call.id}`);
  // Accessible names tell apart several calls of one tool in a message: "get-sum 2".
  const calls = (thread.context.messages[mi] as { toolCalls?: { name: string }[] }).toolCalls ?? [];
  const same = calls.filter((c) => c.name === call.name).length;
  const name = same > 1 ? `${call.name} ${calls.slice(0, ci + 1).filter((c) => c.name === call.name).length}` : call.name;
  const preview = useHeldPreview(call.id, !out);
  const text = out?.content.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('\n') ?? '';
  const messageId = thread.context.messages[mi].id;
  const argsHighlight = useFieldHighlight(messageId, `args:${call.id}`);
  const resultHighlight = useFieldHighlight(messageId, `result:${call.id}`);
  // By ids, not by this card's indices: another window's delete may have arrived before this
  // card rendered again, and the indices would then name another call.
  const findCall = (d: Thread) => {
    const msg = d.context.messages.find((x) => x.id === messageId);
    return msg?.role === 'assistant' ? msg.toolCalls?.find((x) => x.id === call.id) : undefined;
  };
  /**
   * The result's editor is bound to its text's `Y.Text` when it has one text part (the output is
   * a map in the document, docs/architecture.md#multi-window-editing: two windows typing into it
   * merge); a call without a result, or a result of several text parts, is edited through
   * {@link setText} (its first keystroke makes the output, then the editor binds).
   */
  const bound = out ? session.boundText({ messageId, callId: call.id, field: 'result' }) : undefined;
  /** Set the result's text (its text parts become this one); the person typed it. */
  const setText = (textValue: string) =>
    session.edit((d) => {
      const c = findCall(d as Thread);
      if (!c) return;
      if (!c.output) {
        c.output = { content: [{ type: 'text', text: textValue }], isError: false, typed: true };
        return;
      }
      const others = c.output.content.filter((p) => p.type !== 'text');
      const first = c.output.content.findIndex((p) => p.type === 'text');
      if (first >= 0 && c.output.content.length === others.length + 1) (c.output.content[first] as { text: string }).text = textValue;
      else c.output.content = [{ type: 'text', text: textValue }, ...others];
      // Text the user types is a template; a tool run's result stays literal until its text is edited.
      c.output.typed = true;
    }, `result.${call.id}`);
  /** Mark the result as an error or not (only that field: typing elsewhere in it stays). */
  const setError = (isError: boolean) =>
    session.edit((d) => {
      const c = findCall(d as Thread);
      if (c?.output) c.output.isError = isError;
    }, `result.${call.id}.error`);
  return (
    <Paper withBorder p={6} radius="sm" aria-label={`tool call ${name}`}>
      <Group gap={6} mb={4} wrap="nowrap">
        <Badge size="xs" variant="light" color="grape">tool call</Badge>
        <Text size="sm" ff="monospace" fw={500} style={{ flex: 1 }}>{call.name}</Text>
        {!tool && <Text size="xs" c="orange">no tool named “{call.name}” in this thread</Text>}
        {out ? (
          <Badge size="xs" color={out.isError ? 'red' : 'teal'} variant="light">{out.isError ? 'result: error' : 'result'}</Badge>
        ) : (
          <Badge size="xs" color="yellow" variant="light" title={last ? undefined : 'Not in the last message: type its result, or delete the messages after it to run it'}>{last ? 'awaiting input' : 'no result'}</Badge>
        )}
        {!out && !readOnly && last && (
          <Button size="compact-xs" disabled={argsInvalid} title={argsInvalid ? 'Fix the arguments first: they are not valid JSON' : undefined}
            onClick={() => void app.startRun('tool', { toolCallIds: [call.id] })}>Run tool</Button>
        )}
        {out && !readOnly && last && (
          <Button size="compact-xs" variant="subtle" aria-label={`Clear the result of ${name}, to run it again`}
            onClick={() => session.edit((d) => {
              const c = findCall(d as Thread);
              if (c) delete c.output;
            })}>Clear result</Button>
        )}
        {!readOnly && (
          // The result is the call's `output`: it goes with the call, never left as an orphan.
          <Tooltip label={out ? 'Remove this tool call and its result' : 'Remove this tool call'}>
            <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Remove tool call ${name}`}
              onClick={() => session.edit((d) => void removeToolCall(d as Thread, messageId, call.id), `toolCall.remove.${call.id}`)}>×</ActionIcon>
          </Tooltip>
        )}
      </Group>
      <Stack gap={4}>
        <JsonField label={`Arguments of ${name}`} object readOnly={readOnly} maxHeight={220} invalidKey={`args.${call.id}`} highlight={argsHighlight}
          value={call.arguments}
          validate={(v) => checkAgainstSchema(schema, v)}
          onValue={(v, base) => session.edit((d) => {
            const c = findCall(d as Thread);
            if (!c) return;
            // The arguments are a map of JSON values in the document (last writer wins per key):
            // only the keys the person changed are set, so another window's other keys stay.
            setChangedKeys(c.arguments, base, v as Record<string, unknown>);
            delete c.rawArguments;
          }, `args.${call.id}`)} />
        {preview !== undefined && <ApprovalPreviewView preview={preview} />}
        {call.custom
          ? <Text size="xs" aria-label={`Free-form input of ${name}`}>Free-form input (custom tool): <Text span ff="monospace" style={{ whiteSpace: 'pre-wrap' }}>{call.rawArguments ?? ''}</Text></Text>
          : call.rawArguments && <Text size="xs" c="orange">The model's raw arguments did not parse: <Text span ff="monospace">{call.rawArguments.slice(0, 200)}</Text></Text>}
        <Text size="xs" c="dimmed">Result {out ? '' : last ? '— type one, or Run tool' : '— type one'}</Text>
        <PromptEditor label={`Result of ${name}`} value={text} bound={bound} readOnly={readOnly} placeholder="Tool result text"
          onChange={setText} highlight={resultHighlight} />
        <TemplatePreview threadId={thread.id} place={`tool:${call.id}`} label={`result of ${name}`} source={text} version={version}
          literal={thread.settings?.literal ? 'the thread is literal' : out && !out.typed ? 'produced by a tool run (edit it to make it one)' : undefined} />
        {out?.structuredContent !== undefined && <ToolResultBody structured={out.structuredContent} compact />}
        {out?.content.filter((p) => p.type === 'image').map((p, k) => <ImagePreview key={k} part={p as { mimeType: string; data: string }} />)}
        {out && <ToolResultExtras name={name} tool={tool} output={out} />}
        {out && (
          <Checkbox size="xs" label="Mark as error" checked={out.isError} disabled={readOnly} onChange={(e) => setError(e.currentTarget.checked)} />
        )}
      </Stack>
    </Paper>
  );
}
