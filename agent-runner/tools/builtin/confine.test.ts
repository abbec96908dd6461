/**
 * Path confinement of the built-in tools, property-tested: whatever path a model gives — made of
 * `..`, `.`, names, links leading out, absolute prefixes — it is either refused with a
 * ToolPathError that does not name the working directory, or resolves to a place whose
 * deepest existing part really lies inside the working directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolPathError, resolveToolPath } from './confine';
import { tempFolder } from '../../../tests/support/temp-folder';

const dir = tempFolder('stepwise-confine-', 'file');

/** Where `abs` really leads: its deepest existing ancestor, links followed (dangling ones too). */
function realDeepest(abs: string): string {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch {
    return abs === path.dirname(abs) ? abs : realDeepest(path.dirname(abs));
  }
  if (st.isSymbolicLink()) return realDeepest(path.resolve(path.dirname(abs), fs.readlinkSync(abs)));
  return fs.realpathSync(abs);
}

describe('resolveToolPath', () => {
  it('never resolves outside the working directory', async () => {
    const cwd = dir('cwd');
    fs.mkdirSync(path.join(cwd, 'sub', 'deeper'), { recursive: true });
    fs.writeFileSync(dir('outside.txt'), 'x');
    fs.writeFileSync(path.join(cwd, 'sub', 'in.txt'), 'x');
    fs.symlinkSync(dir(), path.join(cwd, 'up'));
    fs.symlinkSync(dir('outside.txt'), path.join(cwd, 'sub', 'file-out'));
    fs.symlinkSync(dir('gone'), path.join(cwd, 'dangling'));
    fs.symlinkSync(path.join(cwd, 'sub'), path.join(cwd, 'inner'));
    const realCwd = fs.realpathSync(cwd);
    const segment = fc.constantFrom('..', '.', '', 'sub', 'deeper', 'in.txt', 'up', 'file-out', 'dangling', 'inner', 'new', 'outside.txt', 'cwd');
    const prefix = fc.constantFrom('', '/', `${cwd}/`, `${dir()}/`, 'C:/', '\\\\');
    await fc.assert(
      fc.asyncProperty(prefix, fc.array(segment, { maxLength: 6 }), fc.constantFrom('/', '\\'), async (pre, segs, sep) => {
        const given = pre + segs.join(sep);
        let abs: string;
        try {
          abs = await resolveToolPath(cwd, given);
        } catch (err) {
          expect(err).toBeInstanceOf(ToolPathError);
          // The path as given is echoed; the working directory itself is never named.
          if (!given.includes(cwd)) expect((err as Error).message).not.toContain(cwd);
          return;
        }
        const real = realDeepest(abs);
        expect(real === realCwd || real.startsWith(realCwd + path.sep), `${given} → ${real}`).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
