/**
 * Names of workspace files and folders that Windows, macOS and Linux all accept, so a workspace
 * (or a thread file) can move between machines. A safe name:
 *
 * - is Unicode NFC. `café` typed as NFD (macOS input, pasted text) is the same name as its NFC
 *   form: new names are written in NFC, and names are compared after NFC (and case-insensitively,
 *   as macOS and Windows do), so the two can never be two files that look alike;
 * - has none of the characters Windows refuses (`<>:"/\|?*`, U+0000–U+001F), nor DEL, nor a lone
 *   UTF-16 surrogate (not text; the file system would store U+FFFD instead);
 * - does not end with a dot or a space (Windows drops them) and does not start with a dot
 *   (a hidden file, which the workspace does not list);
 * - is not a Windows device name — CON, PRN, AUX, NUL, COM0–COM9, COM¹–COM³, LPT0–LPT9, LPT¹–LPT³
 *   — in any case, alone or before an extension (`con.json` and `nul .txt` are devices too);
 * - is at most 255 bytes of UTF-8 (ext4, APFS and most others; NTFS counts 255 UTF-16 units,
 *   which 255 bytes never exceed). A thread file's name leaves 11 bytes more for the temporary
 *   `<name>.<number>` its atomic save writes first, so it is at most 244 bytes, `.json` included.
 *
 * A thread's title is free text: `safeStem` turns any title into a safe file name (renaming what
 * breaks a rule; the title inside the file keeps every character). A folder's name is what the
 * tree shows: `folderName` refuses a name that breaks a rule, saying which.
 */
import { readdir } from 'node:fs/promises';
import { WorkspaceError, quoted } from '../../../shared/workspace/workspace-error';
import { MAX_NAME_BYTES, utf8Length } from '../../../shared/workspace/paths.node.js';

export { MAX_NAME_BYTES, utf8Length } from '../../../shared/workspace/paths.node.js';
/** What write-file-atomic adds to a name for its temporary file: '.' and a 32-bit number. */
export const ATOMIC_TEMP_SUFFIX_BYTES = 11;
/** The extension of thread files. */
export const THREAD_EXT = '.json';
/** Longest thread file name (extension included), in UTF-8 bytes. */
export const MAX_THREAD_NAME_BYTES = MAX_NAME_BYTES - ATOMIC_TEMP_SUFFIX_BYTES;
/** Longest title-derived stem, in UTF-8 bytes (the name without `.json`). */
export const MAX_STEM_BYTES = MAX_THREAD_NAME_BYTES - THREAD_EXT.length;
/**
 * Longest title-derived stem in code points, whatever its bytes: a title can be a sentence, and
 * shorter names keep nested paths under Windows' 260-character limit.
 */
export const MAX_STEM_CHARS = 120;

