/**
 * Where a test lives (README, Development), checked on the files as they are on disk:
 * - a unit test sits beside its source, in a folder vitest runs, and starts no process and opens
 *   no server or socket (no child_process, http, net, ws… imported, directly or through a
 *   tests/ helper);
 * - tests/ holds only integration/<area>/ (tests that start processes or servers, use a real
 *   home across modules, or drive the CLI), e2e/ (browser specs), repo/ (checks over the whole
 *   repository), support/ (shared helpers) and fixtures/.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import vitestConfig from '../../vitest.config';
import { REPO_ROOT, repoFilesUnder } from '../support/repo-files';

const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$/;
const TESTS_FOLDERS = ['integration', 'e2e', 'repo', 'support', 'fixtures'];
const AREAS = ['host', 'web', 'mcp', 'providers', 'thread', 'desktop'];
const SOURCE_ROOTS = ['main', 'agent-runner', 'mcp-host', 'preload', 'renderer', 'shared', 'bench'];
/** Node modules that start a process or open a server or socket (without `node:`). */
const PROCESS_OR_SOCKET = new Set(['child_process', 'cluster', 'dgram', 'http', 'http2', 'https', 'net', 'tls', 'ws']);
/** Unit tests beside their source allowed to import one of PROCESS_OR_SOCKET: path → why. */
const UNIT_EXCEPTIONS: Record<string, string> = {};

/** A glob of the vitest config's kind (`{a,b}`, `**`, `*`) as an anchored regular expression. */
function globRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (glob.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 2;
    } else if (c === '*') re += '[^/]*';
    else if (c === '{') re += '(?:';
    else if (c === '}') re += ')';
    else if (c === ',') re += '|';
    else re += c.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

const VITEST_INCLUDE = (vitestConfig.test?.include ?? []).map(globRegex);
const VITEST_EXCLUDE = (vitestConfig.test?.exclude ?? []).map(globRegex);
const runByVitest = (file: string) => VITEST_INCLUDE.some((r) => r.test(file)) && !VITEST_EXCLUDE.some((r) => r.test(file));

/** What is wrong with where each file of `files` lies (tests/ folders, test files anywhere). */
function placementProblems(files: string[], vitestRuns: (file: string) => boolean): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const parts = file.split('/');
    const isTest = TEST_FILE.test(file);
    if (parts[0] === 'tests') {
      const [, folder, area] = parts;
      if (!TESTS_FOLDERS.includes(folder)) problems.push(`${file}: tests/ holds only ${TESTS_FOLDERS.join('/, ')}/`);
      else if (folder === 'integration' && (parts.length < 4 || !AREAS.includes(area))) {
        problems.push(`${file}: an integration test or helper goes in tests/integration/<area>/, area one of ${AREAS.join(', ')}`);
      } else if (isTest && (folder === 'support' || folder === 'fixtures')) {
        problems.push(`${file}: tests/${folder}/ holds helpers and data, not tests`);
      } else if (folder === 'e2e' && isTest && !/\.spec\.ts$/.test(file)) {
        problems.push(`${file}: a browser spec in tests/e2e/ is named *.spec.ts (Playwright runs only those)`);
      } else if (isTest && folder !== 'e2e' && !vitestRuns(file)) problems.push(`${file}: vitest does not run it (vitest.config.ts include)`);
    } else if (isTest) {
      if (/\.spec\./.test(file)) problems.push(`${file}: browser specs go in tests/e2e/; a unit test is named *.test.ts(x)`);
      else if (!SOURCE_ROOTS.includes(parts[0])) problems.push(`${file}: a unit test sits beside its source, under ${SOURCE_ROOTS.join('/, ')}/`);
      else if (!vitestRuns(file)) problems.push(`${file}: vitest does not run it (vitest.config.ts include)`);
    }
  }
  return problems;
}

