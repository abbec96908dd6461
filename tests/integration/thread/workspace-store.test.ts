// The workspace store on a real temp folder: tree operations, safe names, path confinement.
import { beforeEach, describe, expect, it } from 'vitest';
import { mkdir, readFile, readdir, symlink, writeFile, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { WorkspaceStore, WorkspaceError } from '../../../main/core/workspace/workspace-store';
import { safeStem } from '../../../main/core/workspace/names';
import { ThreadFileError } from '../../../main/core/threads/thread-file';
import { tempFolder } from '../../support/temp-folder';

const FIX = path.resolve(__dirname, '../../fixtures/threads');
const tmp = tempFolder('stepwise-ws-', 'test');
/** The workspace folder of the current test. */
const root = () => tmp('workspace');
let store: WorkspaceStore;
beforeEach(async () => {
  store = new WorkspaceStore(root());
});

describe('tree operations', () => {
  it('creates threads and folders and lists them', async () => {
    await store.createFolder('Agents/Research');
    const e = await store.create('Agents', 'Web research', { context: { systemPrompt: 'Search well.', tools: [], messages: [] } });
    expect(e).toMatchObject({ path: 'Agents/Web research.json', kind: 'thread', title: 'Web research' });
    const list = await store.list();
    expect(list.map((x) => [x.path, x.kind])).toEqual([
      ['Agents', 'folder'],
      ['Agents/Research', 'folder'],
      ['Agents/Web research.json', 'thread'],
    ]);
    const t = await store.read('Agents/Web research.json');
    expect(t).toMatchObject({ version: 1, id: e.id, title: 'Web research', context: { systemPrompt: 'Search well.' }, runRefs: [] });
    expect(t.model.provider).toBe('scripted');
  });

  it('does not list datasets (*.dataset.json) as threads: the Evaluate view lists them', async () => {
    await store.createFolder('datasets');
    await writeFile(path.join(root(), 'datasets', 'quiz.dataset.json'), JSON.stringify({ version: 1, name: 'quiz', assertions: [], cases: [] }));
    const e = await store.create('datasets', 'A thread');
    expect((await store.list()).map((x) => x.path)).toEqual(['datasets', e.path]);
  });

  it('gives colliding titles " 2", " 3" and maps illegal characters', async () => {
    const a = await store.create('', 'Plan: A/B?');
    const b = await store.create('', 'Plan: A/B?');
    const c = await store.create('', 'plan_ a_b_');
    expect([a.path, b.path, c.path]).toEqual(['Plan_ A_B_.json', 'Plan_ A_B_ 2.json', 'plan_ a_b_ 3.json']);
    // The listed title is the thread's own title, characters and all.
    expect((await store.list()).find((x) => x.path === 'Plan_ A_B_ 2.json')?.title).toBe('Plan: A/B?');
  });

  it('makes safe file names for awkward titles', () => {
    expect(safeStem('a<b>c:d"e|f?g*h\\i/j')).toBe('a_b_c_d_e_f_g_h_i_j');
    expect(safeStem('CON')).toBe('CON_');
    expect(safeStem('.hidden')).toBe('_hidden');
    expect(safeStem('ends with dots...  ')).toBe('ends with dots');
    expect(safeStem('   ')).toBe('Untitled');
    expect(safeStem('tab\there')).toBe('tab_here');
    expect(safeStem('x'.repeat(300))).toHaveLength(120);
  });

  it('renames the file and the title inside', async () => {
    const e = await store.create('', 'Draft');
    const r = await store.rename(e.path, 'Final version');
    expect(r).toMatchObject({ path: 'Final version.json', title: 'Final version', id: e.id });
    expect(await readdir(root())).toEqual(['Final version.json']);
    expect((await store.read('Final version.json')).title).toBe('Final version');
  });

  it('refuses to rename a thread to a title another thread in the folder has; case changes are fine', async () => {
    await store.create('', 'Alpha');
    const b = await store.create('', 'Beta');
    await expect(store.rename(b.path, 'alpha')).rejects.toMatchObject({ code: 'exists', message: expect.stringContaining('A thread titled "alpha" already exists') });
    expect((await readdir(root())).sort()).toEqual(['Alpha.json', 'Beta.json']);
    await expect(store.rename(b.path, 'BETA')).resolves.toMatchObject({ title: 'BETA' });
  });

  it('moves a thread into a folder and refuses a folder into itself', async () => {
    await store.createFolder('Done');
    const e = await store.create('', 'Task');
    const m = await store.move(e.path, 'Done');
    expect(m).toMatchObject({ path: 'Done/Task.json', id: e.id });
    await expect(store.move('Done', 'Done')).rejects.toThrow('cannot move folder Done into itself');
    await expect(store.move('Done/Task.json', 'Nope')).rejects.toThrow('folder Nope does not exist');
  });

  it('duplicates with a new id, a "(copy)" title and no runs', async () => {
    await copyFile(path.join(FIX, 'stepwise-valid.json'), path.join((await store.resolve('')), 'Weather lookup.json'));
    const d = await store.duplicate('Weather lookup.json');
    expect(d).toMatchObject({ path: 'Weather lookup (copy).json', title: 'Weather lookup (copy)' });
    const copy = await store.read(d.path);
    const orig = await store.read('Weather lookup.json');
    expect(copy.id).not.toBe(orig.id);
    expect(copy.runRefs).toEqual([]);
    expect(copy.context).toEqual(orig.context);
  });

  it('deletes threads and folders and refuses the root', async () => {
    await store.createFolder('Old');
    await store.create('Old', 'x');
    await store.delete('Old');
    expect(await store.list()).toEqual([]);
    await expect(store.delete('')).rejects.toThrow('refused to delete the workspace root');
    await expect(store.delete('missing.json')).rejects.toThrow('missing.json does not exist');
  });

  it('lists a malformed file with its error and never overwrites it', async () => {
    await store.resolve('');
    const bad = path.join(root(), 'Broken.json');
    await writeFile(bad, '{"version": 1, "id": ');
    const list = await store.list();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ path: 'Broken.json', kind: 'thread', title: 'Broken' });
    expect(list[0].error).toMatch(/^Broken\.json: line 1, column 22: the text ends early \(truncated\?\)/);
    await expect(store.read('Broken.json')).rejects.toBeInstanceOf(ThreadFileError);
    const good = await store.read(((await store.create('', 'ok')).path));
    await expect(store.write('Broken.json', good)).rejects.toThrow(/refused to overwrite Broken\.json: the file did not load/);
    expect(await readFile(bad, 'utf8')).toBe('{"version": 1, "id": ');
  });

  it('seeds an empty workspace with the examples, each with a fresh id, and only once', async () => {
    const examples = tmp('examples');
    await mkdir(examples);
    await copyFile(path.join(FIX, 'stepwise-valid.json'), path.join(examples, 'weather.json'));
    await copyFile(path.join(FIX, 'openai-chat.json'), path.join(examples, 'Travel.json'));
    const seeded = await store.seedExamples(examples);
    expect(seeded.map((s) => s.path).sort()).toEqual(['Travel.json', 'Weather lookup.json']);
    expect(seeded.find((s) => s.title === 'Weather lookup')?.id).not.toBe('3f0c9d7e-2b1a-4c55-9e61-0d8a7b6c5e41');
    expect(await store.seedExamples(examples)).toEqual([]);
  });
});

