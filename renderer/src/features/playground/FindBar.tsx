/**
 * Find in messages: a search box over every message of the thread, mounted or not (find.ts),
 * with the match count and Previous / Next match (Enter, Shift+Enter). The current match is
 * reported to the message list, which scrolls to it and highlights it.
 */
import { forwardRef, memo, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { ActionIcon, Group, Text, TextInput } from '@mantine/core';
import type { Message } from '../../../../shared/thread/messages';
import { findInMessages, type FindMatch } from './find';
import type { FindState } from './find-context';

export interface FindBarProps {
  messages: readonly Message[];
  /** The query or the current match changed. */
  onChange(state: FindState): void;
}

const sameMatch = (a: FindMatch | null, b: FindMatch | null) =>
  a === b || (!!a && !!b && a.index === b.index && a.messageId === b.messageId && a.field === b.field && a.from === b.from);

/** The find box of the message list. Memoised: the header's changes (a run starting) do not render it again. */
export const FindBar = memo(forwardRef<HTMLInputElement, FindBarProps>(function FindBar({ messages, onChange }, ref) {
  const [query, setQuery] = useState('');
  const [at, setAt] = useState(0);
  // Typing in a message while a query is set searches again, after the keystroke has rendered.
  const searched = useDeferredValue(messages);
  const { matches, truncated } = useMemo(() => findInMessages(searched, query), [searched, query]);
  const i = matches.length ? Math.min(at, matches.length - 1) : -1;
  // The same match after an unrelated edit is the same object: the list does not scroll again.
  const last = useRef<FindMatch | null>(null);
  const found = i >= 0 ? matches[i] : null;
  const current = sameMatch(found, last.current) ? last.current : found;
  useEffect(() => {
    last.current = current;
    onChange({ query, current });
    // onChange is the parent's setter
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query, current]);
  const step = (by: number) => matches.length && setAt((i + by + matches.length) % matches.length);
  const count = !query ? '' : matches.length ? `${i + 1} of ${matches.length}${truncated ? '+' : ''}` : 'No matches';
  return (
    <Group gap={2} wrap="nowrap">
      <TextInput
        ref={ref}
        size="xs"
        w={200}
        aria-label="Find in messages"
        placeholder="Find in messages"
        value={query}
        onChange={(e) => {
          setQuery(e.currentTarget.value);
          setAt(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            step(e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape' && query) {
            e.preventDefault();
            setQuery('');
          }
        }}
      />
      <Text size="xs" c="dimmed" aria-live="polite" miw={count ? 64 : 0} ta="center">{count}</Text>
      <ActionIcon size="sm" variant="subtle" aria-label="Previous match" disabled={matches.length === 0} onClick={() => step(-1)}>↑</ActionIcon>
      <ActionIcon size="sm" variant="subtle" aria-label="Next match" disabled={matches.length === 0} onClick={() => step(1)}>↓</ActionIcon>
    </Group>
  );
}));
