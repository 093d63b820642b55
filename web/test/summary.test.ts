import { describe, expect, it } from 'vitest';
import type { Result } from '@tcb-lab/sim';
import { toCsv, seriesCsv } from '../src/data/csv';
import { differenceTable, formatValue } from '../src/data/summary';

function result(html: number, retx: number): Result {
  return {
    simulatedTimeS: 10,
    run: {
      meanCompletionTimeS: null,
      retransmissions: retx,
      timeouts: 0,
      transfersCompleted: 4,
      pages: { started: 1, completed: 1, meanHtmlTimeS: html, meanTotalTimeS: 2 * html, retrievalRateBytesPerS: 1000 },
      fairness: { jainIndex: 1, flows: 2 },
      packets: { injected: 1, delivered: 1, dropped: 0, inFlight: 0 },
    },
  } as unknown as Result;
}

describe('differenceTable', () => {
  it('gives each variant’s difference to the first and marks the best', () => {
    const rows = differenceTable([result(1, 4), result(0.5, 2), result(2, 4)]);
    const html = rows.find((r) => r.metric.key === 'meanHtmlTimeS')!;
    expect(html.values).toEqual([1, 0.5, 2]);
    expect(html.delta).toEqual([0, -0.5, 1]);
    expect(html.relative).toEqual([0, -0.5, 1]);
    expect(html.best).toBe(1);
    const retx = rows.find((r) => r.metric.key === 'retransmissions')!;
    expect(retx.best).toBe(1);
    expect(rows.find((r) => r.metric.key === 'jainIndex')!.best).toBe(-1);
    expect(rows.some((r) => r.metric.key === 'meanCompletionTimeS')).toBe(false);
  });
});

describe('csv', () => {
  it('quotes what needs quoting', () => {
    expect(toCsv({ columns: ['a', 'b'], rows: [['x,y', 1.5], ['"q"', null]] })).toBe('a,b\n"x,y",1.5\n"""q""",\n');
    expect(seriesCsv(['series', 't', 'y'], [{ name: 'f', x: [0, 1], y: [2, 3] }])).toBe('series,t,y\nf,0,2\nf,1,3\n');
    // OWASP, "CSV Injection": a name a spreadsheet would run as a formula is exported as text.
    expect(toCsv({ columns: ['name', 'value'], rows: [['=HYPERLINK("http://example.org")', -1], ['@SUM(A1)', 2]] })).toBe(
      'name,value\n"\'=HYPERLINK(""http://example.org"")",-1\n\'@SUM(A1),2\n',
    );
  });
  it('formats numbers compactly', () => {
    expect(formatValue(0.123456)).toBe('0.1235');
    expect(formatValue(12)).toBe('12');
    expect(formatValue(null)).toBe('–');
    expect(formatValue(1.5e-5)).toBe('1.500e-5');
  });
});
