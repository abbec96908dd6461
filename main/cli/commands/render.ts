/**
 * `stepwise render <thread.json>`: prints a thread's places as its next run would send them
 * (docs/architecture.md#templates): with `--place`, that place's text exactly; without, every
 * place under a `== <place> ==` header. Includes are read from the home's workspace; places
 * frozen by the thread's last run print frozen unless `--fresh`.
 * Exit codes: 0 rendered; 2 a template error (`<place>, line L, column C: <problem>` on
 * stderr), an unknown scenario or place, or a file that does not load.
 */
import path from 'node:path';
import os from 'node:os';
import type { Command } from 'commander';
import { defaultHome } from '../../core/host-core';
import { loadThreadFile } from '../../core/threads/thread-file';
import { renderForRun, TemplateHostError } from '../../core/templates';
import { runSkills, skillRoots } from '../../core/skills/discover';
import { placeKey, parsePlaceKey } from '../../../shared/template/frozen';
import { placesOf } from '../../../shared/template/thread-render';

interface RenderOptions {
  scenario?: string;
  place?: string;
  fresh?: boolean;
  home?: string;
}

/** Renders one thread file; resolves with the exit code. */
export async function renderThreadFile(file: string, o: RenderOptions, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  if (o.place !== undefined && !parsePlaceKey(o.place)) {
    err(`stepwise render: --place must be systemPrompt, message:<id> or tool:<toolCallId>, not ${JSON.stringify(o.place)}\n`);
    return 2;
  }
  const home = path.resolve(o.home ?? defaultHome());
  let thread;
  try {
    thread = await loadThreadFile(path.resolve(file));
  } catch (e) {
    err(`stepwise render: ${(e as Error).message}\n`);
    return 2;
  }
  const places = placesOf(thread).map((p) => placeKey(p.place));
  if (o.place !== undefined && !places.includes(o.place)) {
    err(`stepwise render: the thread has no place ${o.place}; its places: ${places.join(', ')}\n`);
    return 2;
  }
  try {
    const skills = await runSkills(skillRoots(home, os.homedir()), thread.settings?.skills ?? []);
    const r = await renderForRun(thread, { home, workspaceDir: path.join(home, 'workspace'), scenario: o.scenario, fresh: o.fresh, only: o.place, skills });
    const rendered = placesOf(r.thread).map((p) => ({ key: placeKey(p.place), text: p.texts.map((t) => t.get()).join('\n') }));
    if (o.place !== undefined) out(rendered.find((p) => p.key === o.place)?.text ?? '');
    else out(rendered.map((p) => `== ${p.key} ==\n${p.text}\n`).join('\n'));
    return 0;
  } catch (e) {
    if (!(e instanceof TemplateHostError)) throw e;
    err(`stepwise render: ${e.message}\n`);
    return 2;
  }
}

/** Registers `stepwise render`. */
export function registerRender(program: Command): void {
  program
    .command('render')
    .description('Print a thread\'s places rendered as its next run would send them (templates, variables, scenario).')
    .argument('<thread>', 'thread file (.json)')
    .option('--scenario <name>', 'use this scenario\'s variables instead of the thread\'s picked one')
    .option('--place <place>', 'only this place: systemPrompt, message:<id> or tool:<toolCallId>')
    .option('--fresh', 'render every place anew instead of reusing the last run\'s frozen renders')
    .option('--home <dir>', 'Stepwise home (default $STEPWISE_HOME or ~/.stepwise)')
    .action(async (file: string, opts: RenderOptions) => {
      process.exitCode = await renderThreadFile(file, opts, (s) => process.stdout.write(s), (s) => process.stderr.write(s));
    });
}
