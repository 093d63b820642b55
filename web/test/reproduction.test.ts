// Experiment reports as the papers' figures, claims with their kinds, verdicts and the paper's
// numbers beside ours, the page's rendering of them, and the reproduction docs' sections found by
// the claims they list: on reports the engine builds (quick size) and on a hand-made document.
import { afterAll, describe, expect, it } from 'vitest';
import { createSimulator } from '@tcb-lab/sim';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { SweepChart } from '../src/charts/SweepChart';
import { estimateText, ReproductionReport } from '../src/components/ReproductionReport';
import { cellAt, claimViews, differenceTable, docSection, figureHasPaper, headingAnchor, reportFigures, sweepAxis, verdictCounts, type BarFigure, type ClaimFigure, type SweepFigure, type TableFigure } from '../src/data/reproduction';
import { formatValue } from '../src/data/summary';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const sim = createSimulator({ maxWorkers: 2 });
afterAll(() => sim.close());
// Quick experiments take a second or two, more on a busy machine: not a timed assertion.
const slow = { timeout: 60_000 };

describe('reports as figures', () => {
  it('E-TCP Fig. 5: bars per page and variant, the paper’s value beside ours', slow, async () => {
    const { report } = await sim.runExperiment('etcp-fig5-realistic', { quick: true });
    const all = reportFigures(report);
    // A bar chart per metric, then a chart per claim with a paper number of its own.
    expect(all.map((f) => f.kind)).toEqual(['bars', 'bars', ...report.claims.filter((c) => c.paper).map(() => 'claim')]);
    const figures = all.filter((f): f is BarFigure => f.kind === 'bars');
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
    const table = figures[0] as TableFigure;
    expect(table.kind).toBe('table');
    expect(table.rows.length).toBe(report.metrics.length);
    expect(table.columns).toEqual(report.variants.map((v) => v.label));
    const views = claimViews(report);
    const significant = views.filter((v) => v.claim.test === 'significant');
    expect(significant.length).toBeGreaterThan(0);
    for (const v of significant) {
      expect(v.kind).toBe('significance');
      expect(v.tests.length).toBe(v.claim.checked);
      for (const t of v.tests) expect([0.9, 0.95, 0.99]).toContain(t.level);
    }
    // The verdicts' counts, marks and words are the report's.
    const counts = verdictCounts(report);
    expect(counts.map((c) => c.verdict)).toEqual(report.verdicts.map((v) => v.verdict));
    expect(counts.reduce((n, c) => n + c.count, 0)).toBe(report.claims.length);
    for (const c of counts) expect(c.count).toBe(views.filter((v) => v.verdict === c.verdict).length);
  });

  it('Savorić et al. Table 2: the paper’s numbers beside ours with the ratio, in the table and in the claims', slow, async () => {
    const { report } = await sim.runExperiment('savoric-table2', { quick: true });
    const table = reportFigures(report)[0] as TableFigure;
    const t2 = table.rows.find((r) => report.metrics[r.metric].name === 't2New-tcp1')!;
    for (const [v, e] of t2.values.entries()) {
      const cell = cellAt(report, v, 0, t2.metric);
      expect(e.paper).toBe(cell.paper);
      expect(e.paperRatio).toBeCloseTo(cell.mean! / cell.paper!, 12);
      expect(estimateText(e)).toBe(`${formatValue(e.mean)} ± ${formatValue(e.ci![1] - e.mean!)} (paper ${formatValue(cell.paper!)}, ×${+(cell.mean! / cell.paper!).toPrecision(2)})`);
    }
    // T2 of new short connections: ours several times the paper's, so the claim is not "agrees".
    const claim = claimViews(report).find((v) => v.text.startsWith('New short connections (TCP 1) reach a higher connection'))!;
    expect(claim.verdict).toBe('magnitude differs');
    expect(claim.verdictText).toMatch(/^direction agrees, magnitude ×\d/);
    expect(claim.mark).toBe(report.verdicts.find((v) => v.verdict === 'magnitude differs')!.mark);
    expect(claim.causes.map((c) => c.of)).toEqual(['magnitudes']);
    expect(claim.magnitudes.map((m) => m.where)).toEqual(['MV-TCBI', 'no TCBI']);
    for (const m of claim.magnitudes) {
      expect(m.within).toBe(false);
      expect(m.factor).toBeCloseTo(m.ours! / (m.paper as number), 12);
      expect(m.factor!).toBeGreaterThan(2);
    }
  });

  it('Savorić et al. Table 3: every difference as the paper reports it, ours beside the paper’s, on the page', slow, async () => {
    const { report } = await sim.runExperiment('savoric-table2', { quick: true });
    const table = differenceTable(report)!;
    expect(table.columns).toEqual(['no TCBI − MV-TCBI', 'no TCBI − FS-TCBI']);
    // Table 3's nine rows: T1 and T2 of new connections per type, then the parallel connections'.
    const tested = ['t1New-tcp1', 't1New-tcp2', 't1New-tcp3', 't2New-tcp1', 't2New-tcp2', 't2New-tcp3', 't1Parallel', 't2Parallel', 'jainParallel'];
    expect(table.rows.map((r) => r.metric)).toEqual(tested.map((name) => report.metrics.find((m) => m.name === name)!).map((m) => (m.unit ? `${m.label} (${m.unit})` : m.label)));
    // The report's rows, as the texts say: the paper's T2 of TCP 1 against MV-TCBI is Table 3's.
    const t2 = table.rows[3].cells[0];
    expect(t2.paper).toBe('0.99 : (−10.47, −5.67)');
    const row = report.differences!.rows.find((r) => r.metric === 't2New-tcp1' && r.variant === 'mv-tcbi')!;
    expect(t2.same).toBe(row.sameConclusion);
    expect(t2.ours).toMatch(/^0\.(99|95|90) : \([−+]\d+\.\d\d, [−+]\d+\.\d\d\)( n\.s\.)?$/);
    expect(table.compared).toBe(18);
    expect(table.same).toBe(report.differences!.rows.filter((r) => r.sameConclusion).length);
    const html = renderToStaticMarkup(createElement(ReproductionReport, { report, size: 'quick' }));
    expect(html).toContain('data-testid="differences"');
    expect(html).toContain(escapeHtml(`${table.same} of 18 differences reach the paper’s conclusion`));
    // Experiments without a significance table show none.
    const { report: etcp } = await sim.runExperiment('etcp-fig5-model', { quick: true });
    expect(differenceTable(etcp)).toBeNull();
  });

  it('E-TCP Fig. 5: the gains the paper’s text gives are claims with ◇ marks (a range: one at each end)', slow, async () => {
    const { report } = await sim.runExperiment('etcp-fig5-model', { quick: true });
    const figures = reportFigures(report);
    const claims = figures.filter((f): f is ClaimFigure => f.kind === 'claim');
    expect(claims.length).toBe(report.claims.filter((c) => c.paper).length);
    expect(claims.length).toBeGreaterThan(0);
    expect(figures.some(figureHasPaper)).toBe(true);
    const gain = claims.find((f) => f.title.startsWith('E-TCP with HTML-pre delivers the HTML 6-46 %'))!;
    expect(gain.categories).toEqual(['text', 'map', 'graphics', 'frames', 'java']);
    expect(gain.yLabel).toBe('HTML transmission time, reduction: 1 − E-TCP, HTML-pre / Reno bundle');
    const claim = report.claims[gain.claim];
    gain.values.forEach((e, i) => {
      expect(e.paper).toEqual({ min: 0.06, max: 0.46 });
      expect(e.mean).toBe(claim.results[i].measured);
    });
    expect(claim.verdict).toBe('magnitude differs');
  });
});

