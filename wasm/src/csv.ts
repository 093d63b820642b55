// CSV as every export of the product writes it (the service's batch results, the dashboard's
// tables and plot columns; the CLI's trace.csv through its twin, sim-core/output/csv.cc, which
// passes the same cases, sim-core/output/csv_cases.json): RFC 4180 quoting, and cells that a
// spreadsheet would run as a formula neutralised (OWASP, "CSV Injection"): a text cell starting with
// =, +, -, @, a tab or a carriage return, or with what lets a formula follow (a semicolon, the
// separator of spreadsheets in many locales; a space or a line feed, which some skip) gets a leading
// apostrophe, which spreadsheets show as text. Numbers are left as they are, negative ones included.

const formulaStart = /^[=+\-@\t\r\n; ]/;
const plainNumber = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** One cell: empty for null, undefined and non-finite numbers; objects as JSON. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (formulaStart.test(text) && !plainNumber.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells as CSV text, one line per row ended by a line feed (as most tools write it). */
export function toCsvText(rows: readonly (readonly unknown[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}
