/** Images inline with their size, and the file picker that turns a file into an image part. */
import { useMemo } from 'react';
import { Box, Group, Image, Text, FileButton, Button, CloseButton } from '@mantine/core';
import { formatBytes } from '../../ui/format';
import { base64Bytes } from '../../ui/base64-bytes';
import { imageObjectUrl, imagePixelSize } from './image-data';

/** Height of an inline image at most, px. */
const MAX_HEIGHT = 200;

type DataImage = { mimeType: string; data: string; detail?: string };

/** An inline image (its bytes, or a URL the provider fetches) with its mime type and size. */
export function ImagePreview({ part, onRemove }: { part: DataImage | { url: string; mimeType?: string; detail?: string }; onRemove?: () => void }) {
  if ('url' in part) {
    // A URL image is fetched by the provider, not by Stepwise: shown as its address.
    return (
      <Group gap={4} wrap="nowrap">
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }} aria-label="image URL">image URL: {part.url}{part.detail ? ` · detail ${part.detail}` : ''}</Text>
        {onRemove && <CloseButton size="xs" aria-label="Remove image" onClick={onRemove} />}
      </Group>
    );
  }
  return <DataImagePreview part={part} onRemove={onRemove} />;
}

/**
 * An image's bytes, laid out at its final size before it loads (the size from its header), and
 * shown from an object URL (image-data.ts); an image whose header is not understood is shown
 * from a data: URL as it is.
 */
function DataImagePreview({ part, onRemove }: { part: DataImage; onRemove?: () => void }) {
  const size = useMemo(() => imagePixelSize(part.data), [part.data]);
  const src = useMemo(() => {
    if (size) {
      try {
        return imageObjectUrl(part.data, part.mimeType);
      } catch {}
    }
    return `data:${part.mimeType};base64,${part.data}`;
  }, [size, part.data, part.mimeType]);
  const height = size ? Math.min(MAX_HEIGHT, size.height) : undefined;
  return (
    <Box>
      <Image src={src} alt={`image, ${part.mimeType}, ${formatBytes(base64Bytes(part.data))}`} mah={MAX_HEIGHT} h={height} maw="100%" w="auto" fit="contain" radius="sm"
        width={size?.width} height={size?.height} />
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
