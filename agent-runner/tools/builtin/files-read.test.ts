/**
 * `glob` and `grep` stay inside the working directory when a folder in it is a symbolic link to
 * a folder outside: tinyglobby crawls from the pattern's fixed prefix (`a/` of `a/*`) and would
 * list, and grep would read, the outside folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ToolOutput } from '../../../shared/thread/messages';
import { globTool, grepTool } from './files-read';
import { tempFolder } from '../../../tests/support/temp-folder';

const dir = tempFolder('stepwise-files-read-', 'test');

/** The text of a tool result. */
const text = (out: ToolOutput): string => out.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

let cwd: string;
beforeEach(() => {
  cwd = dir('cwd');
  fs.mkdirSync(path.join(cwd, 'own'), { recursive: true });
  fs.writeFileSync(path.join(cwd, 'own', 'note.txt'), 'SECRET in here is fine\n');
  fs.mkdirSync(dir('outside'));
  fs.writeFileSync(dir('outside', 'key.txt'), 'TOPSECRET=42\n');
  fs.symlinkSync(dir('outside'), path.join(cwd, 'a'));
  fs.symlinkSync(path.join(cwd, 'own'), path.join(cwd, 'inner')); // a link that stays inside
});

describe('glob through a linked folder', () => {
  it.each(['a/*', 'a/key.txt', '**/*', '**'])('glob %s lists nothing outside the working directory', async (pattern) => {
    const out = await globTool(cwd, { pattern });
    expect(text(out)).not.toContain('key.txt');
    expect(out.structuredContent).toMatchObject({ kind: 'list' });
    expect((out.structuredContent as { entries: string[] }).entries.every((e) => !e.startsWith('a/'))).toBe(true);
  });

  it('still lists files inside, also through a link that stays inside', async () => {
    expect((await globTool(cwd, { pattern: '**/*' })).structuredContent).toMatchObject({ entries: ['own/note.txt'] });
    expect((await globTool(cwd, { pattern: 'inner/*' })).structuredContent).toMatchObject({ entries: ['inner/note.txt'] });
  });
});

describe('grep through a linked folder', () => {
  it.each(['a/*', 'a/key.txt', '**/*', '**'])('grep with glob %s reads nothing outside the working directory', async (glob) => {
    const out = await grepTool(cwd, { pattern: 'SECRET', glob });
    expect(text(out)).not.toContain('TOPSECRET');
    expect(text(out)).not.toContain('key.txt');
  });

  it('still finds matches inside', async () => {
    expect(text(await grepTool(cwd, { pattern: 'SECRET' }))).toBe('own/note.txt:1: SECRET in here is fine');
    expect(text(await grepTool(cwd, { pattern: 'SECRET', glob: 'inner/*' }))).toBe('inner/note.txt:1: SECRET in here is fine');
  });
});
