/**
 * Browse an MCP server's resources and prompts from the playground: list resources (page by
 * page), read one (shown by type), subscribe to its updates, fill a resource template's
 * variables (with completion) and read what it expands to (RFC 6570, the SDK's UriTemplate);
 * attach a read resource to the thread's user message; fill a prompt's arguments (with
 * completion), get it and insert its messages into the thread as one undoable edit.
 */
import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Badge, Button, Group, Modal, Select, Stack, Tabs, Text, UnstyledButton } from '@mantine/core';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { McpPrompt, McpResource, McpResourceContents, McpResourceTemplate } from '../../../../shared/protocol/contract/mcp-resources';
import type { McpServerInfo } from '../../../../shared/protocol/host-api';
import { newId } from '../../../../shared/thread/ids';
import { useApp } from '../../state/context';
import { useSession } from '../../state/hooks';
import { ErrorNotice, errorProps, type ErrorNoticeProps } from '../../ui/ErrorNotice';
import { ResourceView } from './ResourceView';
import { CompletedField } from './CompletedField';
import { promptToMessages } from './prompt-messages';

/** The dialog; `readOnly` hides the actions that edit the thread. */
export function McpBrowser({ onClose, readOnly }: { onClose(): void; readOnly: boolean }) {
  const app = useApp();
  const [servers, setServers] = useState<McpServerInfo[] | null>(null);
  const [server, setServer] = useState<string | null>(null);
  const [error, setError] = useState<ErrorNoticeProps | null>(null);
  useEffect(() => {
    app.host.call('mcp.servers', {}).then((l) => { setServers(l); if (l[0]) setServer(l[0].name); }, (err) => setError(errorProps('Could not list MCP servers', err)));
  }, [app]);
  return (
    <Modal opened onClose={onClose} title="MCP resources and prompts" size="xl">
      <Stack gap="xs">
        {servers && servers.length === 0 && <Text size="sm" c="dimmed">No MCP servers configured — add one in Settings → MCP servers.</Text>}
        {servers && servers.length > 0 && <Select label="Server" data={servers.map((s) => s.name)} value={server} onChange={setServer} allowDeselect={false} />}
        {error && <ErrorNotice {...error} />}
        {server && (
          <Tabs defaultValue="resources" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="resources">Resources</Tabs.Tab>
              <Tabs.Tab value="templates">Templates</Tabs.Tab>
              <Tabs.Tab value="prompts">Prompts</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="resources" pt="xs"><ResourcesTab key={server} server={server} readOnly={readOnly} onDone={onClose} /></Tabs.Panel>
            <Tabs.Panel value="templates" pt="xs"><TemplatesTab key={server} server={server} readOnly={readOnly} onDone={onClose} /></Tabs.Panel>
            <Tabs.Panel value="prompts" pt="xs"><PromptsTab key={server} server={server} readOnly={readOnly} onDone={onClose} /></Tabs.Panel>
          </Tabs>
        )}
      </Stack>
    </Modal>
  );
}

/** Adds `resource` to the last message when it is a user message, else to a new user message (one edit). */
function useAttach(): (resource: McpResourceContents) => void {
  const session = useSession()!;
  return (resource) =>
    session.edit((d) => {
      const last = d.context.messages.at(-1);
      if (last?.role === 'user') last.content.push({ type: 'resource', resource });
      else d.context.messages.push({ id: newId('msg'), role: 'user', content: [{ type: 'text', text: '' }, { type: 'resource', resource }] });
    });
}

