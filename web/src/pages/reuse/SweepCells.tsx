// Every point of a reuse sweep, folded away: its table (means; the CSV has the intervals too) and its
// numbers as JSON with each run's resultHash, for comparing two runs of the same sweep.
import { useMemo } from 'react';
import { download } from '../../charts/export';
import { toCsv } from '../../data/csv';
import { cellsTable, tableNumbers, type Cell, type ReuseSpec } from '../../data/reuse';
import { formatValue } from '../../data/summary';

export function SweepCells({ cells, spec }: { cells: Cell[]; spec: ReuseSpec }) {
  const table = cellsTable(cells, spec);
  const numbers = useMemo(() => JSON.stringify(tableNumbers(cells)), [cells]);
  return (
    <details className="reuse-all">
      <summary>Every point of the sweep ({cells.length})</summary>
      <p>
        <button type="button" onClick={() => download('reuse-sweep.csv', toCsv(table), 'text/csv')}>
          CSV
        </button>{' '}
        <button type="button" onClick={() => download('reuse-sweep.json', numbers, 'application/json')}>
          JSON (with each run’s resultHash)
        </button>
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Every point of the sweep (scrolls sideways)">
        <table data-testid="reuse-cells">
          <thead>
            <tr>
              {table.columns.filter((c) => !c.endsWith('ci95 low') && !c.endsWith('ci95 high')).map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, i) => (
              <tr key={i}>
                {row.filter((_, j) => !table.columns[j].endsWith('ci95 low') && !table.columns[j].endsWith('ci95 high')).map((v, j) => (
                  <td key={j}>{formatValue(v)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <pre hidden data-testid="reuse-numbers">
        {numbers}
      </pre>
    </details>
  );
}
