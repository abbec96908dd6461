/**
 * Frozen renders (docs/architecture.md#templates): the text each run sent for every place that
 * holds template syntax, kept in its run record (`RunRecord.renders`). The next run sends the
 * frozen text of a place again, unless the place's source changed (editing a place invalidates
 * that place only), the variables in effect changed (`inputs`), or it was asked to render afresh.
 * A replay or time-travel run reads `renders.places` to send the same bytes.
 */
import { Type, type Static } from '@sinclair/typebox';

/** One place as a run rendered it: its text parts as written (`source`) and as sent (`text`). */
export const FrozenPlaceSchema = Type.Object({
  source: Type.Array(Type.String()),
  text: Type.Array(Type.String()),
});
export type FrozenPlace = Static<typeof FrozenPlaceSchema>;

/**
 * `places` is keyed by place ({@link placeKey}): `systemPrompt`, `message:<messageId>` (the
 * message's text parts, in order) and `tool:<toolCallId>` (the text parts of that tool call's
 * result). Places without template syntax are not listed: they are sent as written.
 * `inputs` is the JSON of the variables, their types and the scenario's values in effect.
 */
export const FrozenRendersSchema = Type.Object({
  inputs: Type.String(),
  places: Type.Record(Type.String(), FrozenPlaceSchema),
});
export type FrozenRenders = Static<typeof FrozenRendersSchema>;

/** A place of a thread whose text is rendered. */
export type Place = { kind: 'systemPrompt' } | { kind: 'message'; messageId: string } | { kind: 'tool'; toolCallId: string };

/** The key of `place` in {@link FrozenRenders.places} and on the command line (`--place`). */
export function placeKey(place: Place): string {
  return place.kind === 'systemPrompt' ? 'systemPrompt' : place.kind === 'message' ? `message:${place.messageId}` : `tool:${place.toolCallId}`;
}

/** The place a key names, or undefined for a key of no known form. */
export function parsePlaceKey(key: string): Place | undefined {
  if (key === 'systemPrompt') return { kind: 'systemPrompt' };
  const m = /^(message|tool):(.+)$/.exec(key);
  if (!m) return undefined;
  return m[1] === 'message' ? { kind: 'message', messageId: m[2] } : { kind: 'tool', toolCallId: m[2] };
}

/** The frozen text of a place whose source is still `source` under the same inputs, else undefined. */
export function frozenText(frozen: FrozenRenders | undefined, inputs: string, key: string, source: string[]): string[] | undefined {
  const place = frozen?.inputs === inputs ? frozen.places[key] : undefined;
  if (!place || place.source.length !== source.length || place.source.some((s, i) => s !== source[i])) return undefined;
  return place.text;
}
