/**
 * Turns the messages of a got MCP prompt (`prompts/get`) into thread messages: text as text,
 * an image as an image (user) or a line naming it (assistant, which holds text only), an
 * embedded resource as a resource part (user) or its text (assistant), a resource link as a
 * line naming its URI.
 */
import type { McpPromptMessage } from '../../../../shared/protocol/contract/mcp-resources';
import type { Message } from '../../../../shared/thread/messages';

type Block = { type: string; text?: string; mimeType?: string; data?: string; uri?: string; resource?: { uri: string; mimeType?: string; text?: string; blob?: string } };

/** The thread messages for `messages`, with ids from `newId`. */
export function promptToMessages(messages: McpPromptMessage[], newId: () => string): Message[] {
  return messages.map((m): Message => {
    const c = m.content as Block;
    if (m.role === 'user') {
      if (c.type === 'image' && c.data && c.mimeType) return { id: newId(), role: 'user', content: [{ type: 'image', mimeType: c.mimeType, data: c.data }] };
      if (c.type === 'resource' && c.resource) return { id: newId(), role: 'user', content: [{ type: 'resource', resource: c.resource }] };
    }
    return { id: newId(), role: m.role, content: [{ type: 'text', text: blockText(c) }] };
  });
}

function blockText(c: Block): string {
  if (c.type === 'text') return c.text ?? '';
  if (c.type === 'resource' && c.resource) return c.resource.text ?? `[resource ${c.resource.uri}${c.resource.mimeType ? ` ${c.resource.mimeType}` : ''}]`;
  if (c.type === 'resource_link') return `[resource ${c.uri ?? ''}]`;
  return `[${c.type}${c.mimeType ? ` ${c.mimeType}` : ''}]`;
}
