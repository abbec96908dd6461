/**
 * What to try when `thread.open` is refused, by the error's code. Only a thread file that did
 * not load (`bad_thread_file`: bad JSON, not a thread, fails the schema) has its error shown in
 * the workspace tree; a file that is gone, or one whose id another open file has
 * (`duplicate_thread_id`, whose message already says what to do), does not.
 */
export function openThreadHint(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e?.code !== 'bad_thread_file') return undefined;
  // An io error (the file is gone or is a folder) is not a malformed file.
  if (/: (no such file|is a folder, not a thread file)$/.test(String(e.message ?? ''))) return 'The workspace tree shows the files that are there now: open the thread from it again.';
  return 'The file may be malformed: its error is shown in the workspace tree.';
}
