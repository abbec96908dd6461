/**
 * "Preview" beside a place (system prompt, a message, a tool result): the text the next run
 * would send there, rendered by the host (`thread.render`, docs/architecture.md#templates), or
 * the template error with its line and column. Follows edits while open.
 */
import { useEffect, useState } from 'react';
import { Anchor, Badge, Box, Code, Group, Text } from '@mantine/core';
import type { HostResult } from '../../../../shared/protocol/host-api';
import { hasTemplateSyntax } from '../../../../shared/template/syntax';
import { useApp } from '../../state/context';

type Answer = HostResult<'thread.render'>;

/**
 * A disclosure showing `place` rendered; shown only when `source` holds template syntax. With
 * `literal` (why the place is no template: a model wrote it, a tool run produced it, the thread
 * is literal) it says the text is sent as written instead.
 */
export function TemplatePreview({ threadId, place, label, source, version, literal }: { threadId: string; place: string; label: string; source: string; version: number; literal?: string }) {
  const app = useApp();
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState<Answer | { failed: string } | null>(null);
  useEffect(() => {
    if (!open || literal) return;
    let live = true;
    const t = setTimeout(() => {
      app.host.call('thread.render', { threadId, place }).then(
        (a) => live && setAnswer(a),
        (e: unknown) => live && setAnswer({ failed: e instanceof Error ? e.message : String(e) }),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [app, open, threadId, place, version, literal]);
  if (!hasTemplateSyntax(source) || app.host.presentational) return null;
  if (literal) return <Text size="xs" c="dimmed" aria-label={`${label} is sent as written`}>Sent as written, not a template: {literal}</Text>;
  const rendered = answer && 'places' in answer ? answer.places.find((p) => p.place === place) : undefined;
  return (
    <Box>
      <Anchor component="button" type="button" size="xs" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-label={`Preview ${label}`}>
        {open ? '▾ preview' : '▸ preview'}
      </Anchor>
      {open && answer && 'failed' in answer && <Text size="xs" c="red" role="alert">Preview failed: {answer.failed}</Text>}
      {open && answer && 'places' in answer && answer.error && (
        <Text size="xs" c="red" role="alert">Template error: {answer.error.message}</Text>
      )}
      {open && rendered && (
        <Box>
          {rendered.frozen && (
            <Group gap={4}><Badge size="xs" variant="light">frozen</Badge><Text size="xs" c="dimmed">as the last run sent it; edit the text or its variables to render anew</Text></Group>
          )}
          <Code block aria-label={`Rendered ${label}`} style={{ whiteSpace: 'pre-wrap', fontSize: 12 }}>{rendered.text.join('\n')}</Code>
        </Box>
      )}
    </Box>
  );
}
