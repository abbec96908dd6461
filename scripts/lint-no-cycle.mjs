/**
 * `import-x/no-cycle` with type-only imports counted as edges (#14).
 *
 * The plugin's rule skips `import type` and `export type … from` everywhere: in the file it lints
 * and in every module it walks. A cycle of type imports still ties modules together (one cannot
 * move or split without the other), and the cycles this project had were partly or wholly
 * type-only, so this wrapper runs the plugin's own rule over import statements re-marked as value
 * imports: the linted file's through its visitors, the walked modules' through the parser the
 * rule parses them with. Options and messages are the plugin's.
 */
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const noCycle = importX.rules['no-cycle'];

const SOURCE_STATEMENTS = new Set(['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'TSImportEqualsDeclaration']);

/** A copy of an import / export-from statement node with its type-only marks set to value. */
function asValueImport(node) {
  if (!SOURCE_STATEMENTS.has(node.type)) return node;
  const copy = { ...node };
  if ('importKind' in copy) copy.importKind = 'value';
  if ('exportKind' in copy) copy.exportKind = 'value';
  if (Array.isArray(copy.specifiers)) {
    copy.specifiers = copy.specifiers.map((s) => ({
      ...s,
      ...('importKind' in s && { importKind: 'value' }),
      ...('exportKind' in s && { exportKind: 'value' }),
    }));
  }
  return copy;
}

/** typescript-eslint's parser, with the top-level import / export-from statements re-marked as value imports. */
const typeImportsAsValuesParser = {
  meta: { name: 'stepwise/type-imports-as-values', version: '1' },
  parseForESLint(code, options) {
    const result = tseslint.parser.parseForESLint(code, options);
    result.ast.body = result.ast.body.map(asValueImport);
    return result;
  },
};

/** The ESLint rule: `import-x/no-cycle`, type-only imports included. */
export const noCycleIncludingTypes = {
  meta: noCycle.meta,
  defaultOptions: noCycle.defaultOptions,
  create(context) {
    // The rule parses the modules it walks with the linted file's parser: hand it ours.
    const walked = Object.create(context, {
      languageOptions: { value: { ...context.languageOptions, parser: typeImportsAsValuesParser } },
    });
    const visitors = noCycle.create(walked);
    return Object.fromEntries(
      Object.entries(visitors).map(([selector, visit]) => [
        selector,
        SOURCE_STATEMENTS.has(selector) ? (node) => visit(asValueImport(node)) : visit,
      ]),
    );
  },
};
