/**
 * Image sizes from file headers and object URLs (renderer/src/features/playground/image-data.ts):
 * the sizes PNG, GIF, JPEG and WebP headers state; never a throw or a made-up size for bytes that
 * are not an image, cut short, or text that is not base64; one object URL per image, the
 * oldest revoked past the limit.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { KEPT, imageObjectUrl, imagePixelSize } from './image-data';

const b64 = (bytes: number[] | Uint8Array) => btoa(String.fromCharCode(...bytes));
const ascii = (text: string) => [...new TextEncoder().encode(text)];
const be32 = (n: number) => [n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
const le16 = (n: number) => [n & 0xff, n >> 8];
const le24 = (n: number) => [n & 0xff, (n >> 8) & 0xff, n >> 16];
const be16 = (n: number) => [n >> 8, n & 0xff];
const riff = (chunk: string, data: number[]) => [...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBP'), ...ascii(chunk), ...le16(data.length), 0, 0, ...data];

/** A PNG signature and IHDR chunk (CRC not checked by the reader), then a few bytes of an IDAT. */
const png = (width: number, height: number) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...be32(13), ...ascii('IHDR'), ...be32(width), ...be32(height), 8, 2, 0, 0, 0, 0, 0, 0, 0, ...be32(2), ...ascii('IDAT'), 0, 0];
const gif = [...ascii('GIF89a'), ...le16(300), ...le16(150), 0, 0, 0];
const jpeg = [0xff, 0xd8, 0xff, 0xe0, ...be16(16), ...ascii('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xdb, ...be16(4), 0, 0, 0xff, 0xc2, ...be16(17), 8, ...be16(480), ...be16(640), 3, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const vp8 = riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(320), ...le16(200), 0, 0]);
const vp8l = (() => {
  const bits = (99 & 0x3fff) | ((49 & 0x3fff) << 14);
  return riff('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff, 0, 0, 0, 0, 0]);
})();
const vp8x = riff('VP8X', [0, 0, 0, 0, ...le24(1023), ...le24(767)]);

describe('imagePixelSize', () => {
  it('reads the size PNG, GIF, JPEG (after other segments) and the three WebP kinds state', () => {
    expect(imagePixelSize(b64(png(512, 7)))).toEqual({ width: 512, height: 7 });
    expect(imagePixelSize(b64(gif))).toEqual({ width: 300, height: 150 });
    expect(imagePixelSize(b64(jpeg))).toEqual({ width: 640, height: 480 });
    expect(imagePixelSize(b64(vp8))).toEqual({ width: 320, height: 200 });
    expect(imagePixelSize(b64(vp8l))).toEqual({ width: 100, height: 50 });
    expect(imagePixelSize(b64(vp8x))).toEqual({ width: 1024, height: 768 });
  });

  it('gives null for another format, a cut header, a zero size, and text that is not base64', () => {
    expect(imagePixelSize(b64(ascii('<svg xmlns="http://www.w3.org/2000/svg"/>')))).toBeNull();
    expect(imagePixelSize(b64(png(512, 7).slice(0, 20)))).toBeNull();
    expect(imagePixelSize(b64(jpeg.slice(0, 30)))).toBeNull();
    expect(imagePixelSize(b64([...ascii('GIF89a'), 0, 0, 5, 0]))).toBeNull();
    expect(imagePixelSize(b64(png(0, 7)))).toBeNull();
    expect(imagePixelSize('not base64 at all!')).toBeNull();
    expect(imagePixelSize('')).toBeNull();
  });

  it('never throws and never states a non-positive size, for any bytes or any text', () => {
    const prefixes = [[0x89, 0x50, 0x4e, 0x47], ascii('GIF8'), [0xff, 0xd8], ascii('RIFF'), []];
    fc.assert(
      fc.property(fc.constantFrom(...prefixes), fc.uint8Array({ maxLength: 200 }), (prefix, rest) => {
        const size = imagePixelSize(b64([...prefix, ...rest]));
        if (size) expect(size.width > 0 && size.height > 0 && Number.isInteger(size.width) && Number.isInteger(size.height)).toBe(true);
      }),
    );
    fc.assert(fc.property(fc.string(), (text) => void imagePixelSize(text)));
  });
});

describe('imageObjectUrl', () => {
  afterEach(() => vi.restoreAllMocks());

  it('makes one URL per image and revokes the oldest past the limit', async () => {
    const revoke = vi.spyOn(URL, 'revokeObjectURL');
    const first = imageObjectUrl(b64(gif), 'image/gif');
    expect(imageObjectUrl(b64(gif), 'image/gif')).toBe(first);
    const blob = await (await fetch(first)).arrayBuffer().catch(() => null);
    if (blob) expect([...new Uint8Array(blob)]).toEqual(gif); // where fetch reads blob: URLs
    for (let i = 0; i < KEPT; i++) imageObjectUrl(b64([...gif, i]), 'image/gif');
    expect(revoke).toHaveBeenCalledWith(first);
    expect(imageObjectUrl(b64(gif), 'image/gif')).not.toBe(first);
  });

  it('refuses text that is not base64', () => {
    expect(() => imageObjectUrl('@@@ not base64', 'image/png')).toThrow();
  });
});
