/**
 * Packaging: electron-builder.yml validates against electron-builder's own JSON Schema
 * (app-builder-lib/scheme.json), and a real `electron-builder --dir --linux --x64` run packs an
 * app.asar holding the bundle (main, preload, renderer, agent-runner, mcp-host), the example
 * threads and the production dependencies only: no dev tools, sources, tests or source maps.
 *
 * Stand-in: the Electron binary cannot be downloaded here, so `electronDist` points at a
 * folder with a fake `electron` executable; everything else is electron-builder's real work.
 * One build (about a minute).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import YAML from 'yaml';
import { extractFile, listPackage } from '@electron/asar';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const require = createRequire(import.meta.url);
const config = YAML.parse(fs.readFileSync(path.join(repo, 'electron-builder.yml'), 'utf8'));

function run(cmd: string, args: string[], timeout: number): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd: repo, timeout, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(" ")} failed (code ${String((err as { code?: unknown }).code)}, signal ${String((err as { signal?: unknown }).signal)}): ${err.message}\n--- stdout\n${stdout.slice(-3000)}\n--- stderr\n${stderr.slice(-3000)}`));
      else resolve({ stdout, stderr });
    });
  });
}

describe('electron-builder.yml', () => {
  it("validates against electron-builder's JSON Schema and asks for every platform target", () => {
    const schema = JSON.parse(fs.readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
    const validate = ajv.compile(schema);
    const ok = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(ok).toBe(true);
    // The schema rejects what electron-builder rejects.
    expect(validate({ ...config, mac: { ...config.mac, hardenedRuntime: 'yes' } })).toBe(false);
    expect(validate({ ...config, notAnOption: 1 })).toBe(false);

    expect(config.productName).toBe('Stepwise');
    expect(config.appId).toMatch(/^[a-z0-9.-]+$/);
    const targets = (list: { target: string; arch: string[] }[]) => Object.fromEntries(list.map((t) => [t.target, [...t.arch].sort()]));
    expect(targets(config.mac.target)).toEqual({ dmg: ['arm64', 'x64'], zip: ['arm64', 'x64'] });
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.notarize).toBe(true);
    expect(fs.readFileSync(path.join(repo, config.mac.entitlements), 'utf8')).toContain('com.apple.security.cs.allow-jit');
    expect(targets(config.win.target)).toEqual({ nsis: ['arm64', 'x64'] });
    expect(targets(config.linux.target)).toEqual({ AppImage: ['arm64', 'x64'], deb: ['arm64', 'x64'] });
  });
});

describe('electron-builder --dir', () => {
  it('packs the bundle, examples and production dependencies only', async () => {
    for (const f of ['out/main/index.js', 'out/main/agent-runner.js', 'out/main/mcp-host.js', 'out/preload/index.cjs', 'out/renderer/index.html']) {
      if (!fs.existsSync(path.join(repo, f))) {
        await run('yarn', ['build'], 240_000);
        break;
      }
    }
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-pack-'));
    const dist = path.join(work, 'electron-dist');
    fs.mkdirSync(dist);
    fs.writeFileSync(path.join(dist, 'electron'), '#!/bin/sh\necho "stand-in electron"\n', { mode: 0o755 });
    fs.writeFileSync(path.join(dist, 'version'), require('electron/package.json').version);
    const outDir = path.join(work, 'dist');
    const bin = path.join(repo, 'node_modules', 'electron-builder', 'cli.js');
    await run(process.execPath, [bin, '--dir', '--linux', '--x64', '--publish', 'never', `-c.electronDist=${dist}`, `-c.directories.output=${outDir}`], 300_000);

    const asar = path.join(outDir, 'linux-unpacked', 'resources', 'app.asar');
    expect(fs.existsSync(asar)).toBe(true);
    expect(fs.existsSync(path.join(outDir, 'linux-unpacked', 'stepwise'))).toBe(true);
    const files = listPackage(asar, { isPack: false }).map((f) => f.split(path.sep).join('/'));
    for (const f of ['/package.json', '/out/main/index.js', '/out/main/agent-runner.js', '/out/main/mcp-host.js', '/out/preload/index.cjs', '/out/renderer/index.html']) {
      expect(files).toContain(f);
    }
    expect(files.some((f) => f.startsWith('/resources/examples/') && f.endsWith('.json'))).toBe(true);
    // The packed package.json starts the bundle.
    const pkg = JSON.parse(extractFile(asar, 'package.json').toString('utf8'));
    expect(pkg).toMatchObject({ main: 'out/main/index.js', type: 'module' });
    const modules = new Set(files.filter((f) => f.startsWith('/node_modules/')).map((f) => f.split('/').slice(2, f.split('/')[2].startsWith('@') ? 4 : 3).join('/')));
    // server-everything ships: the first-start example thread's MCP server.
    for (const dep of ['openai', '@anthropic-ai/sdk', '@modelcontextprotocol/sdk', 'ws', 'write-file-atomic', '@modelcontextprotocol/server-everything']) expect(modules).toContain(dep);
    // Renderer libraries are bundled into out/renderer, so they are dev dependencies and not packed.
    for (const dev of ['vitest', 'playwright', 'playwright-core', '@playwright/test', 'electron', 'electron-builder', 'electron-vite', 'vite', 'typescript', 'eslint', 'tsx', 'esbuild', '@doyensec/electronegativity', 'react', 'react-dom', '@mantine/core', 'jotai', 'codemirror']) {
      expect(modules, `${dev} is a dev dependency`).not.toContain(dev);
    }
    const leaks = files.filter((f) => /\.(map|ts|tsx|mts|cts)$/.test(f) || /\.(test|spec)\.[cm]?js$/.test(f));
    expect(leaks).toEqual([]);
    for (const src of ['/main', '/agent-runner', '/shared', '/renderer', '/preload', '/tests', '/scripts', '/bin']) {
      expect(files.some((f) => f === src || f.startsWith(`${src}/`)), `${src} sources are not packed`).toBe(false);
    }
  }, 420_000);
});
