/**
 * The host's reader of template files: workspace-relative paths only, no way out (absolute
 * paths, `..`, a symbolic link to outside), files over the size limit refused but existing,
 * folders and missing files read as missing; no error carries an absolute path the template did not give.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_TEMPLATE_FILE_BYTES, workspaceFileReader } from './files.node.js';

function workspace(): { root: string; outside: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-tmplfiles-'));
  const root = path.join(base, 'workspace');
  fs.mkdirSync(path.join(root, 'parts'), { recursive: true });
  fs.writeFileSync(path.join(root, 'parts', 'a.md'), 'A');
  fs.writeFileSync(path.join(base, 'secret.txt'), 'SECRET');
  fs.symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'link.txt'));
  fs.writeFileSync(path.join(root, 'big.txt'), Buffer.alloc(MAX_TEMPLATE_FILE_BYTES + 1, 'x'));
  return { root, outside: path.join(base, 'secret.txt') };
}

describe('workspaceFileReader', () => {
  it('reads inside the workspace and refuses every way out', async () => {
    const { root, outside } = workspace();
    const read = workspaceFileReader(root);
    expect(await read('parts/a.md')).toEqual({ kind: 'file', text: 'A' });
    expect(await read('parts/../parts/a.md')).toMatchObject({ kind: 'refused' });
    for (const p of ['../secret.txt', outside, 'link.txt', 'parts/../../secret.txt']) {
      const r = await read(p);
      expect(r.kind, p).toBe('refused');
      // Only a path the template itself gave is quoted back.
      if (!path.isAbsolute(p)) expect(JSON.stringify(r)).not.toContain(path.dirname(root));
      expect(JSON.stringify(r)).not.toContain('SECRET');
    }
    expect(await read('link.txt')).toMatchObject({ message: expect.stringMatching(/outside the workspace/) });
    expect(await read('big.txt')).toMatchObject({ kind: 'refused', exists: true, message: expect.stringMatching(/at most 1048576 bytes/) });
    expect(await read('parts')).toEqual({ kind: 'missing' });
    expect(await read('nope/x.md')).toEqual({ kind: 'missing' });
  });
});