// eslint-disable-next-line no-control-regex
const INVALID = /[<>:"/\\|?*\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?= *(?:\.|$))/i;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** True when Windows takes `name` for a device (CON, nul.txt, COM¹…), whatever its case. */
export function isReservedName(name: string): boolean {
  return DEVICE.test(name);
}

/**
 * Why `name` is not a safe name (see the module comment), or undefined when it is. `name` is
 * checked as given: normalise it to NFC first. `maxBytes`: the byte limit (default 255).
 */
export function nameProblem(name: string, maxBytes = MAX_NAME_BYTES): string | undefined {
  if (!name) return 'a name cannot be empty';
  if (name.normalize('NFC') !== name) return 'it is not in Unicode NFC form';
  const bad = [...new Set(name.match(INVALID) ?? [])];
  if (bad.length) {
    const shown = bad.map((c) => (/^[<>:"/\\|?*]$/.test(c) ? c : `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`));
    return `it contains ${shown.join(' ')}, which ${bad.length === 1 ? 'is' : 'are'} not allowed in names on Windows (nor are < > : " / \\ | ? * and control characters)`;
  }
  if (name.startsWith('.')) return 'it starts with a dot, which makes it hidden (the workspace does not show hidden names)';
  if (/[.\s]$/.test(name)) return 'it ends with a dot or a space, which Windows removes from names';
  if (isReservedName(name)) return 'it is a device name on Windows (CON, PRN, AUX, NUL, COM0–9, LPT0–9, also before an extension)';
  const bytes = utf8Length(name);
  if (bytes > maxBytes) return `it is ${bytes} bytes long in UTF-8; a name may be at most ${maxBytes} bytes`;
  return undefined;
}

/**
 * A folder name the user typed, in NFC. Throws WorkspaceError 'invalid' naming the rule it breaks
 * (see `nameProblem`); a folder name is never changed silently, since the tree shows it as typed.
 */
export function folderName(typed: string): string {
  const name = typed.normalize('NFC');
  const problem = nameProblem(name);
  if (problem) throw new WorkspaceError('invalid', `refused folder name ${quoted(typed)}: ${problem}`);
  return name;
}

/** `name` with '_' after its Windows device word (`CON` → `CON_`, `con.json` → `con_.json`). */
function unreserve(name: string): string {
  return name.replace(DEVICE, '$&_');
}

/**
 * The longest start of `s` within `maxBytes` UTF-8 bytes and `maxChars` code points, cut between
 * grapheme clusters (an accent stays with its letter, an emoji sequence stays whole); a first
 * cluster longer than the limits alone is cut between code points.
 */
function cut(s: string, maxBytes: number, maxChars: number): string {
  if (utf8Length(s) <= maxBytes && [...s].length <= maxChars) return s;
  let out = '';
  let bytes = 0;
  let chars = 0;
  for (const { segment } of graphemes.segment(s)) {
    const points = [...segment];
    const b = utf8Length(segment);
    if (bytes + b > maxBytes || chars + points.length > maxChars) {
      if (out) break;
      for (const p of points) {
        if (bytes + utf8Length(p) > maxBytes || chars + 1 > maxChars) break;
        out += p;
        bytes += utf8Length(p);
        chars++;
      }
      break;
    }
    out += segment;
    bytes += b;
    chars += points.length;
  }
  return out;
}

/** `stem` cut to `maxBytes` and `MAX_STEM_CHARS`, without trailing dots or spaces, never empty or a device name. */
function fitStem(stem: string, maxBytes: number): string {
  const s = cut(unreserve(stem), maxBytes, MAX_STEM_CHARS).replace(/[.\s]+$/, '');
  // A cut can leave a bare device word ("CON x" → "CON"); its '_' fits, as device words are short.
  return unreserve(s || 'Untitled');
}

/**
 * The file-name stem of a thread titled `title` (the name is `<stem>.json`). Any string gives a
 * safe name (see the module comment): NFC; characters Windows refuses become '_'; leading spaces
 * go and leading dots become '_'; cut to 120 code points and to 239 bytes (so `<stem>.json` and
 * its atomic-save temporary fit in 255) at a grapheme boundary; trailing dots and spaces go; a
 * Windows device name gets '_' after the device word (`CON` → `CON_`, `con.json` → `con_.json`);
 * nothing left gives "Untitled". Idempotent: a stem maps to itself.
 */
export function safeStem(title: string): string {
  const s = String(title).normalize('NFC').replace(INVALID, '_').replace(/^\s+/, '');
  return fitStem(s.replace(/^\.+/, (dots) => '_'.repeat(dots.length)), MAX_STEM_BYTES);
}

/** The byte limit of a name ending in `ext`: thread files leave room for their atomic-save temporary. */
function nameLimit(ext: string): number {
  return ext.toLowerCase() === THREAD_EXT ? MAX_THREAD_NAME_BYTES : MAX_NAME_BYTES;
}

/** `name` as names are compared: NFC, lower case (macOS and Windows ignore case). */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** `stem` with collision number `n` (` 2`, ` 3`…), cut so that the name with `ext` still fits. */
function numbered(stem: string, n: number, ext: string): string {
  if (n === 1) return stem;
  const suffix = ` ${n}`;
  return `${fitStem(stem, nameLimit(ext) - utf8Length(ext) - utf8Length(suffix))}${suffix}`;
}

/**
 * A name `<stem><ext>` not yet used in `dir`, where two names are the same when equal after NFC
 * and case folding (so an NFD `café.json` from another machine takes `café.json`); collisions
 * get ` 2`, ` 3`… (the stem cut shorter when the name would pass its byte limit). `except` is a
 * name that may be reused (the entry itself).
 */
export async function uniqueName(dir: string, stem: string, ext: string, except?: string): Promise<string> {
  let names: string[] = [];
  try {
    names = await readdir(dir);
  } catch {}
  const taken = new Set(names.filter((n) => n !== except).map(nameKey));
  for (let n = 1; ; n++) {
    const name = `${numbered(stem, n, ext)}${ext}`;
    if (!taken.has(nameKey(name))) return name;
  }
}

/** True when `stem` (a file stem from disk) is the stem `safeStem(title)` gives, possibly with a collision number. */
export function stemMatchesTitle(stem: string, title: string): boolean {
  const s = stem.normalize('NFC');
  const base = safeStem(title);
  if (s === base) return true;
  const m = /^(.*) ([1-9]\d*)$/su.exec(s);
  return !!m && s === numbered(base, Number(m[2]), THREAD_EXT);
}
