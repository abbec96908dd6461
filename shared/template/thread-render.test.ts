/**
 * Which places of a thread are templates (docs/architecture.md#templates): the ones the user
 * authored. A model's reply and a tool run's result are sent as written, whatever template
 * syntax they hold; a hand-written assistant message and a typed tool result are rendered; a
 * `settings.literal` thread renders nothing.
 */
import { describe, expect, it } from 'vitest';
import { threadWith, userMessage } from '../../tests/support/threads';
import type { Thread } from '../thread/schema';
import type { AssistantMessage } from '../thread/messages';
import { renderThread, templatePlacesOf } from './thread-render';

const read = async () => ({ kind: 'missing' as const });
const render = (t: Thread) => renderThread(t, { read, workingDirectory: '/ws', now: new Date(2026, 0, 1) });
const textOf = (m: Thread['context']['messages'][number]) => (m.content[0] as { text: string }).text;

/** A thread: a user message with a template, a model's reply calling a tool, the tool's result, the model's answer. */
function conversation(reply: string, toolText: string, typed?: boolean): Thread {
  const call: AssistantMessage = {
    id: 'a1',
    role: 'assistant',
    model: 'scripted/scripted',
    content: [{ type: 'text', text: 'Reading.' }],
    toolCalls: [{ id: 'c1', name: 'web_fetch', arguments: {}, output: { content: [{ type: 'text', text: toolText }], isError: false, ...(typed ? { typed } : {}) } }],
  };
  const answer: AssistantMessage = { id: 'a2', role: 'assistant', model: 'scripted/scripted', content: [{ type: 'text', text: reply }] };
  const t = threadWith({ systemPrompt: 'Help {{ who }}.', messages: [userMessage('Hi, I am {{ who | upper }}', 'u1'), call, answer, userMessage('Go on, {{ who }}', 'u2')] });
  t.context.variables = { who: 'Ada', x: 'X', items: '[1]' };
  return t;
}

describe('the places that are templates', () => {
  it('a model reply with an unbalanced {% if %} is sent as written and the thread still renders', async () => {
    const reply = 'In Jinja write {% if user %}Hello {{ user.name }} — and {% for x in items %} without the end tags.';
    const r = await render(conversation(reply, 'ok'));
    const [u1, , a2, u2] = r.thread.context.messages;
    expect(textOf(a2)).toBe(reply);
    expect(textOf(u1)).toBe('Hi, I am ADA');
    expect(textOf(u2)).toBe('Go on, Ada');
    expect(r.thread.context.systemPrompt).toBe('Help Ada.');
    expect(Object.keys(r.renders.places).sort()).toEqual(['message:u1', 'message:u2', 'systemPrompt']);
  });

  it("a tool run's result reaches the model literally; a result the user typed is a template", async () => {
    const page = 'Page: {{ x }} {{ who }} {% if x %}open';
    const ran = await render(conversation('done', page));
    const out = (ran.thread.context.messages[1] as AssistantMessage).toolCalls![0].output!;
    expect((out.content[0] as { text: string }).text).toBe(page);
    const typed = await render(conversation('done', 'Result for {{ who }}: {{ x | lower }}', true));
    const typedOut = (typed.thread.context.messages[1] as AssistantMessage).toolCalls![0].output!;
    expect((typedOut.content[0] as { text: string }).text).toBe('Result for Ada: x');
  });

  it('an assistant message the user wrote (no model) is a template, a model-written one is not', async () => {
    const t = conversation('{{ who }}', 'ok');
    const byHand = t.context.messages[2] as AssistantMessage;
    delete byHand.model;
    const r = await render(t);
    expect(textOf(r.thread.context.messages[2])).toBe('Ada');
    expect(templatePlacesOf(conversation('x', 'y')).map((p) => p.place)).toEqual([
      { kind: 'systemPrompt' },
      { kind: 'message', messageId: 'u1' },
      { kind: 'message', messageId: 'u2' },
    ]);
  });

  it('a literal thread renders nothing: every text is sent byte for byte', async () => {
    const t = conversation('{% if %}', '{{ x }}');
    t.settings = { literal: true };
    const before = structuredClone(t);
    const r = await render(t);
    expect(r.thread).toEqual(before);
    expect(r.renders.places).toEqual({});
  });
});
