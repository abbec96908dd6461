/**
 * The encoded state of an open thread's Yjs document, kept across host restarts
 * (docs/architecture.md#multi-window-editing, step 3): written beside the thread's run files
 * (`<home>/runs/<thread id>/thread.ydoc`) with each save, tagged with the document's id and a
 * hash of the thread JSON that save wrote. On open the host takes it when the hash matches the
 * JSON it loaded (same document id: a window that reconnects still merges its unsent edits
 * through `thread.sync`); else, or when the file does not read, the document is rebuilt from
 * the JSON and windows load the thread again (`stale_doc`). The JSON file and the edit log stay
 * the formats on disk: this file is a cache, never the only copy of anything.
 *
 * Format: the line `stepwise-ydoc 1`, one line of JSON `{"docId","hash"}`, then the Yjs update.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/** What one state file holds. */
export interface SavedYState {
  /** The host document's id (its `guid`). */
  docId: string;
  /** Hash of the thread JSON saved with it (edit-log.ts `docHash`). */
  hash: string;
  /** `Y.encodeStateAsUpdate` of the document. */
  update: Uint8Array;
}

const MAGIC = 'stepwise-ydoc 1\n';
/** A header longer than this is not one of ours. */
const MAX_HEADER = 1024;
const SAFE = /^[A-Za-z0-9_-]{1,128}$/;

/** The state file of thread `threadId` under `runsRoot` (`<home>/runs`); undefined for an id that is not a safe file name. */
export function yStateFile(runsRoot: string, threadId: string): string | undefined {
  return SAFE.test(threadId) ? path.join(runsRoot, threadId, 'thread.ydoc') : undefined;
}

/** The bytes of a state file. */
export function encodeYState(s: SavedYState): Buffer {
  const head = Buffer.from(MAGIC + JSON.stringify({ docId: s.docId, hash: s.hash }) + '\n', 'utf8');
  return Buffer.concat([head, s.update]);
}

/** A state file's bytes read back; throws with the reason for bytes that are not one. */
export function decodeYState(bytes: Uint8Array): SavedYState {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.subarray(0, MAGIC.length).toString('utf8') !== MAGIC) throw new Error('not a Stepwise Yjs state file (no "stepwise-ydoc 1" line)');
  const end = buf.indexOf(0x0a, MAGIC.length);
  if (end < 0 || end - MAGIC.length > MAX_HEADER) throw new Error('its header line is missing or too long');
  let head: unknown;
  try {
    head = JSON.parse(buf.subarray(MAGIC.length, end).toString('utf8'));
  } catch (err) {
    throw new Error(`its header is not JSON (${(err as Error).message})`, { cause: err });
  }
  const { docId, hash } = (head ?? {}) as { docId?: unknown; hash?: unknown };
  if (typeof docId !== 'string' || !docId || typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) throw new Error('its header lacks the document id or the hash');
  return { docId, hash, update: new Uint8Array(buf.subarray(end + 1)) };
}

/**
 * Read thread `threadId`'s saved state: undefined when there is none; a file that does not read
 * as one is reported through `log` and ignored (the document is rebuilt from the JSON).
 */
export async function readYState(runsRoot: string, threadId: string, log?: (m: string) => void): Promise<SavedYState | undefined> {
  const file = yStateFile(runsRoot, threadId);
  if (!file) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log?.(`could not read ${file} (${(err as Error).message}); the thread's Yjs document is rebuilt from its JSON`);
    return undefined;
  }
  try {
    return decodeYState(bytes);
  } catch (err) {
    log?.(`${file} is not used: ${(err as Error).message}; the thread's Yjs document is rebuilt from its JSON`);
    return undefined;
  }
}

/** Write thread `threadId`'s state (atomically; the folder is made when missing). */
export async function writeYState(runsRoot: string, threadId: string, s: SavedYState): Promise<void> {
  const file = yStateFile(runsRoot, threadId);
  if (!file) return;
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, encodeYState(s));
}
