// CSV cells as every export writes them: RFC 4180 quoting, and no cell a spreadsheet would run as a
// formula (OWASP, "CSV Injection"). The text cells of sim-core/output/csv_cases.json are the CLI's
// trace.csv's too (sim-core/output/csv_test.cc).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { csvCell, toCsvText } from '@tcb-lab/sim/csv';

const cases = JSON.parse(readFileSync(new URL('../../sim-core/output/csv_cases.json', import.meta.url), 'utf8')) as {
  cells: { text: string; cell: string }[];
};

test('text cells as sim-core writes them (the cases shared with sim-core/output/csv.cc)', () => {
  assert.ok(cases.cells.length > 10);
  for (const c of cases.cells) assert.equal(csvCell(c.text), c.cell, JSON.stringify(c.text));
});

test('text that a spreadsheet would run as a formula is shown as text', () => {
  for (const formula of ['=1+1', '@SUM(A1)', '+1+1', '-1+1', '\t=1', '\r=1', '=HYPERLINK("http://x")']) {
    const cell = csvCell(formula);
    const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
    assert.equal(unquoted, `'${formula}`, JSON.stringify(formula));
  }
});

test('numbers, negative ones included, and ordinary text are left as they are', () => {
  assert.equal(csvCell(-1.5), '-1.5');
  assert.equal(csvCell('-1.5'), '-1.5');
  assert.equal(csvCell('+2e-3'), '+2e-3');
  assert.equal(csvCell('newreno'), 'newreno');
  assert.equal(csvCell('a=b'), 'a=b');
  assert.equal(csvCell(Number.NaN), '');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(true), 'true');
  assert.equal(csvCell({ a: 1 }), '"{""a"":1}"');
});

test('cells with separators, quotes or line breaks are quoted (RFC 4180 §2)', () => {
  assert.equal(toCsvText([['a', 'b'], ['x,y', 1.5], ['"q"', null], ['two\nlines', '=1']]), 'a,b\n"x,y",1.5\n"""q""",\n"two\nlines",\'=1\n');
});
