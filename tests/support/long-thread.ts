/**
 * A long thread for the scale tests (tests/e2e/long-thread.spec.ts) and the message-list
 * benchmark (bench/messages.ts): alternating user and assistant messages, every assistant
 * message with one tool call (arguments and a result), texts of one to six lines, and a few
 * user messages carrying a real PNG image of about `imageBytes` bytes. Deterministic: the same
 * options give the same thread, so runs compare.
 */
import { deflateSync } from 'node:zlib';
import type { Message } from '../../shared/thread/messages';
import type { Thread } from '../../shared/thread/schema';
import type { Tool } from '../../shared/thread/tools';
import { rng } from './rng';

export interface LongThreadOptions {
  /** Number of messages (user and assistant alternate, user first). */
  messages: number;
  /** How many user messages carry an image, spread evenly over the thread. Default 0. */
  images?: number;
  /** Encoded size of each image in bytes (a PNG of random pixels, which does not compress). Default 1 MiB. */
  imageBytes?: number;
  title?: string;
  id?: string;
}

/** The tool every assistant message calls. */
export const longThreadTool: Tool = {
  type: 'function',
  name: 'get-sum',
  description: 'Add two numbers.',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
};

const WORDS = ['the', 'agent', 'reads', 'a', 'file', 'and', 'adds', 'numbers', 'from', 'each', 'line', 'then', 'checks', 'its', 'sum', 'twice'];

/** Text of message `i`: a marker word (`msg-<i>`), then one to six lines of words. */
export function longThreadText(i: number): string {
  const r = rng(i + 1);
  const lines = 1 + Math.floor(r() * 6);
  const out: string[] = [];
  for (let l = 0; l < lines; l++) {
    const n = 6 + Math.floor(r() * 14);
    out.push(Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' '));
  }
  return `msg-${i} ${out.join('\n')}`;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid RGB PNG of random pixels, about `bytes` long (random pixels do not compress). */
export function randomPng(bytes: number, seed = 1): Buffer {
  const width = 512;
  const height = Math.max(1, Math.round(bytes / (width * 3)));
  const r = rng(seed);
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    raw[row] = 0; // filter: none
    for (let x = 1; x <= width * 3; x++) raw[row + x] = Math.floor(r() * 256);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 0 })), chunk('IEND', new Uint8Array())]);
}

/** Build the thread (see the file comment). Message ids are `m<i>`, tool call ids `call_<i>` (i from 1). */
export function longThread(o: LongThreadOptions): Thread {
  const images = o.images ?? 0;
  const users = Math.ceil(o.messages / 2);
  const imageAt = new Set(Array.from({ length: images }, (_, k) => Math.floor(((k + 0.5) * users) / images)));
  const png = images ? randomPng(o.imageBytes ?? 1 << 20).toString('base64') : '';
  const messages: Message[] = [];
  for (let i = 1; i <= o.messages; i++) {
    const text = longThreadText(i);
    if (i % 2 === 1) {
      const content: Extract<Message, { role: 'user' }>['content'] = [{ type: 'text', text }];
      if (imageAt.has((i - 1) / 2)) content.push({ type: 'image', mimeType: 'image/png', data: png });
      messages.push({ id: `m${i}`, role: 'user', content });
    } else {
      messages.push({
        id: `m${i}`,
        role: 'assistant',
        content: [{ type: 'text', text }],
        toolCalls: [{ id: `call_${i}`, name: 'get-sum', arguments: { a: i, b: i * 2 }, output: { content: [{ type: 'text', text: `The sum of ${i} and ${i * 2} is ${i * 3}.` }], isError: false } }],
        model: 'scripted/scripted',
        usage: { inputTokens: 100 + i, outputTokens: 20 },
      });
    }
  }
  return {
    version: 1,
    id: o.id ?? '3f2b9a10-6c1d-4e8f-9a7b-1c2d3e4f5a6b',
    title: o.title ?? `Long thread (${o.messages} messages)`,
    // One reply, for the turn after the last message (whose text for the model is its tool
    // result); the messages before earlier turns (user messages) match none.
    model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond: 2000 }, script: [{ when: '^The sum of ', text: 'Done.' }] },
    context: { systemPrompt: 'You are a careful assistant.', tools: [longThreadTool], messages },
    runRefs: [],
  };
}