/** What was read, with Attach and (for listed resources) Subscribe. */
function ReadResult({ server, uri, readOnly, subscribable, onDone }: { server: string; uri: string; readOnly: boolean; subscribable: boolean; onDone(): void }) {
  const app = useApp();
  const attach = useAttach();
  const [contents, setContents] = useState<McpResourceContents[] | null>(null);
  const [error, setError] = useState<ErrorNoticeProps | null>(null);
  const [subscribed, setSubscribed] = useState(false);
  const updates = useAtomValue(app.mcpResourceUpdatesAtom)[`${server} ${uri}`] ?? 0;
  const read = () => app.host.call('mcp.readResource', { server, uri }).then((r) => { setContents(r.contents); setError(null); }, (err) => setError(errorProps(`Could not read ${uri}`, err)));
  useEffect(() => { void read(); }, [server, uri]); // eslint-disable-line react-hooks/exhaustive-deps -- once per resource
  const toggle = () => app.host.call('mcp.subscribe', { server, uri, subscribe: !subscribed }).then(() => setSubscribed(!subscribed), (err) => setError(errorProps(`Could not ${subscribed ? 'unsubscribe from' : 'subscribe to'} ${uri}`, err)));
  return (
    <Stack gap={4} aria-label="Read resource">
      {error && <ErrorNotice {...error} />}
      {contents?.map((c, i) => <ResourceView key={i} resource={c} />)}
      <Group gap={6}>
        {!readOnly && contents && contents.length > 0 && <Button size="compact-xs" onClick={() => { contents.forEach(attach); onDone(); }}>Attach to user message</Button>}
        {subscribable && <Button size="compact-xs" variant="light" onClick={() => void toggle()}>{subscribed ? 'Unsubscribe' : 'Subscribe'}</Button>}
        {updates > 0 && (
          <Badge color="orange" variant="light" aria-label={`${updates} updates`}>
            updated ×{updates}
          </Badge>
        )}
        {updates > 0 && <Button size="compact-xs" variant="subtle" onClick={() => void read()}>Read again</Button>}
      </Group>
    </Stack>
  );
}

function ResourcesTab({ server, readOnly, onDone }: { server: string; readOnly: boolean; onDone(): void }) {
  const app = useApp();
  const [items, setItems] = useState<McpResource[] | null>(null);
  const [cursor, setCursor] = useState<string | undefined>();
  const [picked, setPicked] = useState<string | null>(null);
  const [error, setError] = useState<ErrorNoticeProps | null>(null);
  const load = (from?: string) =>
    app.host.call('mcp.resources', { server, ...(from ? { cursor: from } : {}) }).then((r) => { setItems((prev) => [...(from ? prev ?? [] : []), ...r.resources]); setCursor(r.nextCursor); }, (err) => { setItems([]); setError(errorProps(`Could not list the resources of ${server}`, err)); });
  useEffect(() => { void load(); }, [server]); // eslint-disable-line react-hooks/exhaustive-deps -- once per server
  return (
    <Stack gap={4}>
      {error && <ErrorNotice {...error} />}
      {items?.length === 0 && !error && <Text size="sm" c="dimmed">{server} lists no resources.</Text>}
      <Stack gap={0} role="listbox" aria-label="Resources" style={{ maxHeight: 220, overflow: 'auto' }}>
        {items?.map((r) => (
          <UnstyledButton key={r.uri} role="option" aria-selected={picked === r.uri} onClick={() => setPicked(r.uri)} px={4} style={{ background: picked === r.uri ? 'var(--mantine-color-blue-light)' : undefined }}>
            <Text size="sm">{r.title ?? r.name} <Text span size="xs" c="dimmed" ff="monospace">{r.uri}{r.mimeType ? ` · ${r.mimeType}` : ''}</Text></Text>
          </UnstyledButton>
        ))}
      </Stack>
      {cursor && <Button size="compact-xs" variant="subtle" onClick={() => void load(cursor)}>More resources</Button>}
      {picked && <ReadResult key={picked} server={server} uri={picked} readOnly={readOnly} subscribable onDone={onDone} />}
    </Stack>
  );
}