/** The module specifiers `text` imports, re-exports, requires or mocks. */
function specifiers(text: string): string[] {
  const found = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\(\s*|\bvi\.mock\(\s*)(['"])([^'"\n]+)\1/g);
  return [...found].map((m) => m[2]);
}

/** The repository file a relative `spec` imported from `from` names, or undefined (a package). */
function resolveImport(from: string, spec: string, exists: (file: string) => boolean): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.posix.join(path.posix.dirname(from), spec);
  const stem = base.replace(/\.js$/, '');
  return [base, `${stem}.ts`, `${stem}.tsx`, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find(exists);
}

/**
 * What is wrong with the unit test `file` (repository-relative): it imports a module that starts
 * a process or opens a server or socket, itself or through a tests/ helper, or an integration
 * helper; or nothing it imports, directly or through source modules, lies in its own folder.
 */
function unitTestProblems(file: string, read: (file: string) => string | undefined): string[] {
  const exists = (f: string) => read(f) !== undefined;
  const problems: string[] = [];
  const dir = path.posix.dirname(file);
  const seen = new Set<string>([file]);
  let besideSource = false;
  const visit = (current: string, via: string): void => {
    for (const spec of specifiers(read(current) ?? '')) {
      const bare = spec.replace(/^node:/, '').split('/')[0];
      if (current.startsWith('tests/') || current === file) {
        if (PROCESS_OR_SOCKET.has(bare)) problems.push(`${file}: imports ${spec}${via}; a test that starts processes or servers goes in tests/integration/<area>/`);
      }
      const target = resolveImport(current, spec, exists);
      if (!target || seen.has(target) || TEST_FILE.test(target)) continue;
      seen.add(target);
      if (target.startsWith('tests/integration/')) problems.push(`${file}: imports ${target}, a helper of the integration tests`);
      else if (target.startsWith('tests/')) visit(target, ` (through ${target})`);
      else {
        if (path.posix.dirname(target) === dir) besideSource = true;
        if (!besideSource) visit(target, via);
      }
    }
  };
  visit(file, '');
  if (!besideSource) problems.push(`${file}: imports no module of its own folder; a unit test sits beside the source it tests`);
  return problems;
}

/** The text of a repository file; undefined for a folder or a missing file. */
function readRepoFile(file: string): string | undefined {
  const abs = path.join(REPO_ROOT, file);
  return statSync(abs, { throwIfNoEntry: false })?.isFile() ? readFileSync(abs, 'utf8') : undefined;
}

describe('test layout', () => {
  const files = repoFilesUnder();
  const unitTests = files.filter((f) => TEST_FILE.test(f) && !f.startsWith('tests/'));

  it('tests/ holds integration/<area>/, e2e/, repo/, support/, fixtures/; every other test is under a source folder vitest runs', () => {
    expect(files.filter((f) => TEST_FILE.test(f)).length).toBeGreaterThan(100);
    expect(placementProblems(files, runByVitest)).toEqual([]);
  });

  it('a unit test beside its source starts no process or server and imports a module of its own folder', () => {
    expect(unitTests.length).toBeGreaterThan(40);
    const problems = unitTests.filter((f) => !(f in UNIT_EXCEPTIONS)).flatMap((f) => unitTestProblems(f, readRepoFile));
    expect(problems).toEqual([]);
  });

  it('every listed exception is a unit test that still needs it', () => {
    for (const f of Object.keys(UNIT_EXCEPTIONS)) expect(unitTestProblems(f, readRepoFile), f).not.toEqual([]);
  });
});

describe('the layout check itself', () => {
  it('refuses tests outside the agreed places', () => {
    const all = () => true;
    const bad = [
      'tests/unit/renderer/undo.test.ts',
      'tests/unit/lint-boundaries.test.ts',
      'tests/integration/importers.test.ts',
      'tests/integration/gui/x.test.ts',
      'tests/support/x.test.ts',
      'tests/e2e/x.test.ts',
      'renderer/src/state/x.spec.ts',
      'scripts/x.test.ts',
    ];
    expect(bad.map((f) => placementProblems([f], all).length)).toEqual(bad.map(() => 1));
    expect(placementProblems(['renderer/src/state/undo.test.ts'], () => false)).toHaveLength(1);
    const good = ['tests/integration/web/x.test.ts', 'tests/integration/mcp/harness.ts', 'tests/e2e/x.spec.ts', 'tests/e2e/fixtures.ts', 'tests/repo/x.test.ts', 'tests/support/x.ts', 'tests/fixtures/t.json', 'renderer/src/state/undo.test.ts', 'main/core/x.ts'];
    expect(placementProblems(good, all)).toEqual([]);
  });

  it('refuses a unit test that starts processes or servers, directly or through a helper, or sits away from its source', () => {
    const tree: Record<string, string> = {
      'main/x/a.ts': "import { b } from '../y/b';\nexport const a = b;\n",
      'main/y/b.ts': "import { spawn } from 'node:child_process';\nexport const b = spawn;\n",
      'main/x/z.node.ts': 'export const z = 1;\n',
      'tests/support/server.ts': "import { WebSocketServer } from 'ws';\nexport const s = WebSocketServer;\n",
      'tests/support/home.ts': "import fs from 'node:fs';\nexport const h = fs;\n",
      'tests/integration/web/harness.ts': 'export const h = 1;\n',
    };
    const check = (test: string) => unitTestProblems('main/x/a.test.ts', (f) => (f === 'main/x/a.test.ts' ? test : tree[f]));
    expect(check("import { a } from './a';\nimport { spawn } from 'node:child_process';\n")).toHaveLength(1);
    expect(check("import http from 'http';\nimport { a } from './a';\n")).toHaveLength(1);
    expect(check("import { a } from './a';\nimport { s } from '../../tests/support/server';\n")).toHaveLength(1);
    expect(check("import { a } from './a';\nimport { h } from '../../tests/integration/web/harness';\n")).toHaveLength(1);
    expect(check("import { b } from '../y/b';\n")).toHaveLength(1);
    // A source module that spawns is fine to import: the test decides whether it runs a process.
    expect(check("import { a } from './a';\nimport { h } from '../../tests/support/home';\n")).toEqual([]);
    expect(check("import { z } from './z.node.js';\n")).toEqual([]);
    expect(check("const { a } = await import('./a');\n")).toEqual([]);
  });
});
