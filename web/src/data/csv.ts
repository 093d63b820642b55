// CSV export (RFC 4180 quoting) of tables and plot columns.
import type { Table } from './summary';

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(table: Table): string {
  return [table.columns, ...table.rows].map((row) => row.map(cell).join(',')).join('\n') + '\n';
}

/** Long-format columns: one row per point with the series name. */
export function seriesCsv(
  columns: [string, string, string],
  series: { name: string; x: ArrayLike<number>; y: ArrayLike<number> }[],
): string {
  const rows: (string | number)[][] = [];
  for (const s of series) for (let i = 0; i < s.x.length; i++) rows.push([s.name, s.x[i], s.y[i]]);
  return toCsv({ columns: [...columns], rows });
}
