// CSV export of tables and plot columns, written as the service writes its CSV (quoting, and
// formula cells neutralised: @tcb-lab/sim/csv).
import { toCsvText } from '@tcb-lab/sim/csv';
import type { Table } from './summary';

export function toCsv(table: Table): string {
  return toCsvText([table.columns, ...table.rows]);
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
