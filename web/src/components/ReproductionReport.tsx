// An experiment's report as the reproductions pages show it, whichever size ran it and wherever
// (the quick size in this browser, the full size on the server): each claim with its kind, its
// verdict (mark and words as the report gives them), its known causes and the paper's numbers beside
// ours with the ratio, for Savorić et al.'s claims the t-tests; and the paper's figure rebuilt with
// the paper's numbers as ◇ marks.
import type { ReactNode } from 'react';
import { BarChart, SweepChart } from '../charts/StaticCharts';
import { claimViews, differenceTable, figureHasPaper, paperText, reportFigures, verdictCounts, type ClaimView, type Estimate, type DifferenceTableView, type Figure, type MagnitudeRow, type Report, type Verdict } from '../data/reproduction';
import { formatValue } from '../data/summary';

/** Which size produced the report: the headings and captions say so. */
export type ReportSize = 'quick' | 'full';
const sizeWords: Record<ReportSize, string> = { quick: 'the quick size', full: 'full size' };

/** The CSS class of a verdict ("magnitude differs" → verdict-magnitude-differs). */
const verdictClass = (verdict: Verdict) => `verdict verdict-${verdict.replace(/ /g, '-')}`;

export function VerdictBadge({ verdict, mark, text }: { verdict: Verdict; mark: string; text: string }) {
  return (
    <span className={verdictClass(verdict)} data-verdict={verdict}>
      <span aria-hidden="true">{mark}</span> {text}
    </span>
  );
}

export function VerdictSummary({ report }: { report: Report }) {
  const counts = verdictCounts(report);
  return (
    <span className="verdict-summary" data-testid="verdict-summary" data-differs={report.claimSummary.counts.differs} data-unexplained={report.claimSummary.unexplained}>
      {counts
        .filter((v) => v.count > 0)
        .map((v) => (
          <span key={v.verdict} className={verdictClass(v.verdict)} title={v.meaning}>
            <span aria-hidden="true">{v.mark}</span> {v.count} {v.summary}
          </span>
        ))}
    </span>
  );
}

/**
 * The claims and the figures of a report. `reasonLink` is put after a known cause (e.g. a link to
 * the reproduction document's full-size section).
 */
export function ReproductionReport({ report, size, reasonLink }: { report: Report; size: ReportSize; reasonLink?: ReactNode }) {
  const views = claimViews(report);
  const figures = reportFigures(report);
  const marked = figures.some(figureHasPaper);
  const differences = differenceTable(report);
  return (
    <>
      <section aria-labelledby={`claims-title-${size}`}>
        <h3 id={`claims-title-${size}`}>
          The paper’s claims at {sizeWords[size]} <VerdictSummary report={report} />
        </h3>
        {report.paperTolerance && (
          <p className="hint" data-testid="paper-tolerance">
            A paper number agrees with ours within {paperToleranceWords(report.paperTolerance)}, unless it says otherwise: {report.paperTolerance.basis}.
          </p>
        )}
        <ul className="claims" data-testid="claims">
          {views.map((v, i) => (
            <ClaimItem key={i} view={v} reasonLink={reasonLink} />
          ))}
        </ul>
      </section>
      {differences && <DifferenceTable table={differences} size={size} />}
      <section aria-labelledby={`figures-title-${size}`}>
        <h3 id={`figures-title-${size}`}>
          The figure, rebuilt ({sizeWords[size]}; {marked ? '◇ marks the paper’s numbers' : 'the paper prints no number for it'})
        </h3>
        <div className="figures">
          {figures.map((f, i) => (
            <FigureView key={i} figure={f} size={size} />
          ))}
        </div>
      </section>
    </>
  );
}

