// Properties of the workspace name rules (main/core/workspace/names.ts): any title gives a safe
// thread file name, and any typed folder name is either a safe name or a clear refusal.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { folderName, isReservedName, MAX_STEM_CHARS, nameProblem, safeStem, stemMatchesTitle, uniqueName, utf8Length } from '../../../main/core/workspace/names';
import { WorkspaceError } from '../../../shared/workspace/workspace-error';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Pieces that break naive name rules: device words, dots, spaces, marks, surrogates, long runs. */
const piece = fc.constantFrom(
  'CON', 'con', 'Nul', 'aux', 'PRN', 'COM1', 'com\u00b9', 'LPT\u00b3', 'lpt0', '.json', ' .txt', '.', '..', ' ', '\u00a0', '\u3000', '\t',
  'e\u0301', '\u0301', '\u0338', '<', '>', ':', '"', '/', '\\', '|', '?', '*', '\0', '\x1f', '\x7f', '\ud800', '\udfff', '\ud83d',
  '👨‍👩‍👧‍👦', '🇯🇵', '\u1100\u1161\u11a8', '\u00e9'.repeat(60), '\u4e2d'.repeat(50), 'x'.repeat(100), 'e\u0301'.repeat(40),
);
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: fc.oneof(piece, fc.string({ unit: 'grapheme-ascii', maxLength: 3 })), maxLength: 30 }),
);

describe('safeStem: any title gives a safe thread file name', () => {
  it('is NFC, ≤ 244 bytes with .json, ≤ 120 code points, never a device name, passes every rule, and idempotent', () => {
    fc.assert(
      fc.property(anyText, (title) => {
        const stem = safeStem(title);
        const name = `${stem}.json`;
        expect(stem.normalize('NFC')).toBe(stem);
        expect(utf8Length(name)).toBeLessThanOrEqual(244);
        expect([...stem].length).toBeLessThanOrEqual(MAX_STEM_CHARS);
        expect(isReservedName(stem)).toBe(false);
        expect(isReservedName(name)).toBe(false);
        expect(nameProblem(name)).toBeUndefined();
        expect(nameProblem(stem)).toBeUndefined();
        expect(safeStem(stem)).toBe(stem);
        expect(stemMatchesTitle(stem, title)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same name to canonically equivalent titles (NFC and NFD)', () => {
    fc.assert(
      fc.property(anyText, (title) => {
        expect(safeStem(title.normalize('NFD'))).toBe(safeStem(title.normalize('NFC')));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('folderName: any typed name is a safe name or a clear refusal', () => {
  it('returns an NFC name that passes every rule and maps to itself, or throws WorkspaceError "invalid" naming the rule', () => {
    fc.assert(
      fc.property(anyText, (typed) => {
        let name: string;
        try {
          name = folderName(typed);
        } catch (err) {
          expect(err).toBeInstanceOf(WorkspaceError);
          expect(err).toMatchObject({ code: 'invalid', message: expect.stringMatching(/^refused folder name ".*": (a name cannot|it )/s) });
          expect(nameProblem(typed.normalize('NFC'))).toBeDefined();
          return;
        }
        expect(name).toBe(typed.normalize('NFC'));
        expect(nameProblem(name)).toBeUndefined();
        expect(utf8Length(name)).toBeLessThanOrEqual(255);
        expect(isReservedName(name)).toBe(false);
        expect(folderName(name)).toBe(name);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('uniqueName: numbered names stay within the limit and still match their title', () => {
  it('numbers a taken long name within 244 bytes, and the listed title is recognised', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'stepwise-unique-'));
    try {
      await fc.assert(
        fc.asyncProperty(anyText, fc.integer({ min: 2, max: 12 }), async (title, copies) => {
          const stem = safeStem(title);
          await rm(dir, { recursive: true, force: true });
          await mkdir(dir);
          const names: string[] = [];
          for (let i = 0; i < copies; i++) {
            const name = await uniqueName(dir, stem, '.json');
            expect(utf8Length(name)).toBeLessThanOrEqual(244);
            expect(nameProblem(name)).toBeUndefined();
            expect(stemMatchesTitle(name.slice(0, -'.json'.length), title)).toBe(true);
            await writeFile(path.join(dir, name), '');
            names.push(name);
          }
          expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(copies);
        }),
        { numRuns: 150 },
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
