/**
 * Settings → MCP servers: each server with its status, Details (McpServerDetails.tsx), Test (with stderr) and Remove, and the
 * add / import form. A settings/mcp.json that cannot be read is said so, with what to do,
 * instead of the empty state.
 */
import { useState, useEffect } from 'react';
import { Badge, Button, Code, Group, Loader, Stack, Text } from '@mantine/core';
import type { McpServerInfo } from '../../../../shared/protocol/host-api';
import { useApp } from '../../state/context';
import { ErrorNotice, errorProps, type ErrorNoticeProps } from '../../ui/ErrorNotice';
import { McpServerForm } from './McpServerForm';
import { ConfirmRow } from '../../ui/ConfirmRow';
import { useMcpServers } from './use-mcp-servers';
import { McpStatusBadge } from './McpStatusBadge';
import { McpServerDetails } from './McpServerDetails';

type TestResult = { ok: boolean; message: string; stderr?: string };

/** The notice for a server list that could not be read: the broken file, or another failure. */
export function listErrorProps(err: unknown): ErrorNoticeProps {
  const broken = /mcp\.json/.test(String((err as Error | undefined)?.message ?? err));
  return broken
    ? errorProps('settings/mcp.json cannot be read', err, 'Fix the file at the line and column named (or delete it to start over), then open Settings again. Until then no server is listed, and saving or removing one is refused.')
    : errorProps('Could not list MCP servers', err);
}

/** The MCP servers tab of Settings. */
export function McpServersSettings() {
  const app = useApp();
  const { servers, track } = useMcpServers();
  /** Why the server list could not be read (shown instead of the empty state). */
  const [listError, setListError] = useState<ErrorNoticeProps | null>(null);
  const list = servers ?? (listError ? [] : null);
  const [tests, setTests] = useState<Record<string, TestResult | 'testing'>>({});
  const [error, setError] = useState<ErrorNoticeProps | null>(null);
  /** The server whose Remove waits for confirmation. */
  const [removing, setRemoving] = useState<string | null>(null);
  /** The server whose details (info, sign-in, roots, protocol log) are open. */
  const [details, setDetails] = useState<string | null>(null);
  const listed = (call: () => Promise<McpServerInfo[]>) => track(call).then(() => setListError(null));
  const remove = async (name: string) => {
    setRemoving(null);
    try {
      await listed(() => app.host.call('mcp.removeServer', { name }));
    } catch (e) {
      setError(errorProps(`Could not remove ${name}`, e));
    }
  };
  useEffect(() => {
    listed(() => app.host.call('mcp.servers', {})).catch((e) => setListError(listErrorProps(e)));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per opening
  }, [app]);
  const test = async (name: string) => {
    setTests((t) => ({ ...t, [name]: 'testing' }));
    try {
      const r = await app.host.call('mcp.test', { server: name });
      setTests((t) => ({ ...t, [name]: r }));
      // The test connected (or failed to): show the server's status as it is now.
      listed(() => app.host.call('mcp.servers', {})).catch(() => {});
    } catch (e) {
      setTests((t) => ({ ...t, [name]: { ok: false, message: (e as Error).message } }));
    }
  };
  return (
    <Stack gap="xs">
      {listError && <ErrorNotice {...listError} />}
      {error && <ErrorNotice {...error} onClose={() => setError(null)} />}
      {list === null && <Group gap={6}><Loader size="xs" /><Text size="sm" c="dimmed">Loading MCP servers…</Text></Group>}
      {list?.length === 0 && !listError && <Text size="sm" c="dimmed">No MCP servers yet — add one below or import a config file.</Text>}
      {list?.map((s) => {
        const t = tests[s.name];
        const result = t && t !== 'testing' ? t : undefined;
        return (
          <Stack key={s.name} gap={4} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }} pb={6}>
            <Group gap={6}>
              <Text ff="monospace" fw={600} size="sm">{s.name}</Text>
              <Badge size="xs" variant="outline">{s.transport}</Badge>
              <McpStatusBadge info={s} />
              <div style={{ flex: 1 }} />
              <Button size="compact-xs" variant="subtle" aria-expanded={details === s.name} aria-label={`Details of ${s.name}`} onClick={() => setDetails(details === s.name ? null : s.name)}>Details</Button>
              <Button size="compact-xs" variant="light" loading={t === 'testing'} onClick={() => void test(s.name)} aria-label={`Test ${s.name}`}>Test</Button>
              {!app.host.presentational && removing !== s.name && (
                <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove ${s.name}`} onClick={() => setRemoving(s.name)}>Remove</Button>
              )}
            </Group>
            {details === s.name && <McpServerDetails info={s} />}
            {removing === s.name && (
              <ConfirmRow label={`Confirm removing ${s.name}`} action={`Remove ${s.name}`} onConfirm={() => void remove(s.name)} onCancel={() => setRemoving(null)}>
                Remove “{s.name}” from settings/mcp.json? Threads whose tools use it will get an error when they call them.
              </ConfirmRow>
            )}
            {/* A failed Test says why itself: the server's error is not repeated above it. */}
            {s.error && !(result && !result.ok) && <Text size="xs" c="red">{s.error}</Text>}
            {result && (
              <>
                <Text size="xs" c={result.ok ? 'teal' : 'red'}>{result.ok ? 'OK' : 'Failed'}: {result.message}</Text>
                {result.stderr && <Code block style={{ maxHeight: 200, overflow: 'auto' }}>{result.stderr}</Code>}
              </>
            )}
          </Stack>
        );
      })}
      <McpServerForm servers={list} onSaved={listed} onError={(title, e) => setError(errorProps(title, e))} />
    </Stack>
  );
}
