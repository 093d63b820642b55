// An experiment's report as the reproductions pages show it, whichever size ran it and wherever
// (the quick size in this browser, the full size on the server): each claim with its verdict and,
// for Savorić et al.'s, the t-tests, and the paper's figure rebuilt with the paper's numbers.
import type { ReactNode } from 'react';
import { BarChart, SweepChart } from '../charts/StaticCharts';
import { claimViews, reportFigures, verdictCounts, type ClaimView, type Estimate, type Figure, type Report, type Verdict } from '../data/reproduction';
import { formatValue } from '../data/summary';

/** Which size produced the report: the headings and captions say so. */
export type ReportSize = 'quick' | 'full';
const sizeWords: Record<ReportSize, string> = { quick: 'the quick size', full: 'full size' };

const verdictMark: Record<Verdict, string> = { agrees: '✓', differs: '✗', 'known difference': '≈', 'not checked': '–' };

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return (
    <span className={`verdict verdict-${verdict.replace(' ', '-')}`}>
      <span aria-hidden="true">{verdictMark[verdict]}</span> {verdict}
    </span>
  );
}

export function VerdictSummary({ report }: { report: Report }) {
  const counts = verdictCounts(claimViews(report));
  return (
    <span className="verdict-summary" data-testid="verdict-summary" data-differs={counts.differs}>
      {(Object.keys(counts) as Verdict[])
        .filter((v) => counts[v] > 0)
        .map((v) => (
          <span key={v} className={`verdict verdict-${v.replace(' ', '-')}`}>
            <span aria-hidden="true">{verdictMark[v]}</span> {counts[v]} {v}
          </span>
        ))}
    </span>
  );
}

/**
 * The claims and the figures of a report. `reasonLink` is put after a known difference's reason
 * (e.g. a link to the reproduction document's full-size section).
 */
export function ReproductionReport({ report, size, reasonLink }: { report: Report; size: ReportSize; reasonLink?: ReactNode }) {
  const views = claimViews(report);
  return (
    <>
      <section aria-labelledby={`claims-title-${size}`}>
        <h3 id={`claims-title-${size}`}>
          The paper’s claims at {sizeWords[size]} <VerdictSummary report={report} />
        </h3>
        <ul className="claims" data-testid="claims">
          {views.map((v, i) => (
            <ClaimItem key={i} view={v} reasonLink={reasonLink} />
          ))}
        </ul>
      </section>
      <section aria-labelledby={`figures-title-${size}`}>
        <h3 id={`figures-title-${size}`}>The figure, rebuilt ({sizeWords[size]}; ◇ marks the paper’s numbers)</h3>
        <div className="figures">
          {reportFigures(report).map((f, i) => (
            <FigureView key={i} figure={f} size={size} />
          ))}
        </div>
      </section>
    </>
  );
}

function ClaimItem({ view, reasonLink }: { view: ClaimView; reasonLink?: ReactNode }) {
  return (
    <li data-verdict={view.verdict}>
      <VerdictBadge verdict={view.verdict} /> {view.text} <span className="hint">({view.detail})</span>
      {view.reason && (
        <p className="reason">
          Why: {view.reason}
          {reasonLink && <> {reasonLink}</>}
        </p>
      )}
      {view.tests.length > 0 && (
        <div className="table-scroll">
          <table className="ttest">
            <caption>Unpaired t-test, reported as Savorić et al. §6 do</caption>
            <thead>
              <tr>
                <th scope="col">point</th>
                <th scope="col">difference of means</th>
                <th scope="col">level</th>
                <th scope="col">interval</th>
                <th scope="col">significant</th>
              </tr>
            </thead>
            <tbody>
              {view.tests.map((t, i) => (
                <tr key={i}>
                  <th scope="row">{t.point}</th>
                  <td>{formatValue(t.difference)}</td>
                  <td>{t.level}</td>
                  <td>
                    [{formatValue(t.interval[0])}, {formatValue(t.interval[1])}]
                  </td>
                  <td>{t.significant ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </li>
  );
}

const withPaper = (e: Estimate) => `${formatValue(e.mean)}${e.ci ? ` ± ${formatValue(e.ci[1] - (e.mean ?? 0))}` : ''}${e.paper !== null ? ` (paper ${formatValue(e.paper)})` : ''}`;

function FigureView({ figure, size }: { figure: Figure; size: ReportSize }) {
  if (figure.kind === 'bars')
    return (
      <BarChart
        title={figure.title}
        yLabel={figure.yLabel}
        bars={{
          categories: figure.categories,
          series: figure.series.map((s) => ({
            name: s.name,
            values: s.values.map((e) => e.mean),
            ...(s.values.some((e) => e.ci) ? { ci: s.values.map((e) => e.ci) } : {}),
            paper: s.values.map((e) => e.paper),
          })),
        }}
      />
    );
  if (figure.kind === 'sweep')
    return (
      <SweepChart
        title={figure.title}
        xLabel={figure.xLabel}
        yLabel={figure.yLabel}
        lines={figure.lines.map((l) => ({ name: l.name, points: l.points.map((p) => ({ x: p.x, mean: p.mean, ci: p.ci, paper: p.paper })) }))}
      />
    );
  return (
    <div className="table-scroll">
      <table data-testid="report-table">
        <caption>Mean ± 95% CI half-width at {sizeWords[size]} (the paper’s value in brackets)</caption>
        <thead>
          <tr>
            <th scope="col">metric</th>
            {figure.columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {figure.rows.map((r) => (
            <tr key={r.metric}>
              <th scope="row">{r.label}</th>
              {r.values.map((e, i) => (
                <td key={i}>{withPaper(e)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
