/** Images inline with their size, and the file picker that turns a file into an image part. */
import { Box, Group, Image, Text, FileButton, Button, CloseButton } from '@mantine/core';
import { formatBytes } from '../../ui/format';
import { base64Bytes } from '../../state/undo';

/** An inline image with its mime type and decoded size. */
export function ImagePreview({ part, onRemove }: { part: { mimeType: string; data: string; detail?: string } | { url: string; mimeType?: string; detail?: string }; onRemove?: () => void }) {
  if ('url' in part) {
    // A URL image is fetched by the provider, not by Stepwise: shown as its address.
    return (
      <Group gap={4} wrap="nowrap">
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }} aria-label="image URL">image URL: {part.url}{part.detail ? ` · detail ${part.detail}` : ''}</Text>
        {onRemove && <CloseButton size="xs" aria-label="Remove image" onClick={onRemove} />}
      </Group>
    );
  }
  return (
    <Box>
      <Image src={`data:${part.mimeType};base64,${part.data}`} alt={`image, ${part.mimeType}, ${formatBytes(base64Bytes(part.data))}`} mah={200} w="auto" fit="contain" radius="sm" />
      <Group gap={4}>
        <Text size="xs" c="dimmed">{part.mimeType} · {formatBytes(base64Bytes(part.data))}{part.detail ? ` · detail ${part.detail}` : ''}</Text>
        {onRemove && <CloseButton size="xs" aria-label="Remove image" onClick={onRemove} />}
      </Group>
    </Box>
  );
}

/** Read a picked file as a base64 image part. */
export function readImage(file: File): Promise<{ type: 'image'; mimeType: string; data: string }> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onerror = () => reject(new Error(`Could not read ${file.name}: ${r.error?.message ?? 'unknown error'}`));
    r.onload = () => {
      const url = String(r.result);
      const comma = url.indexOf(',');
      resolve({ type: 'image', mimeType: file.type || 'image/png', data: url.slice(comma + 1) });
    };
    r.readAsDataURL(file);
  });
}

/** "Add image" button. */
export function AddImageButton({ onImage, onError }: { onImage: (p: { type: 'image'; mimeType: string; data: string }) => void; onError: (e: unknown) => void }) {
  return (
    <FileButton accept="image/png,image/jpeg,image/gif,image/webp" onChange={(f) => f && readImage(f).then(onImage, onError)}>
      {(props) => <Button {...props} size="compact-xs" variant="subtle">Add image</Button>}
    </FileButton>
  );
}
