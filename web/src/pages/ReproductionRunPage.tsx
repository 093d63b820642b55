// A reproduction run on the server (/r/:id): live progress while its runs go through the queue
// (polled, as the batch page does), then the stored report in the same claims and figures as the
// quick size's, with its JSON and text as `tcpsim reproduce` prints them. The link can be shared:
// whoever opens it gets the stored report.
import { Link, useParams } from 'react-router-dom';
import { api, type Reproduction } from '../api';
import { ReproductionReport } from '../components/ReproductionReport';
import { isCurrentReport, reportVersion } from '../data/reproduction';
import { usePolled } from './usePolled';

const finished = (s: Reproduction['status']) => s === 'completed' || s === 'cancelled' || s === 'failed';

const sizeName = { full: 'full size', quick: 'quick size' } as const;

export function ReproductionRunPage() {
  const { id = '' } = useParams();
  const { value: reproduction, setValue: setReproduction, error, setError } = usePolled(id, () => api.getReproduction(id), (r) => finished(r.status));

  if (error && !reproduction)
    return (
      <main className="page">
        <h2>Reproduction {id}</h2>
        <p className="error" role="alert" data-testid="reproduction-error">
          {error.status === 404 ? `There is no reproduction with id “${id}”.` : error.message}
        </p>
      </main>
    );
  if (!reproduction) return <main className="page"><p>Loading reproduction {id}…</p></main>;

  const { counts, report } = reproduction;
  const completed = counts.done + counts.failed + counts.cancelled;
  const percent = counts.total ? Math.round((100 * counts.done) / counts.total) : 0;
  const cancel = () =>
    api.cancelReproduction(id).then(setReproduction, (e: unknown) => setError({ message: e instanceof Error ? e.message : String(e), status: 0 }));
  const statusText =
    reproduction.status === 'reporting'
      ? `every run is done (${counts.total}); building the report…`
      : reproduction.status === 'completed'
        ? `completed: ${counts.total} runs${reproduction.finishedAt ? `, finished ${new Date(reproduction.finishedAt).toLocaleString()}` : ''}`
        : `${reproduction.status}: ${counts.done} of ${counts.total} runs done (${percent} %)${counts.running ? `, ${counts.running} running` : ''}${counts.failed ? `, ${counts.failed} failed` : ''}${counts.cancelled ? `, ${counts.cancelled} cancelled` : ''}`;

  return (
    <main
      className="page reproduce"
      data-testid="reproduction-run"
      data-status={reproduction.status}
      data-experiment={reproduction.experiment}
      data-runs-hash={report?.runsHash ?? ''}
    >
      <nav aria-label="Breadcrumb" className="crumbs">
        <Link to="/reproduce">Reproductions</Link> › <Link to={`/reproduce/${encodeURIComponent(reproduction.experiment)}`}>{reproduction.title}</Link>
      </nav>
      <h2>
        {reproduction.title}, {sizeName[reproduction.mode]} on the server
      </h2>
      {error && <p className="error" role="alert">{error.message} (retrying)</p>}
      <div className="run-bar">
        <progress max={100} value={percent} aria-label="Runs done" data-testid="reproduction-progress" data-percent={percent} />
        <span role="status" aria-live="polite" data-testid="reproduction-status">
          {statusText}
        </span>
        {!finished(reproduction.status) && reproduction.status !== 'reporting' && (
          <button type="button" onClick={() => void cancel()}>
            Cancel
          </button>
        )}
        {report && (
          <>
            <a href={api.reproductionReportUrl(id, 'json')} download={`${reproduction.experiment}-${reproduction.mode}-report.json`} data-testid="report-json">
              Report JSON
            </a>
            <a href={api.reproductionReportUrl(id, 'text')} download={`${reproduction.experiment}-${reproduction.mode}-report.txt`}>
              Report text
            </a>
          </>
        )}
      </div>
      {reproduction.error && (
        <p className="error" role="alert" data-testid="reproduction-failure">
          {reproduction.error}
        </p>
      )}
      {completed < counts.total && !report && (
        <p className="hint">
          The runs go through the server’s queue, one job each; this page follows them and shows the report when the last one is recorded. Its link stays valid: the report is stored.
        </p>
      )}
      {report && isCurrentReport(report) && <ReproductionReport report={report} size={reproduction.mode} />}
      {report && !isCurrentReport(report) && (
        <p className="hint" data-testid="old-report">
          This report was built by an earlier version (report version {String((report as { schemaVersion: unknown }).schemaVersion)}; this page reads version {reportVersion}, whose
          verdicts cover the paper’s magnitudes): its JSON and text stay available above; run the reproduction again to see its claims here.
        </p>
      )}
    </main>
  );
}
