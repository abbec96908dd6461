/**
 * Drives a {@link Model} through an editing session: by the clock (keystrokes at set times,
 * frames arriving after the link's latency: what bytes, CPU and memory are measured on), or
 * in an order chosen step by step (the property runs: any interleaving of keystrokes and
 * frames, as fast-check's scheduler picks them in the two-windows tests). Both keep each
 * window's cursor as its editor would ({@link Cursors}) and can feed a {@link Checker}.
 */
import { cpuMs } from '../lib';
import type { Checker } from './check';
import { Cursors, readable } from './check';
import type { Model } from './model';
import { drain } from './net';

/** One step of a window: type a character, press Backspace, or click near the other window's cursor. */
export type Key = 'ins' | 'del' | 'jump';

/** A keystroke (or click) of window `w` at virtual time `at` ms. */
export interface TimedKey {
  at: number;
  w: number;
  key: Key;
  /** For a jump: the offset from the other window's cursor. */
  offset?: number;
}

/** Something a window does besides typing, at virtual time `at`. */
export interface TimedAction {
  at: number;
  w: number;
  kind: 'delete' | 'undo';
  /** The message deleted. */
  id?: string;
}

export interface Session {
  /** The message each window types into. */
  fields: string[];
  /** Each window's cursor at first; ignored in `end` mode. */
  starts: number[];
  /** `end`: every keystroke at the end of the text, as the two-windows tests type. */
  mode: 'cursor' | 'end';
  keys: TimedKey[];
  actions?: TimedAction[];
  /** Window `w`'s `k`-th typed character. */
  char: (w: number, k: number) => string;
}

/** CPU spent, by who spent it, and what was typed. */
export interface Spent {
  /** ms in the typing window: the keystroke, its update and sending it. */
  typingMs: number;
  /** ms in windows taking frames from the host (other windows' edits, answers). */
  windowMs: number;
  /** ms in the host. */
  hostMs: number;
  /** Keystrokes that reached a model (type or delete). */
  keystrokes: number;
  /** Keystrokes not made because the window no longer showed the message. */
  skipped: number;
}

/** Average CPU ms of one `drain()` with nothing to run, to take out of every step. */
export async function drainCost(samples = 400): Promise<number> {
  await drain();
  const c0 = process.cpuUsage();
  for (let i = 0; i < samples; i++) await drain();
  return cpuMs(c0) / samples;
}

/** Perform window `w`'s `key`. Returns false when its message is gone in that window. */
function press(model: Model, s: Session, cursors: Cursors, typed: number[], w: number, k: TimedKey | { key: Key; offset?: number }, check?: Checker): boolean {
  const id = s.fields[w];
  const text = model.textOf(w, id);
  if (text === undefined) return false;
  if (s.mode === 'end') cursors.pos[w] = text.length;
  const c = cursors.pos[w];
  if (k.key === 'jump') {
    const other = cursors.pos[(w + 1) % cursors.pos.length];
    cursors.pos[w] = Math.max(0, Math.min(text.length, other + (k.offset ?? 0)));
    return true;
  }
  if (k.key === 'del') {
    if (c === 0) return true;
    check?.remove(w, text[c - 1]);
    model.type(w, id, c - 1, 1, '');
    cursors.typed(w, 1, 0);
    return true;
  }
  const ch = s.char(w, typed[w]++);
  check?.insert(w, ch);
  model.type(w, id, c, 0, ch);
  cursors.typed(w, 0, 1);
  return true;
}

/** Deliver frames until nothing is in flight and no window waits for the host. */
export async function settle(model: Model, cursors?: Cursors, check?: Checker): Promise<void> {
  for (let guard = 0; ; guard++) {
    const busy = model.net.busy();
    if (busy.length === 0) {
      await drain();
      if (model.net.busy().length === 0) {
        if (model.settled()) return;
        throw new Error(`${model.name}: a window waits for the host with nothing in flight`);
      }
      continue;
    }
    if (guard > 1_000_000) throw new Error(`${model.name}: the windows never settle`);
    model.net.deliver(busy[0]);
    await drain();
    cursors?.follow();
    check?.observe();
  }
}

