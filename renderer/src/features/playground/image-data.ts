/**
 * Images of a thread as the page shows them. A part holds its bytes as base64; an `<img>` given
 * them as a data: URL makes the browser copy and decode the whole string as the element is
 * made (over 100 ms for 1 MB), and the image has no size until it has loaded, so everything
 * under it moves. Instead: the pixel size is read from the file's header (PNG, GIF, JPEG,
 * WebP) so the box is laid out at its final size at once, and the bytes become a Blob with an
 * object URL, made once per image and kept for the last {@link KEPT} images.
 */

/** Width and height in pixels. */
export interface PixelSize {
  width: number;
  height: number;
}

/** How much of the file is read for its header: a JPEG's size may follow up to 64 KiB of metadata. */
const HEADER_BYTES = 65_536;

/** Decode base64 text to bytes; throws on text that is not base64. */
function decodeBase64(b64: string): Uint8Array {
  const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
  if (native) return native(b64);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The first bytes of base64 `data` (at most `max`), or empty when they are not base64. */
function headerBytes(data: string, max = HEADER_BYTES): Uint8Array {
  const chars = Math.ceil(max / 3) * 4;
  try {
    return decodeBase64(data.length > chars ? data.slice(0, chars) : data.slice(0, data.length - (data.length % 4)));
  } catch {
    return new Uint8Array();
  }
}

const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

/** The size a JPEG's first start-of-frame marker gives, scanning its segments. */
function jpegSize(b: Uint8Array): PixelSize | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // no length
      continue;
    }
    const len = u16be(b, i + 2);
    if (len < 2) return null;
    // SOF0–SOF15, not DHT (C4), JPG (C8) or DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    i += 2 + len;
  }
  return null;
}

/**
 * The pixel size written in the header of the image in base64 `data`, for PNG, GIF, JPEG and
 * WebP; null for another format, a cut or damaged header, or text that is not base64.
 */
export function imagePixelSize(data: string): PixelSize | null {
  const b = headerBytes(data);
  let size: PixelSize | null = null;
  if (b.length >= 24 && b[0] === 0x89 && ascii(b, 1, 3) === 'PNG' && ascii(b, 12, 4) === 'IHDR') size = { width: u32be(b, 16), height: u32be(b, 20) };
  else if (b.length >= 10 && ascii(b, 0, 4) === 'GIF8') size = { width: u16le(b, 6), height: u16le(b, 8) };
  else if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) size = jpegSize(b);
  else if (b.length >= 30 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') {
    const chunk = ascii(b, 12, 4);
    if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) size = { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
    else if (chunk === 'VP8L' && b[20] === 0x2f) {
      const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
      size = { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    } else if (chunk === 'VP8X') size = { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  }
  return size && size.width > 0 && size.height > 0 ? size : null;
}

/** How many object URLs are kept (the images most recently shown). */
export const KEPT = 24;
/** Object URLs by the base64 text (the document's own string: its hash is computed once). */
const urls = new Map<string, { mimeType: string; url: string }>();

/**
 * An object URL for the image in base64 `data`: made on first use, then reused; the oldest of
 * more than {@link KEPT} is revoked. Throws on text that is not base64.
 */
export function imageObjectUrl(data: string, mimeType: string): string {
  const hit = urls.get(data);
  if (hit && hit.mimeType === mimeType) {
    urls.delete(data);
    urls.set(data, hit); // most recent last
    return hit.url;
  }
  const url = URL.createObjectURL(new Blob([decodeBase64(data) as Uint8Array<ArrayBuffer>], { type: mimeType }));
  if (hit) URL.revokeObjectURL(hit.url);
  urls.delete(data);
  urls.set(data, { mimeType, url });
  while (urls.size > KEPT) {
    const [oldKey, old] = urls.entries().next().value!;
    urls.delete(oldKey);
    URL.revokeObjectURL(old.url);
  }
  return url;
}
