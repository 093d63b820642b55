// A table with a CSV download.
import { toCsv } from '../data/csv';
import { formatValue, type Table } from '../data/summary';
import { download, slug } from '../charts/export';

export function DataTable({ title, table, testId }: { title: string; table: Table; testId?: string }) {
  if (table.rows.length === 0) return null;
  return (
    <section className="table-block" data-testid={testId}>
      <h3>
        {title}{' '}
        <button type="button" onClick={() => download(`${slug(title)}.csv`, toCsv(table), 'text/csv')}>
          CSV
        </button>
      </h3>
      <div className="table-scroll">
        <table>
          <thead>
            <tr>{table.columns.map((c) => <th key={c} scope="col">{c}</th>)}</tr>
          </thead>
          <tbody>
            {table.rows.slice(0, 500).map((row, i) => (
              <tr key={i}>{row.map((v, j) => <td key={j}>{formatValue(v)}</td>)}</tr>
            ))}
          </tbody>
        </table>
        {table.rows.length > 500 && <p className="note">First 500 of {table.rows.length} rows shown; the CSV has all.</p>}
      </div>
    </section>
  );
}
