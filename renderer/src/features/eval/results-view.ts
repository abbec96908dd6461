/**
 * The results grid's rows (ResultsGrid.tsx): one row per case, one cell per variant, and the
 * filters — by status (any variant of the case has it), by tag, by text (case id, final text,
 * assertion reasons, error).
 */
import type { CaseResult, CaseStatus } from '../../../../shared/eval/results';

/** One case of a batch: its results by variant name. */
export interface CaseRow {
  caseId: string;
  cells: Record<string, CaseResult>;
}

/** The filters of the grid; empty strings and `all` do not filter. */
export interface ResultFilter {
  status: CaseStatus | 'all';
  tag: string;
  text: string;
}

/** Rows of `results`, cases in the order their first result came. */
export function caseRows(results: readonly CaseResult[]): CaseRow[] {
  const rows = new Map<string, CaseRow>();
  for (const r of results) {
    let row = rows.get(r.caseId);
    if (!row) rows.set(r.caseId, (row = { caseId: r.caseId, cells: {} }));
    row.cells[r.variant] = r;
  }
  return [...rows.values()];
}

function searchable(r: CaseResult): string {
  return [r.outcome?.finalText ?? '', r.error ?? '', ...r.assertions.map((a) => a.reason)].join('\n').toLowerCase();
}

/** The rows `f` keeps; `tagsOf` gives a case's tags (from its dataset). */
export function filterRows(rows: readonly CaseRow[], f: ResultFilter, tagsOf: (caseId: string) => readonly string[] = () => []): CaseRow[] {
  const text = f.text.trim().toLowerCase();
  return rows.filter((row) => {
    const cells = Object.values(row.cells);
    if (f.status !== 'all' && !cells.some((c) => c.status === f.status)) return false;
    if (f.tag && !tagsOf(row.caseId).includes(f.tag)) return false;
    if (text && !row.caseId.toLowerCase().includes(text) && !cells.some((c) => searchable(c).includes(text))) return false;
    return true;
  });
}

/** A cell's accessible name and title: "q2, terse: failed — contains: final text does not contain "4"". */
export function cellLabel(r: CaseResult): string {
  const why = r.status === 'error' ? (r.error ?? 'could not run') : r.assertions.filter((a) => a.status !== 'pass').map((a) => `${a.type}: ${a.reason}`).join('; ');
  return `${r.caseId}, ${r.variant}: ${r.status}${why ? ` — ${why}` : ''}`;
}
