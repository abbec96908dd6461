/** A document of a user message (Anthropic `document` block): its name, type and size; a text document's text. */
import { Badge, Box, CloseButton, Group, ScrollArea, Text } from '@mantine/core';
import type { DocumentPart } from '../../../../shared/thread/messages';
import { formatBytes } from '../../ui/format';
import { base64Bytes } from '../../ui/base64-bytes';

/** What kind of document it is, for people: PDF, the media type, or the address it is fetched from. */
function kindOf(p: DocumentPart): string {
  if (p.source.type === 'url') return 'URL';
  return p.source.mediaType === 'application/pdf' ? 'PDF' : p.source.mediaType;
}

function sizeOf(p: DocumentPart): string | undefined {
  if (p.source.type === 'base64') return formatBytes(base64Bytes(p.source.data));
  if (p.source.type === 'text') return formatBytes(new TextEncoder().encode(p.source.data).length);
  return undefined;
}

/** One document, shown read-only (it is sent as imported); `onRemove` offers to take it out. */
export function DocumentPreview({ part, onRemove }: { part: DocumentPart; onRemove?: () => void }) {
  const name = part.title ?? (part.source.type === 'url' ? part.source.url : 'document');
  const size = sizeOf(part);
  return (
    <Box role="group" aria-label={`document ${name}`}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>{name}</Text>
        <Text size="xs" c="dimmed">{[kindOf(part), size].filter(Boolean).join(' · ')}</Text>
        {part.citations?.enabled && <Badge size="xs" variant="light">citations</Badge>}
        {part.cacheControl && <Badge size="xs" variant="light" color="gray">cached</Badge>}
        {onRemove && <CloseButton size="xs" aria-label={`Remove document ${name}`} onClick={onRemove} />}
      </Group>
      {part.source.type === 'url' && part.title && <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>{part.source.url}</Text>}
      {part.context && <Text size="xs" c="dimmed">{part.context}</Text>}
      {part.source.type === 'text' && (
        <ScrollArea.Autosize mah={160}>
          <Text size="xs" ff="monospace" style={{ whiteSpace: 'pre-wrap' }}>{part.source.data}</Text>
        </ScrollArea.Autosize>
      )}
    </Box>
  );
}
