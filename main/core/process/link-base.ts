/**
 * What every ChildLink shares, whatever starts the process: listener sets for frames, exit
 * and stderr, an exit reported exactly once (also to listeners that come late), and the tsx
 * loader for TypeScript entries (development and tests).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { ChildExit, ChildFrame } from './types';

/** The tsx loader as an absolute file URL, so `--import` works whatever the child's cwd. */
export function tsxLoader(): string {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  } catch {
    return 'tsx';
  }
}

/** True for an entry that must run through tsx. */
export const isTypeScriptEntry = (entry: string): boolean => /\.[cm]?tsx?$/.test(entry);

export abstract class ChildLinkBase {
  private readonly frameListeners = new Set<(frame: ChildFrame) => void>();
  private readonly exitListeners = new Set<(exit: ChildExit) => void>();
  private readonly stderrListeners = new Set<(chunk: string) => void>();
  protected exit: ChildExit | undefined;
  private exitReported = false;

  /** Deliver a message from the child if it is a `{ ch, msg }` frame. */
  protected emitFrame(m: unknown): void {
    if (!m || typeof m !== 'object') return;
    const frame = m as ChildFrame;
    if (frame.ch !== 'run' && frame.ch !== 'mcp' && frame.ch !== 'template') return;
    for (const l of this.frameListeners) l(frame);
  }

  protected emitStderr(chunk: string): void {
    for (const l of this.stderrListeners) l(chunk);
  }

  /** Tell exit listeners, once, after `this.exit` is set. */
  protected reportExit(): void {
    if (this.exitReported || !this.exit) return;
    this.exitReported = true;
    for (const l of this.exitListeners) l(this.exit);
  }

  onFrame(listener: (frame: ChildFrame) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  onExit(listener: (exit: ChildExit) => void): () => void {
    if (this.exitReported && this.exit) {
      const exit = this.exit;
      queueMicrotask(() => listener(exit));
      return () => {};
    }
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  onStderr(listener: (chunk: string) => void): () => void {
    this.stderrListeners.add(listener);
    return () => this.stderrListeners.delete(listener);
  }
}
