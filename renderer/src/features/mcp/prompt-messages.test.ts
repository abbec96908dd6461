import { describe, expect, it } from 'vitest';
import { promptToMessages } from './prompt-messages';

describe('promptToMessages', () => {
  it('keeps text, user images and user resources as such; assistant messages as text', () => {
    let n = 0;
    const out = promptToMessages([
      { role: 'user', content: { type: 'text', text: 'Hi' } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'demo://a', mimeType: 'text/plain', text: 'A' } } },
      { role: 'assistant', content: { type: 'resource', resource: { uri: 'demo://b', text: 'B' } } },
      { role: 'assistant', content: { type: 'image', mimeType: 'image/png', data: 'AA==' } },
      { role: 'user', content: { type: 'image', mimeType: 'image/png', data: 'AA==' } },
    ], () => `m${++n}`);
    expect(out).toEqual([
      { id: 'm1', role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { id: 'm2', role: 'user', content: [{ type: 'resource', resource: { uri: 'demo://a', mimeType: 'text/plain', text: 'A' } }] },
      { id: 'm3', role: 'assistant', content: [{ type: 'text', text: 'B' }] },
      { id: 'm4', role: 'assistant', content: [{ type: 'text', text: '[image image/png]' }] },
      { id: 'm5', role: 'user', content: [{ type: 'image', mimeType: 'image/png', data: 'AA==' }] },
    ]);
  });
});
