/**
 * One MCP resource's contents (`resources/read`, an embedded resource in a tool result or a
 * message), shown by type: an image, JSON pretty-printed, markdown and other text as text,
 * any other blob as its type and size.
 */
import { Box, CloseButton, Group, Image, Stack, Text } from '@mantine/core';
import { base64Bytes } from '../../ui/base64-bytes';
import { formatBytes, toJson } from '../../ui/format';
import { JsonEditor } from '../../ui/editors';

/** The contents of one resource: `text`, or `blob` (base64). */
export interface ResourceContentsLike {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** How a resource is shown, from its MIME type and whether it is text (exported for tests). */
export function resourceKind(r: ResourceContentsLike): 'image' | 'json' | 'markdown' | 'text' | 'binary' {
  const mime = (r.mimeType ?? '').toLowerCase();
  if (r.blob !== undefined && mime.startsWith('image/')) return 'image';
  if (r.text === undefined) return 'binary';
  if (mime === 'application/json' || mime.endsWith('+json')) return 'json';
  if (mime === 'text/markdown' || /\.(md|markdown)$/i.test(r.uri)) return 'markdown';
  return 'text';
}

function prettyJson(text: string): string {
  try {
    return toJson(JSON.parse(text));
  } catch {
    return text;
  }
}

/** A resource's contents with its URI and type; `onRemove` shows a remove button. */
export function ResourceView({ resource: r, onRemove }: { resource: ResourceContentsLike; onRemove?: () => void }) {
  const kind = resourceKind(r);
  const size = r.blob !== undefined ? base64Bytes(r.blob) : new TextEncoder().encode(r.text ?? '').length;
  return (
    <Stack gap={2} aria-label={`Resource ${r.uri}`} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4, padding: 4 }}>
      <Group gap={4} wrap="nowrap">
        <Text size="xs" ff="monospace" style={{ flex: 1, wordBreak: 'break-all' }}>{r.uri}</Text>
        <Text size="xs" c="dimmed">{r.mimeType ?? 'no type'} · {formatBytes(size)}</Text>
        {onRemove && <CloseButton size="xs" aria-label={`Remove resource ${r.uri}`} onClick={onRemove} />}
      </Group>
      {kind === 'image' && <Box><Image src={`data:${r.mimeType};base64,${r.blob}`} alt={`resource image ${r.uri}`} mah={200} w="auto" fit="contain" /></Box>}
      {kind === 'json' && <JsonEditor label={`Resource ${r.uri}`} value={prettyJson(r.text!)} readOnly maxHeight={240} />}
      {(kind === 'markdown' || kind === 'text') && (
        <Text size="xs" ff={kind === 'text' ? 'monospace' : undefined} style={{ whiteSpace: 'pre-wrap', maxHeight: 240, overflow: 'auto' }} data-kind={kind}>{r.text}</Text>
      )}
      {kind === 'binary' && <Text size="xs" c="dimmed">Binary content, {formatBytes(size)}{r.mimeType ? ` of ${r.mimeType}` : ''}.</Text>}
    </Stack>
  );
}
