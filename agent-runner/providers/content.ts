/**
 * Small conversions shared by the request builders and the agent loop: a message or tool
 * result to text and images, data URLs, and the placeholder sent for a tool call that has no
 * result yet.
 */
import type { DocumentPart, ImagePart, ImageUrlPart, Message, ToolCall, ToolResultPart, UserMessage } from '../../shared/thread/messages';

/** Text sent for a tool call that has no output (it was never run): the APIs require one. */
export const NO_TOOL_OUTPUT = '(no result: this tool call was not run)';

/** `data:<mime>;base64,<data>` for an image part. */
export const dataUrl = (p: ImagePart): string => `data:${p.mimeType};base64,${p.data}`;

/** The URL an OpenAI API is given for an image: its own http(s) URL, or a data: URL of its bytes. */
export const imageUrlOf = (p: ImagePart | ImageUrlPart): string => ('url' in p ? p.url : dataUrl(p));

/** A tool-result part as text; images and audio become a short placeholder. */
export function partText(p: ToolResultPart): string {
  switch (p.type) {
    case 'text':
      return p.text;
    case 'image':
      return `[image ${p.mimeType}]`;
    case 'audio':
      return `[audio ${p.mimeType}]`;
    case 'resource_link':
      return `[resource ${p.name ?? p.title ?? ''} ${p.uri}]`.replace(/ {2}/g, ' ');
    case 'resource':
      return p.resource.text ?? `[resource ${p.resource.uri}${p.resource.mimeType ? ` ${p.resource.mimeType}` : ''}]`;
  }
}

/**
 * A user message's parts as the APIs take them: an attached MCP resource with text becomes a
 * text part headed by its URI, one with an image blob an image, any other blob a line naming
 * its URI, type and size (the APIs have no part for it).
 */
export function userParts(m: UserMessage): Exclude<UserMessage['content'][number], { type: 'resource' }>[] {
  return m.content.map((p): Exclude<UserMessage['content'][number], { type: 'resource' }> => {
    if (p.type !== 'resource') return p;
    const r = p.resource;
    if (r.text !== undefined) return { type: 'text', text: `[resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ''}]\n${r.text}` };
    if (r.blob && r.mimeType?.startsWith('image/')) return { type: 'image', mimeType: r.mimeType, data: r.blob };
    const bytes = Math.floor(((r.blob ?? '').replace(/=+$/, '').length * 3) / 4);
    return { type: 'text', text: `[resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ''}, ${bytes} bytes of binary content not shown]` };
  });
}

/** A tool call's output split into text (non-image parts joined by newlines) and images. */
export function toolOutputParts(call: ToolCall): { text: string; images: ImagePart[]; isError: boolean } {
  const out = call.output;
  if (!out) return { text: NO_TOOL_OUTPUT, images: [], isError: false };
  const images = out.content.filter((p): p is ImagePart => p.type === 'image');
  const texts = out.content.filter((p) => p.type !== 'image').map(partText);
  if (!texts.length && out.structuredContent !== undefined) texts.push(JSON.stringify(out.structuredContent));
  return { text: texts.join('\n'), images, isError: out.isError };
}

/**
 * The text a message stands for: a user message's text parts; for an assistant message with
 * tool results, the results' text (they are what the model answers next); else its text.
 */
export function messageText(m: Message): string {
  if (m.role === 'user') return userParts(m).map((p) => (p.type === 'text' ? p.text : '')).join('');
  const outputs = (m.toolCalls ?? []).filter((c) => c.output);
  if (outputs.length) {
    return outputs
      .map((c) => c.output!.content.map((p) => (p.type === 'text' ? p.text : p.type === 'resource' ? (p.resource.text ?? '') : '')).join(''))
      .join('\n');
  }
  return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** A document's name for APIs that want a file name (its title, else one from its type). */
export function documentName(p: DocumentPart): string {
  if (p.title) return p.title;
  if (p.source.type === 'url') return p.source.url.split('/').pop() || 'document';
  return p.source.mediaType === 'application/pdf' ? 'document.pdf' : 'document.txt';
}

/**
 * A document for the OpenAI APIs, which have no `document` block: text is sent as text (with
 * its title), base64 and URL documents as files in `api`'s spelling (Chat `file`, Responses
 * `input_file`).
 */
export function openAiDocument(p: DocumentPart, api: 'chat' | 'responses'): Record<string, unknown> {
  const src = p.source;
  if (src.type === 'text') return { type: api === 'chat' ? 'text' : 'input_text', text: p.title ? `${p.title}\n\n${src.data}` : src.data };
  if (src.type === 'url') return api === 'chat' ? { type: 'text', text: `[document: ${src.url}]` } : { type: 'input_file', file_url: src.url };
  const file_data = `data:${src.mediaType};base64,${src.data}`;
  return api === 'chat' ? { type: 'file', file: { filename: documentName(p), file_data } } : { type: 'input_file', filename: documentName(p), file_data };
}
