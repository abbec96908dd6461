import { describe, expect, it } from 'vitest';
import type { Tool } from '../../../../shared/thread/tools';
import { structuredProblems } from './ToolResultExtras';

const tool: Tool = {
  type: 'mcp', name: 'weather', server: 's', toolName: 'weather', inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] },
};

describe('structuredProblems (the thread view’s check of structuredContent against outputSchema)', () => {
  it('names each problem under structuredContent; none for a conforming result, an error, or a tool without a schema', () => {
    expect(structuredProblems(tool, { content: [], isError: false, structuredContent: { temperature: 'hot' } })).toEqual([expect.stringMatching(/^structuredContent\/temperature /)]);
    expect(structuredProblems(tool, { content: [], isError: false })).toEqual(['the tool declares an outputSchema but its result has no structuredContent']);
    expect(structuredProblems(tool, { content: [], isError: false, structuredContent: { temperature: 3 } })).toEqual([]);
    expect(structuredProblems(tool, { content: [], isError: true })).toEqual([]);
    expect(structuredProblems({ ...tool, outputSchema: undefined }, { content: [], isError: false, structuredContent: 1 })).toEqual([]);
  });
});
