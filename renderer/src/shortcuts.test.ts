/** The shortcut table: each listed combination is bound to exactly its own action, and a combination with other modifiers binds nothing. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SHORTCUTS, keyLabel, matchesKey } from './shortcuts';

type Ev = { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean };

/** The keydown event a person makes for `combo` (Mod pressed as Ctrl, or as Cmd with `mac`). */
function eventFor(combo: string, mac = false): Ev {
  const parts = combo.split('+');
  const key = parts.pop()!;
  const shift = parts.includes('Shift') || key === '?';
  const mod = parts.includes('Mod');
  return { key: key.length === 1 && shift && /[a-z]/i.test(key) ? key.toUpperCase() : key, ctrlKey: parts.includes('Ctrl') || (mod && !mac), metaKey: mod && mac, shiftKey: shift, altKey: false };
}

const bound = (e: Ev) => SHORTCUTS.filter((s) => s.keys.some((k) => matchesKey(k, e))).map((s) => s.action);

describe('SHORTCUTS', () => {
  it('every combination the help sheet lists binds its own action and no other, with Ctrl and with Cmd', () => {
    for (const s of SHORTCUTS)
      for (const k of s.keys)
        for (const mac of k.includes('Mod') ? [false, true] : [false]) expect({ k, mac, actions: bound(eventFor(k, mac)) }).toEqual({ k, mac, actions: [s.action] });
  });

  it('a listed combination with a modifier added or Alt held binds nothing (or only the Shift variant listed)', () => {
    const combos = SHORTCUTS.flatMap((s) => s.keys);
    fc.assert(
      fc.property(fc.constantFrom(...combos), fc.constantFrom('ctrlKey', 'metaKey', 'altKey', 'shiftKey') as fc.Arbitrary<keyof Ev>, (combo, extra) => {
        const e = eventFor(combo);
        if (e[extra]) return; // already down
        const changed = { ...e, [extra]: true };
        const actions = bound(changed);
        if (extra === 'shiftKey') {
          // Shift is part of some combinations (Mod+Shift+Z is Redo): another listed one may take it; a symbol ignores it.
          const listed = combos.filter((c) => matchesKey(c, changed));
          expect(actions.length).toBe(new Set(listed.map((c) => SHORTCUTS.find((s) => s.keys.includes(c))!.action)).size);
        } else if (extra === 'metaKey' && combo.startsWith('Mod+')) {
          expect(actions.length).toBeLessThanOrEqual(1); // Ctrl and Cmd both held: still Mod
        } else {
          expect(actions).toEqual([]);
        }
      }),
    );
  });

  it('labels spell Mod for the platform and Escape as Esc', () => {
    expect(keyLabel('Mod+Shift+Enter', 'Ctrl')).toBe('Ctrl+Shift+Enter');
    expect(keyLabel('Mod+K', '⌘')).toBe('⌘+K');
    expect(keyLabel('Escape', 'Ctrl')).toBe('Esc');
  });
});
