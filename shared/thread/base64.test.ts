/** RFC 4648 §4 base64 as thread data must be (base64.ts), property-tested against Node's own encoder. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Problem, dataProblems, isBase64 } from './base64';
import { threadWith } from '../../tests/support/threads';

describe('isBase64', () => {
  it('accepts what an encoder writes, for any bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => isBase64(Buffer.from(bytes).toString('base64'))));
  });

  it('agrees with a strict decode: valid exactly when decoding and encoding again gives the same text', () => {
    const chars = fc.constantFrom(...'ABCXYZabcxyz0189+/=-_ \n.'.split(''));
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 24 }).map((a) => a.join('')), (text) => {
        const strict = /^[A-Za-z0-9+/=]*$/.test(text) && Buffer.from(text, 'base64').toString('base64') === text;
        expect(isBase64(text)).toBe(strict);
        expect(base64Problem(text) === undefined).toBe(strict);
      }),
    );
  });

  it('refuses a changed character outside the alphabet, dropped padding, and set pad bits, saying which', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 60 }), fc.nat(), fc.constantFrom('-', '_', ' ', '\n', '*', 'é'), (bytes, at, bad) => {
        const good = Buffer.from(bytes).toString('base64');
        const i = at % good.length;
        const text = good.slice(0, i) + bad + good.slice(i + 1);
        expect(isBase64(text)).toBe(false);
        expect(base64Problem(text)).toContain(`${JSON.stringify(bad)} at character ${i + 1}`);
      }),
    );
    expect(base64Problem('QQ')).toBe('is not valid base64 (RFC 4648 §4): 2 characters, not a multiple of 4 (padding missing?)');
    expect(base64Problem('QR==')).toBe('is not valid base64 (RFC 4648 §4): the last character has bits set past the end of the data');
    expect(base64Problem('QQ==QQ==')).toBe('is not valid base64 (RFC 4648 §4): "=" at character 3 is padding inside the data');
    expect(base64Problem('data:image/png;base64,QQ==')).toMatch(/^is a data: URL, not base64/);
    expect(isBase64('')).toBe(true);
  });
});

describe('dataProblems', () => {
  it('names the pointer of each bad image, document and tool result, and nothing else', () => {
    const t = threadWith({
      messages: [
        { id: 'u1', role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }, { type: 'image', mimeType: 'image/png', data: 'not base64!' }] },
        { id: 'a1', role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'shot', arguments: {}, output: { isError: false, content: [{ type: 'image', mimeType: 'image/png', data: 'QR==' }] } }] },
        { id: 'u2', role: 'user', content: [{ type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBERi0x\nLjQ=' } }] },
      ],
    });
    expect(dataProblems(t).map((p) => p.pointer)).toEqual([
      '/context/messages/0/content/2/data',
      '/context/messages/1/toolCalls/0/output/content/0/data',
      '/context/messages/2/content/0/source/data',
    ]);
  });
});
