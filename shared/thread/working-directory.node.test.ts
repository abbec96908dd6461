import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { threadWorkingDirectory } from './working-directory.node.js';

describe('threadWorkingDirectory', () => {
  it('defaults to <home>/work/<thread id>; settings.cwd is absolute or relative to the workspace', () => {
    expect(threadWorkingDirectory({ id: 't1' }, '/h', '/h/workspace')).toBe(path.join('/h', 'work', 't1'));
    expect(threadWorkingDirectory({ id: 't1', settings: { cwd: 'proj' } }, '/h', '/h/workspace')).toBe(path.join('/h/workspace', 'proj'));
    expect(threadWorkingDirectory({ id: 't1', settings: { cwd: '/elsewhere' } }, '/h', '/h/workspace')).toBe('/elsewhere');
  });
});
