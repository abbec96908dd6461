import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSkillMd } from './skill-md';
import { availableSkillsText } from './skill-info';

describe('parseSkillMd', () => {
  it('reads name, description and the body after the front matter', () => {
    const r = parseSkillMd('---\nname: fix-tests\ndescription: |\n  Fixes failing tests.\n  Runs them first.\nlicense: MIT\n---\n# Fix tests\n\nRun `node --test`.\n');
    expect(r).toEqual({ ok: true, doc: { name: 'fix-tests', description: 'Fixes failing tests.\nRuns them first.', body: '# Fix tests\n\nRun `node --test`.\n' } });
  });

  it('accepts CRLF line ends, a byte order mark and an empty body', () => {
    expect(parseSkillMd('\uFEFF---\r\nname: a\r\ndescription: b\r\n---')).toEqual({ ok: true, doc: { name: 'a', description: 'b', body: '' } });
  });

  it('says what is wrong with a bad file', () => {
    expect(parseSkillMd('# no front matter')).toMatchObject({ ok: false, problem: expect.stringContaining('does not start with YAML front matter') });
    expect(parseSkillMd('---\nname: [a\n---\n')).toMatchObject({ ok: false, problem: expect.stringContaining('not valid YAML') });
    expect(parseSkillMd('---\n- a\n---\n')).toMatchObject({ ok: false, problem: expect.stringContaining('not a mapping') });
    expect(parseSkillMd('---\ndescription: x\n---\n')).toMatchObject({ ok: false, problem: expect.stringContaining('no "name"') });
    expect(parseSkillMd('---\nname: a\n---\n')).toMatchObject({ ok: false, problem: expect.stringContaining('no "description"') });
    expect(parseSkillMd('---\nname: a/b\ndescription: x\n---\n')).toMatchObject({ ok: false, problem: expect.stringContaining('slash') });
    expect(parseSkillMd(`---\nname: ${'a'.repeat(65)}\ndescription: x\n---\n`)).toMatchObject({ ok: false, problem: expect.stringContaining('64') });
  });

  it('never throws, and keeps any body byte for byte', () => {
    fc.assert(fc.property(fc.string(), (s) => { parseSkillMd(s); parseSkillMd(`---\n${s}\n---\n`); }));
    fc.assert(fc.property(fc.string(), (body) => {
      const r = parseSkillMd(`---\nname: n\ndescription: d\n---\n${body}`);
      expect(r).toEqual({ ok: true, doc: { name: 'n', description: 'd', body } });
    }));
  });
});

describe('availableSkillsText', () => {
  it('lists one skill a line, descriptions on one line', () => {
    expect(availableSkillsText([{ name: 'a', description: 'does A\n  well' }, { name: 'b', description: 'B' }])).toBe('- a: does A well\n- b: B');
    expect(availableSkillsText([])).toBe('');
  });
});