describe('path confinement', () => {
  it.each([
    ['../outside.json', "'..' would leave the workspace"],
    ['a/../../outside.json', "'..' would leave the workspace"],
    ['..\\outside.json', "'..' would leave the workspace"],
    ['/etc/passwd', 'absolute paths are not allowed'],
    ['C:\\Windows\\win.ini', 'absolute paths are not allowed'],
    ['ok\0.json', 'NUL byte'],
  ])('refuses %j', async (p, why) => {
    await expect(store.resolve(p)).rejects.toThrow(why);
    await expect(store.read(p)).rejects.toBeInstanceOf(WorkspaceError);
    await expect(store.create(p, 'x')).rejects.toThrow(why);
  });

  it('refuses a symlink that leads outside, for reads, writes and listing', async () => {
    const outside = tmp('outside');
    await mkdir(outside);
    await writeFile(path.join(outside, 'secret.json'), await readFile(path.join(FIX, 'stepwise-valid.json')));
    await store.resolve('');
    await symlink(outside, path.join(root(), 'escape'));
    await symlink(path.join(outside, 'secret.json'), path.join(root(), 'linked.json'));
    await expect(store.resolve('escape/secret.json')).rejects.toThrow(/leads outside the workspace \(through a symbolic link/);
    await expect(store.read('linked.json')).rejects.toThrow(/leads outside the workspace/);
    await expect(store.create('escape', 'planted')).rejects.toThrow(/leads outside the workspace/);
    await expect(store.resolve('escape/new-folder/new.json')).rejects.toThrow(/leads outside the workspace/);
    expect(await readdir(outside)).toEqual(['secret.json']);
    expect((await store.list()).map((e) => e.path)).toEqual([]);
  });

  it('accepts a symlink that stays inside and normal nested paths', async () => {
    await store.createFolder('real');
    await symlink(path.join(root(), 'real'), path.join(root(), 'alias'));
    expect(await store.resolve('alias/x.json')).toBe(path.join(root(), 'alias', 'x.json'));
    expect(await store.resolve('./a//b/c.json')).toBe(path.join(root(), 'a', 'b', 'c.json'));
  });
});
