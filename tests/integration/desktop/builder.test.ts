/**
 * Packaging: electron-builder.yml validates against electron-builder's own JSON Schema
 * (app-builder-lib/scheme.json), and a real `electron-builder --dir --linux --x64` run packs an
 * app.asar holding the bundle (main, preload, renderer, agent-runner, mcp-host), the example
 * threads and the production dependencies only: no dev tools, sources, tests or source maps.
 *
 * Stand-in: the Electron binary cannot be downloaded here, so `electronDist` points at a
 * folder with a fake `electron` executable; everything else is electron-builder's real work.
 * The fake carries a fuse wire (@electron/fuses' sentinel, wire version, length, one byte per
 * fuse) set to the opposite of electron-builder.yml's `electronFuses`, so electron-builder
 * really flips the fuses in the packed executable and the test reads them back with
 * @electron/fuses (the copy electron-builder itself uses). One build (about a minute).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import YAML from 'yaml';
import { extractFile, listPackage } from '@electron/asar';
import { seedDesktopMcpConfig } from '../../../main/electron/seed';
import { loadMcpConfig } from '../../../main/core/mcp/config';
import { makeHome } from '../../support/host-harness';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const require = createRequire(import.meta.url);
const config = YAML.parse(fs.readFileSync(path.join(repo, 'electron-builder.yml'), 'utf8'));

/** @electron/fuses as electron-builder loads it (a dependency of app-builder-lib, not ours). */
const builderRequire = createRequire(require.resolve('app-builder-lib/package.json'));
const fuses = builderRequire('@electron/fuses') as {
  FuseVersion: { V1: string };
  FuseV1Options: Record<string, number | string>;
  getCurrentFuseWire(electronPath: string): Promise<Record<string, number | string>>;
};
const { FuseState, SENTINEL } = builderRequire('@electron/fuses/dist/constants') as { FuseState: Record<'ENABLE' | 'DISABLE', number>; SENTINEL: string };

/** The wire position of each `electronFuses` key (FuseV1Options names them in PascalCase). */
const fuseIndex = (key: string): number => {
  const i = fuses.FuseV1Options[key[0].toUpperCase() + key.slice(1)];
  if (typeof i !== 'number') throw new Error(`electronFuses.${key} is not a fuse @electron/fuses knows`);
  return i;
};
/** The fuses electron-builder.yml sets (resetAdHocDarwinSignature is an option, not a fuse). */
const configuredFuses = (): [string, boolean][] => Object.entries((config.electronFuses ?? {}) as Record<string, boolean>).filter(([k]) => k !== 'resetAdHocDarwinSignature');
/** Fuse states in the stand-in before packing: Electron's defaults, the configured ones inverted. */
const FUSE_COUNT = 8;
function standInWire(): number[] {
  const electronDefaults = [true, false, true, true, false, false, false, true]; // RunAsNode ... GrantFileProtocolExtraPrivileges
  const wire = electronDefaults.map((on) => (on ? FuseState.ENABLE : FuseState.DISABLE));
  for (const [key, on] of configuredFuses()) wire[fuseIndex(key)] = on ? FuseState.DISABLE : FuseState.ENABLE;
  return wire;
}

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

  it('sets the hardening fuses (the schema rejects a misspelt one)', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false, // see the comment in electron-builder.yml and the test below
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      resetAdHocDarwinSignature: true,
    });
    for (const [key] of configuredFuses()) expect(fuseIndex(key)).toBeLessThan(FUSE_COUNT);
    const schema = JSON.parse(fs.readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'));
    const validate = new Ajv({ strict: false, allowUnionTypes: true }).compile(schema);
    expect(validate({ ...config, electronFuses: { ...config.electronFuses, runAsNodes: false } })).toBe(false);
    expect(validate({ ...config, electronFuses: { ...config.electronFuses, onlyLoadAppFromAsar: 'yes' } })).toBe(false);
  });

  it('turns runAsNode off: the MCP server the desktop app seeds does not run the app executable as Node', async () => {
    // With the fuse off, `<app> <script>` starts a second app instead of running the script.
    // The seeded server (every example thread uses it) is bundled: it runs inside the mcp-host.
    expect(config.electronFuses?.runAsNode).toBe(false);
    const home = makeHome();
    expect(await seedDesktopMcpConfig(home)).toBe(true);
    const seeded = await loadMcpConfig(home, {});
    expect(seeded.errors).toEqual({});
    expect(Object.keys(seeded.servers)).not.toEqual([]);
    for (const server of Object.values(seeded.servers)) {
      expect(server.transport).toBe('bundled');
      expect(JSON.stringify(server)).not.toContain('ELECTRON_RUN_AS_NODE');
    }
  });
});

