import { afterEach, describe, expect, it } from 'vitest';
import { onStopSignals, SAME_STOP_MS } from './stop-signals';

describe('onStopSignals', () => {
  let off = () => {};
  afterEach(() => off());
  it('counts the group\'s duplicate SIGTERM as one stop, a later one and every Ctrl-C as another', () => {
    let t = 0;
    const seen: [string, number][] = [];
    off = onStopSignals((s, n) => seen.push([s, n]), () => t);
    process.emit('SIGTERM', 'SIGTERM');
    t += 5;
    process.emit('SIGTERM', 'SIGTERM'); // passed on by the wrapper: the same stop
    t += SAME_STOP_MS;
    process.emit('SIGTERM', 'SIGTERM'); // a second kill a second later: stop at once
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGINT', 'SIGINT');
    expect(seen).toEqual([['SIGTERM', 1], ['SIGTERM', 2], ['SIGINT', 3], ['SIGINT', 4]]);
  });
});