/** Run `s` by the clock; returns the CPU spent by role (less the driver's own drains). */
export async function runTimed(model: Model, s: Session, check?: Checker): Promise<Spent> {
  const net = model.net;
  const cursors = new Cursors(model, s.fields, s.starts);
  const typed = s.fields.map(() => 0);
  const actions = s.actions ?? [];
  const spent: Spent = { typingMs: 0, windowMs: 0, hostMs: 0, keystrokes: 0, skipped: 0 };
  const idle = await drainCost();
  let ki = 0;
  let ai = 0;
  while (ki < s.keys.length || ai < actions.length || net.nextAt() < Infinity) {
    const tk = s.keys[ki]?.at ?? Infinity;
    const ta = actions[ai]?.at ?? Infinity;
    const tn = net.nextAt();
    net.now = Math.max(net.now, Math.min(tk, ta, tn));
    if (model.tick) {
      const c0 = process.cpuUsage();
      model.tick(net.now);
      spent.hostMs += cpuMs(c0);
    }
    const c0 = process.cpuUsage();
    let role: 'typingMs' | 'windowMs' | 'hostMs' = 'typingMs';
    if (tn <= tk && tn <= ta) {
      role = net.deliverNext().dir === 'up' ? 'hostMs' : 'windowMs';
    } else if (ta <= tk) {
      const a = actions[ai++];
      if (a.kind === 'delete') model.deleteMessage(a.w, a.id ?? s.fields[a.w]);
      else model.undo(a.w);
    } else {
      const k = s.keys[ki++];
      if (!press(model, s, cursors, typed, k.w, k, check)) spent.skipped++;
      else if (k.key !== 'jump') spent.keystrokes++;
    }
    await drain();
    spent[role] += Math.max(0, cpuMs(c0) - idle);
    cursors.follow();
    check?.observe();
  }
  await settle(model, cursors, check);
  model.tick?.(Infinity);
  return spent;
}

/** A session whose order is chosen: each window's keys, and the choices that pick each step. */
export interface Plan {
  fields: string[];
  starts: number[];
  mode: 'cursor' | 'end';
  /** Each window's keys, in order. */
  keys: { key: Key; offset?: number }[][];
  /** Window `w` deletes message `id` at a step the choices pick. */
  deletes?: { w: number; id: string };
  /** Step choices; each picks one of the steps possible then (modulo their count). */
  choices: number[];
  /** Instead of `choices`: pick a step by its label (`window 0 ins at 1`, `frame host → window 1`, …); -1 takes the first. */
  pick?: (labels: string[], step: number) => number;
  char: (w: number, k: number) => string;
}

/**
 * Run `p`: at every step the possible steps are each window's next key (while it shows its
 * message), the delete (once), and the first frame in flight on each channel; the next
 * choice picks one. When the choices run out the first possible step is taken, then
 * everything settles.
 */
export async function runChosen(model: Model, p: Plan, check?: Checker, trace?: string[]): Promise<Cursors> {
  const cursors = new Cursors(model, p.fields, p.starts);
  const typed = p.fields.map(() => 0);
  const next = p.keys.map(() => 0);
  const s: Session = { fields: p.fields, starts: p.starts, mode: p.mode, keys: [], char: p.char };
  let deleted = !p.deletes;
  let i = 0;
  for (;;) {
    const steps: [string, () => void][] = [];
    p.keys.forEach((keys, w) => {
      if (next[w] < keys.length && model.textOf(w, p.fields[w]) !== undefined) {
        steps.push([`window ${w} ${keys[next[w]].key} at ${p.mode === 'end' ? 'the end' : cursors.pos[w]}`, () => void press(model, s, cursors, typed, w, keys[next[w]++], check)]);
      }
    });
    if (!deleted) steps.push([`window ${p.deletes!.w} deletes ${p.deletes!.id}`, () => void ((deleted = true), model.deleteMessage(p.deletes!.w, p.deletes!.id))]);
    for (const ch of model.net.busy()) steps.push([`frame ${ch.name}`, () => model.net.deliver(ch)]);
    if (steps.length === 0) break;
    const chosen = p.pick ? Math.max(0, p.pick(steps.map(([l]) => l), i++)) : i < p.choices.length ? p.choices[i++] % steps.length : 0;
    const [label, run] = steps[chosen];
    run();
    await drain();
    cursors.follow();
    check?.observe();
    if (trace) trace.push(`${label.padEnd(34)} → ${p.fields.map((id, w) => `w${w} ${readable(model.textOf(w, id))}`).join(', ')}, host ${readable(model.hostTextOf(p.fields[0]))}`);
  }
  await settle(model, cursors, check);
  return cursors;
}
