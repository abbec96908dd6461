/**
 * Confinement of `file:` requests to one folder (the renderer's bundle). A file URL is turned
 * into the path the file loader would open, that path is normalised, and only then compared
 * with the folder — so `renderer/..%2f..%2fetc%2fpasswd` (an encoded separator that the URL
 * parser leaves alone and a decoder turns into `../../`) cannot leave it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Percent-encoded `/`, `\` and NUL. A name in the app's bundle never needs them, and a loader
 * that decodes them turns one path segment into several (or cuts the path short).
 */
const ENCODED_SEPARATOR_OR_NUL = /%(2f|5c|00)/i;

/**
 * True when `url` is a `file:` URL naming a file strictly inside `dir` (an absolute path in
 * the platform's form; the folder itself is not a file). Refused: a host (UNC share), encoded
 * separators or NUL, a backslash, a malformed percent escape, a path that is not absolute.
 * On Windows, also a name that Windows would read as another (see plainWindowsNames).
 * Windows and macOS compare without letter case, as their default file systems do.
 * `platform` selects the path rules (process.platform by default; tests pass another).
 */
export function isFileUrlUnder(url: URL, dir: string, platform: NodeJS.Platform = process.platform): boolean {
  if (url.protocol !== 'file:' || url.host !== '') return false;
  if (ENCODED_SEPARATOR_OR_NUL.test(url.pathname) || url.pathname.includes('\\')) return false;
  const windows = platform === 'win32';
  const p = windows ? path.win32 : path.posix;
  let file: string;
  try {
    file = fileURLToPath(url, { windows }); // decodes; throws on a malformed escape
  } catch {
    return false;
  }
  if (!p.isAbsolute(file) || !p.isAbsolute(dir)) return false;
  if (windows && !plainWindowsNames(file)) return false;
  const fold = windows || platform === 'darwin';
  const target = p.normalize(fold ? file.toLowerCase() : file);
  const root = p.normalize(fold ? dir.toLowerCase() : dir);
  const rel = p.relative(root, target);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${p.sep}`) && !p.isAbsolute(rel);
}

/**
 * False when a name after the drive holds a `:` (an alternate data stream or a drive-relative
 * path) or ends in a dot or space (Windows drops those, so `.. .` would open `..`): Windows
 * would open another file than the one checked. No file in the bundle is named so.
 */
function plainWindowsNames(file: string): boolean {
  return file
    .slice(2)
    .split('\\')
    .every((name) => !name.includes(':') && !/[. ]$/.test(name));
}