/** The significance table of Savorić et al. (Tables 3 and 5): each difference, ours beside the paper's. */
function DifferenceTable({ table, size }: { table: DifferenceTableView; size: ReportSize }) {
  const points = table.rows.some((r) => r.point !== null);
  return (
    <section aria-labelledby={`differences-title-${size}`}>
      <h3 id={`differences-title-${size}`}>The paper’s significance table at {sizeWords[size]}</h3>
      <p className="hint">
        Each difference is given as Savorić et al. §6 give theirs: the highest of the levels 0.99, 0.95 and 0.90 at which the unpaired t-test’s interval excludes zero, with that interval, or the 0.90
        interval and n.s. (not significant). ≠ marks a conclusion other than the paper’s (its significance, or its sign).
        {table.compared > 0 && ` ${table.same} of ${table.compared} differences reach the paper’s conclusion.`}
      </p>
      <div className="table-scroll">
        <table className="ttest" data-testid="differences">
          <thead>
            <tr>
              <th scope="col">metric</th>
              {points && <th scope="col">point</th>}
              {table.columns.map((c) => (
                <th key={c} scope="col" colSpan={2}>
                  {c}: ours, paper
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((r, i) => (
              <tr key={i}>
                <th scope="row">{r.metric}</th>
                {points && <td>{r.point}</td>}
                {r.cells.flatMap((c, j) => [
                  <td key={`o${j}`} data-same={c.same === null ? undefined : String(c.same)}>
                    {c.ours}
                    {c.same === false && <span title="a conclusion other than the paper’s"> ≠</span>}
                  </td>,
                  <td key={`p${j}`}>{c.paper ?? '–'}</td>,
                ])}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function paperToleranceWords(t: { relative: number; absolute: number }): string {
  const r = `${+(t.relative * 100).toPrecision(3)} %`;
  const a = `${+t.absolute.toPrecision(3)}`;
  if (t.absolute <= 0) return r;
  return t.relative > 0 ? `${r} (or ${a})` : `±${a}`;
}

const factorText = (m: Pick<MagnitudeRow, 'factor' | 'note'>) => (m.factor !== null ? `×${+m.factor.toPrecision(2)}` : (m.note ?? '–'));

/** How many of a claim's paper numbers the page lists at once (the rest behind "all"). */
const shownMagnitudes = 6;

function MagnitudeTable({ rows }: { rows: MagnitudeRow[] }) {
  return (
    <table className="magnitudes" data-testid="magnitudes">
      <thead>
        <tr>
          <th scope="col">where</th>
          <th scope="col">paper</th>
          <th scope="col">ours</th>
          <th scope="col">ours / paper</th>
          <th scope="col">tolerance</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((m, i) => (
          <tr key={i} data-within={m.within}>
            <th scope="row">{m.where}</th>
            <td>{paperText(m.paper, formatValue)}</td>
            <td>{formatValue(m.ours)}</td>
            <td>{factorText(m)}</td>
            <td>
              {m.within ? 'within' : 'outside'} {m.tolerance}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ClaimItem({ view, reasonLink }: { view: ClaimView; reasonLink?: ReactNode }) {
  const first = view.magnitudes.slice(0, shownMagnitudes);
  const rest = view.magnitudes.slice(shownMagnitudes);
  return (
    <li data-verdict={view.verdict} data-kind={view.kind}>
      <VerdictBadge verdict={view.verdict} mark={view.mark} text={view.verdictText} /> <span className="claim-kind">{view.kind}</span> {view.text}{' '}
      <span className="hint">({view.detail})</span>
      {!view.explained && (
        <p className="reason error" data-testid="unexplained">
          No known cause for what does not agree.
        </p>
      )}
      {view.causes.map((c) => (
        <p key={c.of} className="reason">
          {c.of === 'test' ? 'Known cause' : 'Known cause of the magnitudes'}: {c.text}
          {reasonLink && <> {reasonLink}</>}
        </p>
      ))}
      {view.magnitudes.length > 0 && (
        <div className="table-scroll">
          {view.source && (
            <p className="reason">
              The paper: {view.source}
              {view.toleranceBasis ? `; tolerance: ${view.toleranceBasis}` : ''}
            </p>
          )}
          <MagnitudeTable rows={first} />
          {rest.length > 0 && (
            <details>
              <summary>all {view.magnitudes.length} paper numbers</summary>
              <MagnitudeTable rows={rest} />
            </details>
          )}
        </div>
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

/** A table cell: "ours ± ci (paper X, ×k)". */
export function estimateText(e: Estimate): string {
  const ours = `${formatValue(e.mean)}${e.ci ? ` ± ${formatValue(e.ci[1] - (e.mean ?? 0))}` : ''}`;
  if (e.paper === null) return ours;
  const ratio = e.paperRatio !== null ? `, ×${+e.paperRatio.toPrecision(2)}` : '';
  return `${ours} (paper ${paperText(e.paper, formatValue)}${ratio})`;
}

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
  if (figure.kind === 'claim')
    return (
      <div data-testid="claim-figure">
        <BarChart title={figure.title} yLabel={figure.yLabel} bars={{ categories: figure.categories, series: [{ name: 'ours', values: figure.values.map((e) => e.mean), paper: figure.values.map((e) => e.paper) }] }} />
      </div>
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
        <caption>Mean ± 95% CI half-width at {sizeWords[size]} (the paper’s value and ours / paper in brackets)</caption>
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
                <td key={i} {...(e.paperWithin !== undefined ? { 'data-within': e.paperWithin } : {})}>
                  {estimateText(e)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
