/**
 * One MCP server's protocol log (MCP Inspector's "History", per server rather than per call):
 * every JSON-RPC message in and out, newest last, filtered by direction, method and errors.
 * The recent log comes from `mcp.serverLog`; new messages arrive live (`mcp_server_log`) and
 * pass the same filter (shared/protocol/mcp-log-filter.ts).
 */
import { useEffect, useMemo, useState } from 'react';
import { Button, Checkbox, Code, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { McpLogEntry, McpLogFilter } from '../../../../shared/protocol/mcp';
import { filterLog } from '../../../../shared/protocol/mcp-log-filter';
import { useApp } from '../../state/context';
import { ErrorNotice, errorProps, type ErrorNoticeProps } from '../../ui/ErrorNotice';

/** How many entries the view keeps (the mcp-host keeps 500 per server). */
const SHOWN = 500;

/** A one-line summary of an entry: direction arrow, method or response id, error mark. */
export function entrySummary(e: McpLogEntry): string {
  const arrow = e.dir === 'out' ? '→' : '←';
  const body = e.body as { error?: { message?: unknown } } | string;
  const error = typeof body === 'object' && body && 'error' in body ? ` error: ${String(body.error?.message ?? '')}` : '';
  const what = e.method ?? `response #${String(e.id)}`;
  return `${arrow} ${what}${e.method && e.id !== undefined ? ` #${e.id}` : ''}${error}`;
}

/** The protocol log of `server`, with its filters. */
export function McpProtocolLog({ server }: { server: string }) {
  const app = useApp();
  const [dir, setDir] = useState<'all' | 'in' | 'out'>('all');
  const [method, setMethod] = useState('');
  const [errors, setErrors] = useState(false);
  /** The server's log as the host keeps it, with the entries pushed since; the filter applies on show. */
  const [raw, setRaw] = useState<McpLogEntry[] | null>(null);
  const [error, setError] = useState<ErrorNoticeProps | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const filter = useMemo<McpLogFilter>(
    () => ({ ...(dir !== 'all' ? { dir } : {}), ...(method.trim() ? { method: method.trim() } : {}), ...(errors ? { errors: true } : {}) }),
    [dir, method, errors],
  );
  const entries = useMemo(() => (raw ? filterLog(raw, filter) : null), [raw, filter]);

  useEffect(() => {
    let live = true;
    // Pushed while the request is out: kept, and put after the answer (duplicates dropped by time and id).
    const early: McpLogEntry[] = [];
    let loaded = false;
    const off = app.onMcpLog((name, entry) => {
      if (name !== server) return;
      if (!loaded) early.push(entry);
      else setRaw((cur) => [...(cur ?? []), entry].slice(-SHOWN));
    });
    app.host
      .call('mcp.serverLog', { server })
      .then((r) => {
        if (!live) return;
        loaded = true;
        const last = r.messages.at(-1)?.t ?? 0;
        setError(null);
        setRaw([...r.messages, ...early.filter((x) => x.t > last)].slice(-SHOWN));
      })
      .catch((e) => live && setError(errorProps(`Could not read the protocol log of ${server}`, e)));
    return () => {
      live = false;
      off();
    };
  }, [app, server]);

  return (
    <Stack gap={4} aria-label={`Protocol log of ${server}`} role="region">
      <Group gap={6} wrap="wrap">
        <SegmentedControl size="xs" value={dir} onChange={(v) => setDir(v as typeof dir)} aria-label="Direction"
          data={[{ value: 'all', label: 'All' }, { value: 'out', label: 'Sent' }, { value: 'in', label: 'Received' }]} />
        <TextInput size="xs" placeholder="method, e.g. tools/call or tools/" aria-label="Method" value={method} onChange={(e) => setMethod(e.currentTarget.value)} />
        <Checkbox size="xs" label="Errors only" checked={errors} onChange={(e) => setErrors(e.currentTarget.checked)} />
      </Group>
      {error && <ErrorNotice {...error} />}
      {entries?.length === 0 && <Text size="xs" c="dimmed">No messages match — connect or Test the server, or clear the filters.</Text>}
      <Stack gap={0} style={{ maxHeight: 260, overflow: 'auto' }}>
        {entries?.map((e, i) => (
          <div key={`${e.t}-${i}`}>
            <Button variant="subtle" size="compact-xs" color={entrySummary(e).includes(' error: ') ? 'red' : 'gray'} ff="monospace" justify="start" fullWidth
              aria-label={`${entrySummary(e)}, ${e.size} bytes`} aria-expanded={open === i} onClick={() => setOpen(open === i ? null : i)}>
              {new Date(e.t).toLocaleTimeString()} {entrySummary(e)}
            </Button>
            {open === i && <Code block style={{ maxHeight: 200, overflow: 'auto' }}>{typeof e.body === 'string' ? e.body : JSON.stringify(e.body, null, 2)}</Code>}
          </div>
        ))}
      </Stack>
    </Stack>
  );
}
