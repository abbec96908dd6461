/**
 * The architecture the code cites is in the repository: every `docs/architecture.md#<anchor>`
 * in the source names a heading of docs/architecture.md (GitHub's anchor for it), no source
 * cites a document outside the repository (the old DESIGN / UI notes, their § and rule
 * numbers), no source reads a file outside the repository, and every repository path the
 * document names exists.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT as ROOT, repoFilesUnder } from '../support/repo-files';

const DOC = 'docs/architecture.md';
const SCANNED_DIRS = ['main', 'agent-runner', 'mcp-host', 'shared', 'preload', 'renderer', 'bench', 'tests', 'scripts', 'bin'];
const SOURCE = /\.(?:[cm]?[jt]s|tsx|jsx|json)$/;
const SELF = path.relative(ROOT, import.meta.filename);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Anchors of every heading of a Markdown text (outside fenced code), repeated ones suffixed -1, -2… */
function headingSlugs(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
      continue;
    }
    const h = fence ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = headingSlug(h[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function sourceFiles(): string[] {
  const files = SCANNED_DIRS.filter((d) => existsSync(path.join(ROOT, d))).flatMap((d) => repoFilesUnder(d));
  for (const e of readdirSync(ROOT, { withFileTypes: true })) if (e.isFile()) files.push(e.name);
  return files.filter((f) => SOURCE.test(f) && f !== SELF);
}

/** The comment text of a line (after `//`, or a `/*` / ` *` line), or undefined. */
function commentOf(line: string): string | undefined {
  const t = line.trimStart();
  if (t.startsWith('*') || t.startsWith('/*')) return t;
  const m = /(?:^|\s)\/\/(.*)$/.exec(line);
  return m ? m[1] : undefined;
}

interface Finding {
  where: string;
  what: string;
}

/** Everything wrong with one source file's citations and paths. */
function findProblems(file: string, text: string, slugs: Set<string>): Finding[] {
  const found: Finding[] = [];
  const dir = path.dirname(path.join(ROOT, file));
  const inside = (abs: string) => abs === ROOT || abs.startsWith(ROOT + path.sep);
  text.split('\n').forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    for (const m of line.matchAll(/docs\/architecture\.md#([\w-]*)/g)) {
      if (!slugs.has(m[1])) found.push({ where, what: `cites ${DOC}#${m[1]}, but ${DOC} has no such heading` });
    }
    if (/\bDESIGN\b\s*(?:§|\.md)|\bUI\.md\b/.test(line)) {
      found.push({ where, what: `cites a document outside the repository (${line.trim().slice(0, 80)}); cite ${DOC}#<heading>` });
    }
    const comment = commentOf(line);
    if (comment !== undefined) {
      if (/\b[Rr]ules? \d/.test(comment)) found.push({ where, what: `cites a numbered rule (${comment.trim().slice(0, 80)}); cite ${DOC}#<heading>` });
      for (const m of comment.matchAll(/(?:\.\.\/)+[\w.@-]+(?:\/[\w.@-]+)*/g)) {
        const abs = path.resolve(dir, m[0]);
        if (!inside(abs) || !existsSync(abs)) found.push({ where, what: `names ${m[0]}, which is not a path in the repository` });
      }
    } else if (/__dirname|import\.meta\.(?:dirname|url)|process\.cwd\(\)/.test(line)) {
      for (const m of line.matchAll(/(['"`])((?:\.\.?\/)+[^'"`\s]*)\1/g)) {
        if (!inside(path.resolve(dir, m[2]))) found.push({ where, what: `reads ${m[2]}, outside the repository` });
      }
    }
  });
  return found;
}

describe(`citations of ${DOC}`, () => {
  it('the document exists and has the headings the code relies on', () => {
    expect(existsSync(path.join(ROOT, DOC)), `${DOC} is missing`).toBe(true);
    const slugs = headingSlugs(readFileSync(path.join(ROOT, DOC), 'utf8'));
    for (const s of ['processes-and-state', 'envelopes', 'sequence-and-snapshots', 'backpressure', 'host-api', 'mcp-channel', 'a-tokens-path', 'multi-window-editing']) {
      expect(slugs, `heading for #${s}`).toContain(s);
    }
  });

  it('every cited heading exists, nothing cites a document or reads a file outside the repository', () => {
    const docFile = path.join(ROOT, DOC);
    const slugs = existsSync(docFile) ? headingSlugs(readFileSync(docFile, 'utf8')) : new Set<string>();
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const problems = files.flatMap((f) => findProblems(f, readFileSync(path.join(ROOT, f), 'utf8'), slugs));
    expect(problems.map((p) => `${p.where}: ${p.what}`)).toEqual([]);
  });

  it('every repository path the document names exists', () => {
    const doc = readFileSync(path.join(ROOT, DOC), 'utf8');
    const named = [...doc.matchAll(/`((?:main|agent-runner|shared|preload|renderer|tests|bench|scripts|bin|docs)\/[\w./-]+\.(?:tsx?|json|m?js|md))`/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((p) => !existsSync(path.join(ROOT, p)))).toEqual([]);
  });
});

describe('headingSlug', () => {
  it.each([
    ['Processes and state', 'processes-and-state'],
    ["A token's path", 'a-tokens-path'],
    ['Host API', 'host-api'],
    ['The `seq` rule (v1)', 'the-seq-rule-v1'],
    ['Edits & undo', 'edits--undo'],
  ])('%s → %s', (heading, slug) => expect(headingSlug(heading)).toBe(slug));

  it('numbers repeated headings and skips fenced code', () => {
    expect([...headingSlugs('# A\n## A\n```\n# not a heading\n```\n## B\n')]).toEqual(['a', 'a-1', 'b']);
  });
});

describe('findProblems', () => {
  const slugs = new Set(['envelopes']);
  it('flags what this test exists for, and nothing legitimate', () => {
    // Built from parts so that this file itself cites nothing outside the repo.
    const design = ['DESIGN', '§6'].join(' ');
    const outside = ['..', 'shared'].join('/');
    const bad = [
      '// see docs/architecture.md#envelope',
      ` * The bridge (${design} rule 6).`,
      '// rule 9, never a loop',
      `const p = path.resolve(__dirname, '../../${outside}/conformance/stream-vectors.json');`,
      `// The vectors live beside the repo, as ${outside}/conformance.`,
      '/** Names the same everywhere (UI.md). */',
    ];
    expect(bad.map((l) => findProblems('shared/stream/x.test.ts', l, slugs).length)).toEqual([1, 2, 1, 1, 1, 1]);
    const good = [
      '// see docs/architecture.md#envelopes',
      "import { x } from '../protocol/envelopes';",
      "const p = path.resolve(__dirname, '../../tests/fixtures/conformance/stream-vectors.json');",
      "expect(resolveIn(root, '../../etc/passwd')).toThrow();",
      'const rules = { maxRules: 3 };',
    ];
    expect(good.flatMap((l) => findProblems('shared/stream/x.test.ts', l, slugs))).toEqual([]);
  });
});