describe('the paper’s numbers on every figure', () => {
  // Every built-in experiment at the quick size: each paper number of a cell is on its metric's
  // figure, and each claim's own paper number on a figure of the claim, so that no chart whose
  // paper gives numbers is left without its ◇ marks.
  it('every paper number of every experiment is on a figure', { timeout: 600_000 }, async () => {
    for (const name of await sim.listExperiments()) {
      const { report } = await sim.runExperiment(name, { quick: true });
      const figures = reportFigures(report);
      const cellsWithPaper = report.cells.filter((c) => c.paper !== undefined);
      for (const cell of cellsWithPaper) {
        const metric = report.metrics.findIndex((m) => m.name === cell.metric);
        const variant = report.variants.findIndex((v) => v.name === cell.variant);
        const point = report.points.findIndex((p) => report.axes.every((a) => p.point[a.name] === cell.point[a.name]));
        const shown = figures.some((f) => {
          if (f.kind === 'table') return f.rows.some((r) => r.metric === metric && r.values[variant]?.paper === cell.paper);
          if (f.kind === 'bars') return f.metric === metric && f.series[variant]?.values[point]?.paper === cell.paper;
          if (f.kind === 'sweep') return f.metric === metric && f.lines.some((l) => l.points.some((p) => p.paper === cell.paper));
          return false;
        });
        expect(shown, `${name}: ${cell.variant} ${cell.metric} ${JSON.stringify(cell.point)}`).toBe(true);
      }
      report.claims.forEach((c, k) => {
        if (!c.paper || c.results.length === 0) return;
        const figure = figures.find((f): f is ClaimFigure => f.kind === 'claim' && f.claim === k);
        expect(figure, `${name}: ${c.text}`).toBeDefined();
        expect(figure!.values.every((e) => e.paper !== null)).toBe(true);
      });
      expect(figures.some(figureHasPaper)).toBe(cellsWithPaper.length > 0 || report.claims.some((c) => c.paper && c.results.length > 0));
    }
  });

  it('a sweep chart draws a paper range as a ◇ at each end joined by a dashed line, and a value as one ◇', () => {
    const html = renderToStaticMarkup(
      createElement(SweepChart, {
        title: 'Gain',
        xLabel: 'connections',
        yLabel: 'reduction',
        lines: [{ name: 'TCP/SPAND', points: [{ x: 1, mean: 0.4, ci: null, paper: { min: 0.35, max: 0.65 } }, { x: 2, mean: 0.5, ci: null, paper: 0.5 }, { x: 3, mean: 0.6, ci: null }] }],
      }),
    );
    expect(html.match(/<title>TCP\/SPAND, connections 1: paper 0.35–0.65<\/title>/g)?.length).toBe(2);
    expect(html.match(/<title>TCP\/SPAND, connections 2: paper 0.5<\/title>/g)?.length).toBe(1);
    expect(html).toContain('stroke-dasharray="3 2"');
    expect(html).toContain('the paper’s number');
  });

  it('RFC 9959 and [CR25]: the RTTs saved as a claim figure, the paper’s range beside ours at each path and size', slow, async () => {
    const { report } = await sim.runExperiment('careful-resume-rfc9959', { quick: true });
    const k = report.claims.findIndex((c) => c.measure === 'saving');
    const figure = reportFigures(report).find((f): f is ClaimFigure => f.kind === 'claim' && f.claim === k)!;
    expect(figure.yLabel).toBe('completion time of the measured transfer, in RTTs, saving: standard congestion control − Careful Resume');
    expect(figure.categories.length).toBe(4);
    figure.values.forEach((e, i) => {
      expect(e.paper).toEqual({ min: 2.8, max: 3.4 });
      expect(e.mean).toBe(report.claims[k].results[i].measured);
    });
    expect(report.claims[k].verdict).toBe('magnitude differs');
  });
});

