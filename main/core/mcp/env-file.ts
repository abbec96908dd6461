/**
 * Reads a `.env` file as Cursor's and VS Code's `envFile` does (dotenv syntax): `KEY=value`
 * lines, an optional `export ` prefix, `#` comments, values in single quotes (literal), double
 * quotes (`\n` escapes, may span lines) or bare (trailing ` # comment` dropped, trimmed).
 * Lines that are not assignments are skipped. Never throws.
 */
const LINE = /^\s*(?:export\s+)?([\w.-]+)\s*[=:]\s*('(?:\\'|[^'])*'|"(?:\\"|[^"])*"|`(?:\\`|[^`])*`|[^#\r\n]*?)?\s*(?:#.*)?$/gm;

/** Parses dotenv text into name → value. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.replace(/\r\n?/g, '\n').matchAll(LINE)) {
    let v = (m[2] ?? '').trim();
    const q = v[0];
    if ((q === '"' || q === "'" || q === '`') && v.endsWith(q) && v.length >= 2) {
      v = v.slice(1, -1);
      if (q === '"') v = v.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    }
    out[m[1]] = v;
  }
  return out;
}
