import { describe, expect, it } from 'vitest';
import { splitArgs } from './split-args';

const ok = (line: string) => {
  const r = splitArgs(line);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(line)} to split, got: ${r.error}`);
  return r.args;
};

describe('splitting MCP server arguments like a POSIX shell', () => {
  it('splits on runs of whitespace; nothing is no arguments', () => {
    expect(ok('-y  @modelcontextprotocol/server-filesystem\t/tmp ')).toEqual(['-y', '@modelcontextprotocol/server-filesystem', '/tmp']);
    expect(ok('')).toEqual([]);
    expect(ok('   ')).toEqual([]);
  });

  it('quotes group words inside one argument and are removed', () => {
    expect(ok('--x="a b" c')).toEqual(['--x=a b', 'c']);
    expect(ok("--x='a b' c")).toEqual(['--x=a b', 'c']);
    expect(ok('"/path with spaces/dir"')).toEqual(['/path with spaces/dir']);
    expect(ok(`a"b c"'d e'f`)).toEqual(['ab cd ef']);
    expect(ok(`"it's" 'say "hi"'`)).toEqual(["it's", 'say "hi"']);
  });

  it('empty quotes are an empty argument', () => {
    expect(ok(`a "" ''`)).toEqual(['a', '', '']);
  });

  it('a backslash escapes the next character outside quotes, and only " \\ $ ` inside double quotes', () => {
    expect(ok('a\\ b c')).toEqual(['a b', 'c']);
    expect(ok('\\"x\\\' \\\\')).toEqual([`"x'`, '\\']);
    expect(ok('"a \\"b\\" \\\\ \\n"')).toEqual(['a "b" \\ \\n']);
    expect(ok("'no \\escape here'")).toEqual(['no \\escape here']);
  });

  it('an unterminated quote or a trailing backslash is an error naming the column', () => {
    expect(splitArgs('--x="a b c')).toEqual({ ok: false, error: 'The double quote at column 5 is not closed' });
    expect(splitArgs("a 'b")).toEqual({ ok: false, error: 'The single quote at column 3 is not closed' });
    expect(splitArgs('"a \\"')).toEqual({ ok: false, error: 'The double quote at column 1 is not closed' });
    const r = splitArgs('a b\\');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^A backslash at the end \(column 4\)/);
  });
});
