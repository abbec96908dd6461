// Workspace names on a real temp folder: one name per NFC form, names within 255 bytes, and no
// name Windows refuses (device names, trailing dots and spaces), for thread files and folders.
import { beforeEach, describe, expect, it } from 'vitest';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WorkspaceStore } from '../../../main/core/workspace/workspace-store';
import { scriptedThread } from '../../support/threads';
import { tempFolder } from '../../support/temp-folder';

const NFC = 'Caf\u00e9';
const NFD = 'Cafe\u0301';
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const graphemes = (s: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].map((g) => g.segment);

const tmp = tempFolder('stepwise-names-', 'test');
/** The workspace folder of the current test. */
const root = () => tmp('workspace');
let store: WorkspaceStore;
beforeEach(async () => {
  store = new WorkspaceStore(root());
  await store.resolve('');
});

describe('Unicode normalisation', () => {
  it('takes a title typed in NFC and in NFD as one name: the second gets " 2", never a look-alike file', async () => {
    const a = await store.create('', NFC);
    const b = await store.create('', NFD);
    expect([a.path, b.path]).toEqual([`${NFC}.json`, `${NFC} 2.json`]);
    expect((await readdir(root())).sort()).toEqual([`${NFC} 2.json`, `${NFC}.json`]);
    // The title inside is stored in NFC too, and both list under their own title.
    expect((await store.read(b.path)).title).toBe(NFC);
    expect((await store.list()).map((e) => e.title)).toEqual([NFC, NFC]);
    const c = await store.create('', 'Other');
    await expect(store.rename(c.path, NFD)).rejects.toMatchObject({ code: 'exists' });
  });

  it('refuses a folder whose name exists in the other normal form', async () => {
    await store.createFolder(NFC);
    await expect(store.createFolder(NFD)).rejects.toMatchObject({ code: 'exists' });
    await store.createFolder(`Other${NFD}`);
    expect((await readdir(root())).sort()).toEqual([NFC, `Other${NFC}`]);
  });

  it('opens, renames, moves and deletes an NFD-named file from another machine by its NFC name', async () => {
    const thread = scriptedThread([{ text: 'hi' }]);
    await writeFile(path.join(root(), `${NFD}.json`), JSON.stringify({ ...thread, title: NFD }));
    await store.createFolder(`${NFC} folder`);
    expect(await store.resolve(`${NFC}.json`)).toBe(path.join(root(), `${NFD}.json`));
    expect((await store.read(`${NFC}.json`)).id).toBe(thread.id);
    expect((await store.list()).find((e) => e.kind === 'thread')).toMatchObject({ path: `${NFD}.json`, title: NFD, id: thread.id });
    const moved = await store.move(`${NFC}.json`, `${NFC} folder`);
    expect(moved).toMatchObject({ id: thread.id, path: `${NFC} folder/${NFD}.json` });
    const renamed = await store.rename(`${NFC} folder/${NFC}.json`, 'Renamed');
    expect(renamed).toMatchObject({ id: thread.id, path: `${NFC} folder/Renamed.json` });
    await store.delete(`${NFC} folder`);
    expect(await readdir(root())).toEqual([]);
  });
});

describe('name length', () => {
  it.each([
    ['300 × é', '\u00e9'.repeat(300)],
    ['300 × e + combining acute', 'e\u0301'.repeat(300)],
    ['300 × 中', '\u4e2d'.repeat(300)],
    ['100 × a family emoji', '👨‍👩‍👧‍👦'.repeat(100)],
    ['1000 × x', 'x'.repeat(1000)],
  ])('makes a thread titled %s, twice, with names within 244 bytes cut between graphemes', async (_, title) => {
    const a = await store.create('', title);
    const b = await store.create('', title);
    for (const e of [a, b]) {
      expect(bytes(e.path)).toBeLessThanOrEqual(244); // + the atomic save's 11-byte temp suffix ≤ 255
      expect((await store.read(e.path)).title).toBe(title.normalize('NFC'));
    }
    expect(b.path).toMatch(/ 2\.json$/);
    const stem = a.path.slice(0, -'.json'.length);
    const cut = graphemes(stem);
    expect(graphemes(title.normalize('NFC')).slice(0, cut.length)).toEqual(cut);
    // Both still list under the full title, not the cut file name.
    expect((await store.list()).map((e) => e.title)).toEqual([title.normalize('NFC'), title.normalize('NFC')]);
  });

  it('refuses a folder name over 255 bytes, saying the limit, and accepts one of 254', async () => {
    await expect(store.createFolder('\u00e9'.repeat(128))).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining('at most 255 bytes') });
    await expect(store.createFolder(`ok/${'\u00e9'.repeat(300)}`)).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining('at most 255 bytes') });
    await store.createFolder('\u00e9'.repeat(127));
    await store.createFolder('short');
    await expect(store.rename('short', '\u00e9'.repeat(128))).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining('at most 255 bytes') });
    expect((await readdir(root())).sort()).toEqual(['short', '\u00e9'.repeat(127)]);
  });
});

describe('names Windows refuses', () => {
  it.each(['CON', 'con', 'Nul.txt', 'aux .x', 'COM1', 'COM\u00b9', 'lpt\u00b3', 'LPT0', 'prn.tar.gz', 'trailing. ', 'trailing.', 'trailing ', 'a<b', 'ab:c', 'a|b', 'why?', 'tab\there', '.hidden'])(
    'refuses the folder name %j, makes nothing, and refuses renaming a folder to it',
    async (name) => {
      await expect(store.createFolder(name)).rejects.toMatchObject({ code: 'invalid', message: expect.stringMatching(/^refused folder name/) });
      await expect(store.createFolder(`parent/${name}`)).rejects.toMatchObject({ code: 'invalid' });
      await expect(store.create(name, 'A thread')).rejects.toMatchObject({ code: 'invalid' });
      await store.createFolder('Folder');
      await expect(store.rename('Folder', name)).rejects.toMatchObject({ code: 'invalid' });
      expect(await readdir(root())).toEqual(['Folder']);
    },
  );

  it.each([
    ['CON', 'CON_.json'],
    ['con.json', 'con_.json.json'],
    ['COM\u00b9', 'COM\u00b9_.json'],
    ['lpt\u00b2.txt', 'lpt\u00b2_.txt.json'],
    ['nul .txt', 'nul_ .txt.json'],
    ['AUX', 'AUX_.json'],
    ['COM10', 'COM10.json'],
    ['CONSOLE', 'CONSOLE.json'],
    ['trailing. ', 'trailing.json'],
    ['a: b?', 'a_ b_.json'],
  ])('gives a thread titled %j the file %j and keeps the title', async (title, file) => {
    const e = await store.create('', title);
    expect(e.path).toBe(file);
    expect(await readdir(root())).toEqual([file]);
    expect((await store.list())[0]).toMatchObject({ path: file, title });
    const r = await store.rename(file, `${title} `);
    expect(r.path).toBe(file);
  });
});
