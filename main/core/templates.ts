/**
 * Templates in the host (docs/architecture.md#templates): the host renders a thread's places
 * before a run starts, reading included files itself (confined to the workspace), so the runner
 * gets the text to send and a template error stops the run before a runner or a model is
 * reached. The renders of the thread's latest run that has them are reused where still valid.
 * Texts render in a template worker process with time and memory bounds (template-engine.ts), never on the host's
 * event loop.
 */
import type { Thread } from '../../shared/thread/schema';
import type { FrozenRenders } from '../../shared/template/frozen';
import { PlaceError, renderThread, type ThreadRender } from '../../shared/template/thread-render';
import { workspaceFileReader } from '../../shared/template/files.node.js';
import { threadWorkingDirectory } from '../../shared/thread/working-directory.node.js';
import { readRun } from './journal/run-files';
import { HostError } from './errors';
import { hostTemplateEngine } from './template-engine';

/** How far back through a thread's run refs to look for frozen renders (tool steps have none). */
const LOOK_BACK = 10;

/** The renders of the latest of the thread's runs that recorded some; undefined when none. */
export async function latestRenders(home: string, thread: Thread): Promise<FrozenRenders | undefined> {
  const refs = thread.runRefs.slice(-LOOK_BACK).reverse();
  for (const ref of refs) {
    const rec = await readRun(home, thread.id, ref.id).catch(() => undefined);
    if (rec?.renders) return rec.renders;
  }
  return undefined;
}

/** What to render with. */
export interface HostRenderOptions {
  home: string;
  workspaceDir: string;
  /** Overrides the thread's picked scenario; '' = none. */
  scenario?: string;
  fresh?: boolean;
  /** One place key only. */
  only?: string;
  /** The thread's enabled skills that were found (main/core/skills/discover.ts `runSkills`): `available_skills`. */
  skills?: readonly { name: string; description: string }[];
}

/** Renders `thread` as its next run would send it. Throws HostError `template_error` naming place, line and column. */
export async function renderForRun(thread: Thread, o: HostRenderOptions): Promise<ThreadRender> {
  const frozen = o.fresh ? undefined : await latestRenders(o.home, thread);
  try {
    return await renderThread(thread, {
      read: workspaceFileReader(o.workspaceDir),
      workingDirectory: threadWorkingDirectory(thread, o.home, o.workspaceDir),
      now: new Date(),
      frozen,
      fresh: o.fresh,
      only: o.only,
      scenario: o.scenario,
      skills: o.skills,
      engine: hostTemplateEngine(),
    });
  } catch (err) {
    if (err instanceof PlaceError) throw new TemplateHostError(err);
    throw err;
  }
}

/** A template error as the host reports it: code `template_error`, with the place and position. */
export class TemplateHostError extends HostError {
  constructor(readonly place: PlaceError) {
    super('template_error', place.message);
  }
}
