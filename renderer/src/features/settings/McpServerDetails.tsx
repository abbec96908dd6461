/**
 * One MCP server in detail (Settings → MCP servers → Details): what `initialize` answered
 * (server name and version, capabilities, instructions), the OAuth sign-in step by step for a
 * remote server, the roots announced to it (editable: saving sends
 * `notifications/roots/list_changed`) and its protocol log.
 */
import { useState } from 'react';
import { Anchor, Badge, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import type { McpServerInfo } from '../../../../shared/protocol/host-api';
import { useApp } from '../../state/context';
import { ErrorNotice, errorProps, type ErrorNoticeProps } from '../../ui/ErrorNotice';
import { McpProtocolLog } from './McpProtocolLog';

const STEPS = ['discovery', 'registration', 'authorization', 'token', 'connected'] as const;

/** The OAuth steps as words with their state: done, the current one running / waiting / failed. */
export function authSteps(auth: NonNullable<McpServerInfo['auth']>): { step: string; state: 'done' | 'running' | 'waiting' | 'failed' | 'todo' }[] {
  const at = auth.step === 'refresh' ? STEPS.indexOf('token') : STEPS.indexOf(auth.step);
  return STEPS.map((step, i) => ({
    step: auth.step === 'refresh' && i === at ? 'refresh' : step,
    state: i < at || (i === at && auth.state === 'done') ? 'done' : i === at ? auth.state : 'todo',
  }));
}

const STEP_COLOR = { done: 'teal', running: 'yellow', waiting: 'blue', failed: 'red', todo: 'gray' } as const;

/** The details of `info`. */
export function McpServerDetails({ info }: { info: McpServerInfo }) {
  const app = useApp();
  const [roots, setRoots] = useState((info.roots ?? []).join('\n'));
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<ErrorNoticeProps | null>(null);
  const saveRoots = async () => {
    const list = roots.split('\n').map((r) => r.trim()).filter(Boolean);
    try {
      const r = await app.host.call('mcp.setRoots', { server: info.name, roots: list });
      setError(null);
      setSaved(`Roots announced to ${info.name}: ${r.roots?.length ?? 0} folder${r.roots?.length === 1 ? '' : 's'}.`);
    } catch (e) {
      setError(errorProps(`Could not set the roots of ${info.name}`, e));
    }
  };
  const signIn = async () => {
    try {
      await app.host.call('mcp.authorize', { server: info.name });
    } catch (e) {
      setError(errorProps(`Could not start the sign-in to ${info.name}`, e));
    }
  };
  const caps = Object.keys(info.capabilities ?? {});
  return (
    <Stack gap={6} pl="sm" role="region" aria-label={`Details of ${info.name}`}>
      {error && <ErrorNotice {...error} onClose={() => setError(null)} />}
      {info.serverInfo ? (
        <Text size="xs" aria-label="Server info">
          Server: <b>{info.serverInfo.title ?? info.serverInfo.name}</b> {info.serverInfo.version}
        </Text>
      ) : (
        <Text size="xs" c="dimmed">Not connected yet — Test it to see what the server says about itself.</Text>
      )}
      {caps.length > 0 && (
        <Group gap={4} aria-label="Capabilities">
          <Text size="xs">Capabilities:</Text>
          {caps.map((c) => <Badge key={c} size="xs" variant="outline">{c}</Badge>)}
        </Group>
      )}
      {info.instructions && (
        <Stack gap={0}>
          <Text size="xs">Instructions:</Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap', maxHeight: 120, overflow: 'auto' }} aria-label="Instructions">{info.instructions}</Text>
        </Stack>
      )}
      {(info.transport === 'http' || info.transport === 'sse') && (
        <Stack gap={2} aria-label="Sign-in">
          {info.auth && (
            <Group gap={4}>
              <Text size="xs">Sign-in:</Text>
              {authSteps(info.auth).map((s) => (
                <Badge key={s.step} size="xs" variant="light" color={STEP_COLOR[s.state]} aria-label={`${s.step}: ${s.state}`}>{s.step} · {s.state}</Badge>
              ))}
            </Group>
          )}
          {info.auth?.state === 'failed' && <Text size="xs" c="red">The {info.auth.step} step failed: {info.auth.error}</Text>}
          <Group gap={6}>
            {info.auth?.state === 'waiting' && info.auth.url && (
              <Anchor size="xs" href={info.auth.url} target="_blank" rel="noreferrer">Open the sign-in page</Anchor>
            )}
            <Button size="compact-xs" variant="light" onClick={() => void signIn()}>{info.auth ? 'Sign in again' : 'Sign in'}</Button>
          </Group>
        </Stack>
      )}
      <Textarea size="xs" label="Roots (one absolute folder per line)" autosize minRows={1} maxRows={5} value={roots} onChange={(e) => setRoots(e.currentTarget.value)} />
      <Group gap={6}>
        <Button size="compact-xs" variant="light" onClick={() => void saveRoots()}>Save roots</Button>
        {saved && <Text size="xs" c="teal">{saved}</Text>}
      </Group>
      <McpProtocolLog server={info.name} />
    </Stack>
  );
}
