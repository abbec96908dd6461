/**
 * The working directory of a thread: where its built-in file tools and `bash` act, and the
 * value of the `current_working_directory` template variable.
 */
import path from 'node:path';
import type { Thread } from './schema';

/**
 * `settings.cwd` when set (an absolute path, or one relative to `workspaceDir`), else
 * `<home>/work/<thread id>`. Always absolute; the folder may not exist yet.
 */
export function threadWorkingDirectory(thread: Pick<Thread, 'id' | 'settings'>, home: string, workspaceDir: string): string {
  const cwd = thread.settings?.cwd;
  if (cwd) return path.resolve(workspaceDir, cwd);
  return path.join(path.resolve(home), 'work', thread.id);
}
