/**
 * The find state the message list shares with its fields: the query and the current match.
 * A field asks for its own highlight with {@link useFieldHighlight}.
 */
import { createContext, useContext, useMemo } from 'react';
import type { FieldHighlight } from '../../ui/find-highlight';
import type { FieldKey, FindMatch } from './find';

export interface FindState {
  query: string;
  current: FindMatch | null;
}

export const FindContext = createContext<FindState>({ query: '', current: null });

/** What to highlight in field `field` of message `messageId`; undefined when nothing is searched. */
export function useFieldHighlight(messageId: string, field: FieldKey): FieldHighlight | undefined {
  const { query, current } = useContext(FindContext);
  const at = current && current.messageId === messageId && current.field === field ? current.from : -1;
  return useMemo(() => (query ? { query, current: at } : undefined), [query, at]);
}