describe('the reproduction page', () => {
  it('renders each claim’s verdict in the report’s words and its paper / ours / ratio table', slow, async () => {
    const { report } = await sim.runExperiment('careful-resume-rfc9959', { quick: true });
    const html = renderToStaticMarkup(createElement(ReproductionReport, { report, size: 'quick' }));
    expect(html).toContain('◇ marks the paper’s numbers');
    for (const c of report.claims) {
      expect(html).toContain(`data-verdict="${c.verdict}"`);
      expect(html).toContain(escapeHtml(c.verdictText));
    }
    // The 1 MB claim: the RFC's 62 % against ours, with the ratio.
    const claim = report.claims.find((c) => c.text.startsWith('Careful Resume completes a 1 MB transfer'))!;
    const m = claim.results[0].magnitudes![0];
    expect(html).toContain(`<td>${formatValue(0.62)}</td><td>${formatValue(m.ours as number)}</td><td>×${+m.factor!.toPrecision(2)}</td>`);
    expect(html).toContain('Known cause of the magnitudes:');
    expect(html).not.toContain('data-testid="unexplained"');
    expect(html).toContain('data-testid="paper-tolerance"');
  });

  it('says so when the paper prints no number for a figure', slow, async () => {
    const { report } = await sim.runExperiment('tcpint-fig-sack', { quick: true });
    expect(reportFigures(report).some(figureHasPaper)).toBe(false);
    const html = renderToStaticMarkup(createElement(ReproductionReport, { report, size: 'quick' }));
    expect(html).toContain('the paper prints no number for it');
    expect(html).not.toContain('◇ marks');
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
