/**
 * promptfoo's tests files for `stepwise eval --dataset` (docs/architecture.md#evaluation): YAML
 * (`.yaml`, `.yml`) and JSON lists of tests or configs with `tests`, read as promptfoo writes them
 * (shared/eval/promptfoo.ts). Errors name the test by number and the line it starts on.
 */
import { LineCounter, parseDocument, isMap, isSeq, type Node } from 'yaml';
import { isPromptfooDocument, parsePromptfoo, type DatasetRead } from '../../../shared/eval/dataset-io';
import { parseJsonText } from '../../../shared/thread/json-text';

/** Whether a dataset file name is YAML (promptfoo's usual tests file). */
export function isYamlFile(file: string): boolean {
  return /\.ya?ml$/i.test(file);
}

/** The list node of the tests in a parsed YAML document: the root list, or a config's `tests`. */
function testItems(root: Node | null | undefined): Node[] {
  if (isSeq(root)) return root.items as Node[];
  if (isMap(root)) {
    const tests = root.get('tests', true);
    if (isSeq(tests)) return tests.items as Node[];
  }
  return [];
}

/** Reads a promptfoo YAML tests file or config as a dataset named `name`; syntax errors by line and column. */
export function parsePromptfooYaml(text: string, name: string): DatasetRead {
  const lines = new LineCounter();
  // Aliases expand to at most this many nodes: a "billion laughs" file is refused, not expanded.
  const doc = parseDocument(text.replace(/^\uFEFF/, ''), { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    return { ok: false, errors: doc.errors.slice(0, 5).map((e) => {
      const at = lines.linePos(e.pos[0]);
      return `line ${at.line}, column ${at.col}: ${e.message.split('\n')[0]}`;
    }) };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    return { ok: false, errors: [(err as Error).message] };
  }
  const items = testItems(doc.contents);
  return parsePromptfoo(value, name, (i) => {
    const start = items[i]?.range?.[0];
    return start === undefined ? `test ${i + 1}` : `test ${i + 1} (line ${lines.linePos(start).line})`;
  });
}

/** A `.json` file that is promptfoo's (a list of tests, or a config with `tests`) as a dataset, or undefined when it is not (a Stepwise dataset file). */
export function parsePromptfooJson(text: string, name: string): DatasetRead | undefined {
  const parsed = parseJsonText(text.replace(/^\uFEFF/, ''));
  if (!parsed.ok || !isPromptfooDocument(parsed.value)) return undefined;
  return parsePromptfoo(parsed.value, name, (i) => `test ${i + 1}`);
}
