import { describe, expect, it } from 'vitest';
import { resourceKind } from './ResourceView';

describe('resourceKind', () => {
  it('shows images, JSON, markdown, other text and other blobs each their own way', () => {
    expect(resourceKind({ uri: 'a', mimeType: 'image/png', blob: 'AA==' })).toBe('image');
    expect(resourceKind({ uri: 'a', mimeType: 'application/json', text: '{}' })).toBe('json');
    expect(resourceKind({ uri: 'a', mimeType: 'application/schema+json', text: '{}' })).toBe('json');
    expect(resourceKind({ uri: 'a', mimeType: 'text/markdown', text: '# x' })).toBe('markdown');
    expect(resourceKind({ uri: 'doc.md', text: '# x' })).toBe('markdown');
    expect(resourceKind({ uri: 'a', mimeType: 'text/plain', text: 'x' })).toBe('text');
    expect(resourceKind({ uri: 'a', mimeType: 'application/gzip', blob: 'AA==' })).toBe('binary');
  });
});
