// What Settings and the playground's Provider picker show for the QA cases: a provider the
// thread names that is not configured, the API of a provider named in the form, the Reset
// text, a server list that could not be read, and the hint of a refused thread.open.
import { describe, expect, it } from 'vitest';
import { providerOptions } from '../playground/ModelSection';
import { apiForId, confirmText } from './ProvidersSettings';
import { listErrorProps } from './McpServersSettings';
import { openThreadHint } from '../../state/open-thread-hint';
import { HostCallError } from '../../host/types';
import type { ProviderInfo } from '../../../../shared/protocol/host-api';

describe('Provider picker', () => {
  it('marks a provider the thread names that is not configured, and only once the list is known', () => {
    const { options, missing } = providerOptions(['openai', 'anthropic', 'scripted', 'replay'], 'myollama');
    expect(missing).toBe(true);
    expect(options.at(-1)).toEqual({ value: 'myollama', label: 'myollama (not configured)' });
    expect(providerOptions(null, 'myollama')).toMatchObject({ missing: false, options: expect.arrayContaining([{ value: 'myollama', label: 'myollama' }]) });
    expect(providerOptions(['myollama'], 'myollama')).toMatchObject({ missing: false });
    expect(providerOptions([], 'scripted').options.map((o) => o.label)).toEqual(['scripted', 'openai', 'anthropic', 'replay']);
  });
});

describe('Settings → Providers form', () => {
  const list: ProviderInfo[] = [
    { id: 'openai', api: 'openai-responses', builtin: true },
    { id: 'scripted', api: 'scripted', builtin: true },
    { id: 'local', api: 'anthropic-messages' },
  ];
  it("shows an existing provider's API when its id is typed; a new id keeps the chosen one", () => {
    expect(apiForId(list, 'openai', 'openai-completions')).toBe('openai-responses');
    expect(apiForId(list, ' local ', 'openai-completions')).toBe('anthropic-messages');
    expect(apiForId(list, 'openai2', 'openai-completions')).toBe('openai-completions');
    expect(apiForId(list, 'scripted', 'openai-completions')).toBe('openai-completions'); // not a choice of the form
    expect(apiForId(null, 'openai', 'openai-completions')).toBe('openai-completions');
  });
  it('Reset says it forgets the saved API key, base URL and API choice', () => {
    expect(confirmText('Reset', 'openai')).toMatch(/^Forget the API key, base URL and API choice saved for “openai”/);
    expect(confirmText('Remove', 'local')).toMatch(/^Remove “local” and its saved API key/);
  });
});

describe('Settings → MCP servers list that could not be read', () => {
  it('names the broken file and what to do; another failure is said as it is', () => {
    const broken = listErrorProps(new Error('/h/settings/mcp.json: not valid JSON at line 7, column 5: expected a value'));
    expect(broken).toMatchObject({ title: 'settings/mcp.json cannot be read', message: expect.stringContaining('line 7, column 5') });
    expect(broken.hint).toMatch(/Fix the file .*or delete it/);
    expect(listErrorProps(new HostCallError('MCP is not available in this host', 'mcp_unavailable', 'mcp.servers'))).toMatchObject({ title: 'Could not list MCP servers', hint: undefined });
  });
});

describe('a refused thread.open', () => {
  it('points at the workspace tree only for a file that did not load', () => {
    expect(openThreadHint(new HostCallError('a.json: line 1, column 2: expected a value', 'bad_thread_file', 'thread.open'))).toMatch(/may be malformed: its error is shown in the workspace tree/);
    const dup = new HostCallError('/w/b.json has the same thread id as /w/a.json (x); duplicate one of them to give it a new id', 'duplicate_thread_id', 'thread.open');
    expect(openThreadHint(dup)).toBeUndefined();
    expect(openThreadHint(new HostCallError('gone.json: no such file', 'bad_thread_file', 'thread.open'))).not.toMatch(/malformed/);
    expect(openThreadHint(new Error('boom'))).toBeUndefined();
  });
});
