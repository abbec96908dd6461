import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { serverToolLine } from './server-tools';

describe('serverToolLine', () => {
  it('names calls with their input and results with what they hold', () => {
    expect(serverToolLine({ type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'weather Paris' } })).toBe('web_search {"query":"weather Paris"}');
    expect(serverToolLine({ type: 'mcp_tool_use', id: 'm1', name: 'list_issues', server_name: 'github', input: { repo: 'a/b' } })).toBe('list_issues @github {"repo":"a/b"}');
    expect(serverToolLine({ type: 'web_search_tool_result', tool_use_id: 's1', content: [{ type: 'web_search_result', url: 'u' }, { type: 'web_search_result', url: 'v' }] })).toBe('web_search_tool_result → 2 items');
    expect(serverToolLine({ type: 'web_search_tool_result', tool_use_id: 's1', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } })).toBe('web_search_tool_result → error max_uses_exceeded');
    expect(serverToolLine({ type: 'mcp_tool_result', tool_use_id: 'm1', is_error: false, content: [{ type: 'text', text: '3 open\nissues' }] })).toBe('mcp_tool_result → 3 open issues');
    expect(serverToolLine({ type: 'code_execution_tool_result', tool_use_id: 'c', content: { type: 'code_execution_result', stdout: '4\n', stderr: '', return_code: 0 } })).toBe('code_execution_tool_result → exit 0: 4');
  });

  it('never throws and stays short, whatever the block holds', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.dictionary(fc.string(), fc.jsonValue()), (type, rest) => {
        const line = serverToolLine({ ...rest, type });
        expect(typeof line).toBe('string');
        expect(line.length).toBeLessThanOrEqual(201);
      }),
    );
  });
});
