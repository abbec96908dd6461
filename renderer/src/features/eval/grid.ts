/**
 * The dataset grid's edits (DatasetGrid.tsx): rows are cases, columns are the case id, one
 * column per variable, the expected value and the tags. Each edit returns a new dataset and
 * never mutates its input; the grid saves the result through `eval.saveDataset`.
 */
import type { Dataset, EvalCase } from '../../../../shared/eval/dataset';
import type { Scenario } from '../../../../shared/thread/schema';

/** The variable columns: every variable name any case uses, in first-seen order, plus `extra` (columns added but still empty). */
export function variableColumns(d: Dataset, extra: readonly string[] = []): string[] {
  const names: string[] = [];
  for (const c of d.cases) for (const k of Object.keys(c.vars)) if (!names.includes(k)) names.push(k);
  for (const k of extra) if (!names.includes(k)) names.push(k);
  return names;
}

function withCases(d: Dataset, cases: EvalCase[]): Dataset {
  return { ...d, cases };
}

/** A case id not used yet: `case-N` with the smallest N ≥ the row count + 1. */
export function freshCaseId(d: Dataset): string {
  const taken = new Set(d.cases.map((c) => c.id));
  let n = d.cases.length + 1;
  while (taken.has(`case-${n}`)) n++;
  return `case-${n}`;
}

/** Appends a case with a fresh id and every variable column empty. */
export function addRow(d: Dataset, columns: readonly string[]): Dataset {
  return withCases(d, [...d.cases, { id: freshCaseId(d), vars: Object.fromEntries(columns.map((k) => [k, ''])) }]);
}

/** Removes the case at `row`. */
export function removeRow(d: Dataset, row: number): Dataset {
  return withCases(d, d.cases.filter((_, i) => i !== row));
}

/** A grid column: the id, a variable (by name), the expected value or the tags. */
export type GridColumn = { kind: 'id' } | { kind: 'var'; name: string } | { kind: 'expected' } | { kind: 'tags' };

/** The text a cell shows. */
export function cellText(c: EvalCase, col: GridColumn): string {
  switch (col.kind) {
    case 'id':
      return c.id;
    case 'var':
      return c.vars[col.name] ?? '';
    case 'expected':
      return c.expected ?? '';
    case 'tags':
      return (c.tags ?? []).join(', ');
  }
}

/**
 * Sets one cell from its text. An empty expected value or tag list removes the field; tags
 * are comma-separated (blank ones dropped). Ids are set as typed: duplicates are reported by
 * {@link gridProblems}, not refused here, so typing never loses text.
 */
export function setCell(d: Dataset, row: number, col: GridColumn, text: string): Dataset {
  const cases = d.cases.map((c, i) => {
    if (i !== row) return c;
    const next: EvalCase = { ...c, vars: { ...c.vars } };
    if (col.kind === 'id') next.id = text;
    else if (col.kind === 'var') next.vars[col.name] = text;
    else if (col.kind === 'expected') {
      if (text === '') delete next.expected;
      else next.expected = text;
    } else {
      const tags = text.split(',').map((t) => t.trim()).filter(Boolean);
      if (tags.length) next.tags = tags;
      else delete next.tags;
    }
    return next;
  });
  return withCases(d, cases);
}

/** Adds a variable column to every case (empty text); refuses a name that is not a variable name or is taken. */
export function addVariable(d: Dataset, name: string, columns: readonly string[]): { ok: true; dataset: Dataset } | { ok: false; error: string } {
  if (!/^[A-Za-z_][\w.-]*$/.test(name)) return { ok: false, error: `"${name}" is not a variable name (letters, digits, _ . -; not starting with a digit)` };
  if (columns.includes(name)) return { ok: false, error: `there is already a column "${name}"` };
  return { ok: true, dataset: withCases(d, d.cases.map((c) => ({ ...c, vars: { ...c.vars, [name]: '' } }))) };
}

/** Removes a variable column from every case. */
export function removeVariable(d: Dataset, name: string): Dataset {
  return withCases(
    d,
    d.cases.map((c) => {
      const vars = { ...c.vars };
      delete vars[name];
      return { ...c, vars };
    }),
  );
}

/** What keeps the grid from saving: empty and repeated case ids, by row (1-based). */
export function gridProblems(d: Dataset): string[] {
  const out: string[] = [];
  const seen = new Map<string, number>();
  d.cases.forEach((c, i) => {
    if (!c.id) out.push(`row ${i + 1}: the case id is empty`);
    else if (seen.has(c.id)) out.push(`row ${i + 1}: case id "${c.id}" is also used in row ${seen.get(c.id)! + 1}`);
    else seen.set(c.id, i);
  });
  return out;
}

/** Cases from a thread's scenarios: one per scenario, its name as id and its variables as the case's. */
export function casesFromScenarios(scenarios: readonly Scenario[]): EvalCase[] {
  const used = new Set<string>();
  return scenarios.map((s, i) => {
    let id = s.name || `scenario-${i + 1}`;
    for (let n = 2; used.has(id); n++) id = `${s.name}-${n}`;
    used.add(id);
    return { id, vars: { ...(s.variables ?? {}) } };
  });
}