function TemplatesTab({ server, readOnly, onDone }: { server: string; readOnly: boolean; onDone(): void }) {
  const app = useApp();
  const [items, setItems] = useState<McpResourceTemplate[] | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [vars, setVars] = useState<Record<string, string>>({});
  const [uri, setUri] = useState<string | null>(null);
  const [error, setError] = useState<ErrorNoticeProps | null>(null);
  useEffect(() => {
    app.host.call('mcp.templates', { server }).then((r) => setItems(r.resourceTemplates), (err) => { setItems([]); setError(errorProps(`Could not list the resource templates of ${server}`, err)); });
  }, [app, server]);
  let template: UriTemplate | null = null;
  let templateError: string | null = null;
  try {
    template = picked ? new UriTemplate(picked) : null;
  } catch (err) {
    templateError = `Not a valid URI template: ${(err as Error).message}`;
  }
  return (
    <Stack gap={4}>
      {error && <ErrorNotice {...error} />}
      {items?.length === 0 && !error && <Text size="sm" c="dimmed">{server} lists no resource templates.</Text>}
      {items && items.length > 0 && (
        <Select label="Template" data={items.map((t) => ({ value: t.uriTemplate, label: `${t.title ?? t.name} — ${t.uriTemplate}` }))} value={picked} onChange={(v) => { setPicked(v); setVars({}); setUri(null); }} />
      )}
      {templateError && <Text size="xs" c="red">{templateError}</Text>}
      {template?.variableNames.map((n) => (
        <CompletedField key={n} server={server} completeRef={{ type: 'ref/resource', uri: picked! }} name={n} label={n} value={vars[n] ?? ''} context={vars}
          onChange={(v) => setVars((p) => ({ ...p, [n]: v }))} />
      ))}
      {template && (
        <Group gap={6}>
          <Text size="xs" ff="monospace" aria-label="Expanded URI">{template.expand(vars)}</Text>
          <Button size="compact-xs" disabled={template.variableNames.some((n) => !vars[n])} onClick={() => setUri(template!.expand(vars))}>Read</Button>
        </Group>
      )}
      {uri && <ReadResult key={uri} server={server} uri={uri} readOnly={readOnly} subscribable={false} onDone={onDone} />}
    </Stack>
  );
}

function PromptsTab({ server, readOnly, onDone }: { server: string; readOnly: boolean; onDone(): void }) {
  const app = useApp();
  const session = useSession()!;
  const [items, setItems] = useState<McpPrompt[] | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [args, setArgs] = useState<Record<string, string>>({});
  const [error, setError] = useState<ErrorNoticeProps | null>(null);
  useEffect(() => {
    app.host.call('mcp.prompts', { server }).then((r) => setItems(r.prompts), (err) => { setItems([]); setError(errorProps(`Could not list the prompts of ${server}`, err)); });
  }, [app, server]);
  const prompt = items?.find((p) => p.name === picked);
  const missing = (prompt?.arguments ?? []).filter((a) => a.required && !args[a.name]);
  const insert = () =>
    app.host.call('mcp.getPrompt', { server, name: picked!, arguments: Object.fromEntries(Object.entries(args).filter(([, v]) => v !== '')) }).then(
      (r) => {
        // One edit: one undo takes the whole prompt back out.
        session.edit((d) => void d.context.messages.push(...promptToMessages(r.messages, () => newId('msg'))));
        onDone();
      },
      (err) => setError(errorProps(`Could not get prompt ${picked}`, err)),
    );
  return (
    <Stack gap={4}>
      {error && <ErrorNotice {...error} />}
      {items?.length === 0 && !error && <Text size="sm" c="dimmed">{server} lists no prompts.</Text>}
      {items && items.length > 0 && (
        <Select label="Prompt" data={items.map((p) => ({ value: p.name, label: p.title ? `${p.title} (${p.name})` : p.name }))} value={picked} onChange={(v) => { setPicked(v); setArgs({}); setError(null); }} />
      )}
      {prompt?.description && <Text size="xs" c="dimmed">{prompt.description}</Text>}
      {prompt?.arguments?.map((a) => (
        <CompletedField key={`${prompt.name} ${a.name}`} server={server} completeRef={{ type: 'ref/prompt', name: prompt.name }} name={a.name} label={a.title ?? a.name} description={a.description}
          required={a.required} value={args[a.name] ?? ''} context={args} onChange={(v) => setArgs((p) => ({ ...p, [a.name]: v }))} />
      ))}
      {prompt && !readOnly && (
        <Group gap={6}>
          <Button size="compact-xs" disabled={missing.length > 0} onClick={() => void insert()}>Insert messages</Button>
          {missing.length > 0 && <Text size="xs" c="dimmed">Fill {missing.map((a) => a.name).join(', ')} first.</Text>}
        </Group>
      )}
    </Stack>
  );
}