describe('electron-builder --dir', () => {
  let unpacked = '';
  beforeAll(async () => {
    for (const f of ['out/main/index.js', 'out/main/agent-runner.js', 'out/main/mcp-host.js', 'out/main/template-worker.js', 'out/preload/index.cjs', 'out/renderer/index.html']) {
      if (!fs.existsSync(path.join(repo, f))) {
        await run('yarn', ['build'], 240_000);
        break;
      }
    }
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-pack-'));
    const dist = path.join(work, 'electron-dist');
    fs.mkdirSync(dist);
    const wire = Buffer.concat([Buffer.from(SENTINEL, 'ascii'), Buffer.from([Number(fuses.FuseVersion.V1), FUSE_COUNT, ...standInWire()])]);
    fs.writeFileSync(path.join(dist, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\necho "stand-in electron"\nexit 0\n# '), wire, Buffer.from('\n')]), { mode: 0o755 });
    fs.writeFileSync(path.join(dist, 'version'), require('electron/package.json').version);
    const outDir = path.join(work, 'dist');
    const bin = path.join(repo, 'node_modules', 'electron-builder', 'cli.js');
    await run(process.execPath, [bin, '--dir', '--linux', '--x64', '--publish', 'never', `-c.electronDist=${dist}`, `-c.directories.output=${outDir}`], 300_000);
    unpacked = path.join(outDir, 'linux-unpacked');
  }, 420_000);

  it('packs the bundle, examples and production dependencies only', () => {
    const asar = path.join(unpacked, 'resources', 'app.asar');
    expect(fs.existsSync(asar)).toBe(true);
    expect(fs.existsSync(path.join(unpacked, 'stepwise'))).toBe(true);
    const files = listPackage(asar, { isPack: false }).map((f) => f.split(path.sep).join('/'));
    for (const f of ['/package.json', '/out/main/index.js', '/out/main/agent-runner.js', '/out/main/mcp-host.js', '/out/main/template-worker.js', '/out/preload/index.cjs', '/out/renderer/index.html']) {
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
  });

  it('flips the fuses of the packed executable as electron-builder.yml says', async () => {
    const before = standInWire();
    const packed = await fuses.getCurrentFuseWire(path.join(unpacked, 'stepwise'));
    expect(packed.version).toBe(fuses.FuseVersion.V1);
    const state = (key: string) => packed[fuseIndex(key)];
    expect(state('runAsNode')).toBe(FuseState.DISABLE);
    expect(state('enableNodeOptionsEnvironmentVariable')).toBe(FuseState.DISABLE);
    expect(state('enableNodeCliInspectArguments')).toBe(FuseState.DISABLE);
    expect(state('enableEmbeddedAsarIntegrityValidation')).toBe(FuseState.ENABLE);
    expect(state('onlyLoadAppFromAsar')).toBe(FuseState.ENABLE);
    expect(state('enableCookieEncryption')).toBe(FuseState.ENABLE);
    // Every configured fuse was written (the stand-in had each one the other way); the others
    // keep Electron's defaults.
    const configured = new Set(configuredFuses().map(([k]) => fuseIndex(k)));
    for (let i = 0; i < FUSE_COUNT; i++) {
      if (configured.has(i)) expect(packed[i], `fuse ${fuses.FuseV1Options[i]}`).not.toBe(before[i]);
      else expect(packed[i], `fuse ${fuses.FuseV1Options[i]}`).toBe(before[i]);
    }
  });
});
