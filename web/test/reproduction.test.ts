// Experiment reports as the papers' figures, claims with verdicts, and the reproduction docs'
// sections found by the claims they list: on reports the engine builds (quick size) and on a
// hand-made document.
import { afterAll, describe, expect, it } from 'vitest';
import { createSimulator } from '@tcb-lab/sim';
import { cellAt, claimViews, docSection, headingAnchor, reportFigures, sweepAxis, verdictCounts, type BarFigure, type SweepFigure, type TableFigure } from '../src/data/reproduction';

const sim = createSimulator({ maxWorkers: 2 });
afterAll(() => sim.close());
// Quick experiments take a second or two, more on a busy machine: not a timed assertion.
const slow = { timeout: 60_000 };

describe('reports as figures', () => {
  it('E-TCP Fig. 5: bars per page and variant, the paper’s value beside ours', slow, async () => {
    const { report } = await sim.runExperiment('etcp-fig5-realistic', { quick: true });
    const figures = reportFigures(report) as BarFigure[];
    expect(figures.map((f) => f.kind)).toEqual(['bars', 'bars']);
    expect(figures[0].categories).toEqual(['text', 'map', 'graphics', 'frames', 'java']);
    expect(figures[0].series.map((s) => s.name)).toEqual(report.variants.map((v) => v.label));
    // Every bar is its cell's mean; one replication: no interval.
    figures.forEach((f) =>
      f.series.forEach((s, v) =>
        s.values.forEach((e, p) => {
          const cell = cellAt(report, v, p, f.metric);
          expect(e.mean).toBe(cell.mean);
          expect(e.paper).toBe(cell.paper ?? null);
          expect(e.ci).toBeNull();
        }),
      ),
    );
  });

  it('TCP/SPAND Fig. 10: lines against the number of connections with 95% intervals', slow, async () => {
    const { report } = await sim.runExperiment('spand-fig10', { quick: true });
    expect(sweepAxis(report)).toBe(0);
    const [f] = reportFigures(report) as SweepFigure[];
    expect(f.kind).toBe('sweep');
    expect(f.lines.length).toBe(report.variants.length);
    const xs = report.axes[0].values.map((v) => v.value);
    for (const line of f.lines) {
      expect(line.points.map((p) => p.x)).toEqual(xs);
      for (const p of line.points) {
        expect(p.ci).not.toBeNull();
        expect(p.ci![0]).toBeLessThanOrEqual(p.mean!);
        expect(p.ci![1]).toBeGreaterThanOrEqual(p.mean!);
      }
    }
  });

  it('Savorić et al. Table 2: one table of every metric, and the t-tests as the paper reports them', slow, async () => {
    const { report } = await sim.runExperiment('savoric-table2', { quick: true });
    const figures = reportFigures(report);
    expect(figures.length).toBe(1);
    const table = figures[0] as TableFigure;
    expect(table.kind).toBe('table');
    expect(table.rows.length).toBe(report.metrics.length);
    expect(table.columns).toEqual(report.variants.map((v) => v.label));
    const views = claimViews(report);
    const significant = views.filter((v) => v.claim.kind === 'significant');
    expect(significant.length).toBeGreaterThan(0);
    for (const v of significant) {
      expect(v.tests.length).toBe(v.claim.checked);
      for (const t of v.tests) expect([0.9, 0.95, 0.99]).toContain(t.level);
    }
    const counts = verdictCounts(views);
    expect(counts.agrees + counts.differs + counts['known difference'] + counts['not checked']).toBe(report.claims.length);
    expect(counts.differs).toBe(report.claimSummary.differ);
    expect(counts['known difference']).toBe(report.claimSummary.knownDiffer);
  });
});

describe('the doc section of an experiment', () => {
  const md = [
    '# Paper',
    '## Setup',
    'Claim A is mentioned in passing.',
    '## Results (full size)',
    '### Fig. 5, realistic (10-packet queue, 4 connections)',
    '```',
    '## not a heading inside a code block',
    '```',
    '- ✓ agrees      Claim A',
    '- ✓ agrees      Claim B',
    '### Fig. 6: repeated access',
    '- ✗ differs (known) Claim C',
    '## Where and why we differ',
  ].join('\n');

  it('is the innermost section that lists most of the claims', () => {
    const s = docSection(md, ['Claim A', 'Claim B'])!;
    expect(s.heading).toBe('Fig. 5, realistic (10-packet queue, 4 connections)');
    expect(s.anchor).toBe('fig-5-realistic-10-packet-queue-4-connections');
    expect(s.body.startsWith('```')).toBe(true);
    expect(s.body).toContain('Claim B');
    expect(s.body).not.toContain('Claim C');
    expect(docSection(md, ['Claim C'])!.heading).toBe('Fig. 6: repeated access');
    expect(docSection(md, ['Claim Z'])).toBeNull();
  });

  it('anchors follow GitHub’s rule', () => {
    expect(headingAnchor('Table 4.2: serial HTTP/1.0')).toBe('table-42-serial-http10');
    expect(headingAnchor('Fig. 10: completion time')).toBe('fig-10-completion-time');
  });
});
