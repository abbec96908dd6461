import { describe, expect, it } from 'vitest';
import type { UserMessage } from '../../shared/thread/messages';
import { messageText, userParts } from './content';
import { buildResponsesRequest } from './openai-responses';

const msg: UserMessage = {
  id: 'u1',
  role: 'user',
  content: [
    { type: 'text', text: 'Summarise this:' },
    { type: 'resource', resource: { uri: 'demo://doc.md', mimeType: 'text/markdown', text: '# Title' } },
    { type: 'resource', resource: { uri: 'demo://pic', mimeType: 'image/png', blob: 'iVBORw0KGgo=' } },
    { type: 'resource', resource: { uri: 'demo://bin', mimeType: 'application/octet-stream', blob: 'AAECAw==' } },
  ],
};

describe('userParts: resources attached to a user message', () => {
  it('sends a text resource as text headed by its URI, an image blob as an image, another blob as a line naming its size', () => {
    expect(userParts(msg)).toEqual([
      { type: 'text', text: 'Summarise this:' },
      { type: 'text', text: '[resource demo://doc.md text/markdown]\n# Title' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'text', text: '[resource demo://bin application/octet-stream, 4 bytes of binary content not shown]' },
    ]);
    expect(messageText(msg)).toContain('# Title');
  });

  it('reaches a provider request as its own parts', () => {
    const req = buildResponsesRequest({ messages: [msg], tools: [], systemPrompt: '', model: { provider: 'openai', id: 'm', params: {} }, signal: new AbortController().signal }) as { input: { content: { type: string; text?: string }[] }[] };
    expect(req.input[0].content.map((c) => c.type)).toEqual(['input_text', 'input_text', 'input_image', 'input_text']);
    expect(req.input[0].content[1].text).toBe('[resource demo://doc.md text/markdown]\n# Title');
  });
});
