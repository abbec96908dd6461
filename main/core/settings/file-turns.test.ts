import { describe, expect, it } from 'vitest';
import { inTurn } from './file-turns';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('inTurn', () => {
  it('runs the changes of one file one after another, in order; a failed one does not stop the next', async () => {
    const log: string[] = [];
    const change = (name: string, fail = false) => async () => {
      log.push(`${name} starts`);
      await tick();
      log.push(`${name} ends`);
      if (fail) throw new Error(`${name} failed`);
      return name;
    };
    const results = await Promise.allSettled([inTurn('/x/a.json', change('one')), inTurn('/x/./a.json', change('two', true)), inTurn('/x/a.json', change('three'))]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['one', 'two failed', 'three']);
    expect(log).toEqual(['one starts', 'one ends', 'two starts', 'two ends', 'three starts', 'three ends']);
  });

  it('changes of different files do not wait for each other', async () => {
    const log: string[] = [];
    let release!: () => void;
    const blocked = inTurn('/x/a.json', () => new Promise<void>((r) => (release = r)));
    await inTurn('/x/b.json', async () => log.push('b ran'));
    expect(log).toEqual(['b ran']);
    release();
    await blocked;
  });
});
