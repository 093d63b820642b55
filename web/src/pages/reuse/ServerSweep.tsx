// A reuse sweep on the server: its batch followed until done (with cancel), then its runs'
// summaries turned into the same cells a browser run gives.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../../api';
import { collectCells, summarizeCells, type Cell, type RunOutcome } from '../../data/reuse';
import { usePolled } from '../usePolled';
import { finishedBatch, summarize, type Question } from './types';

/** A sweep on the server: its batch followed until done, then its runs' summaries turned into the table. */
export function ServerSweep({ id, question, onDone }: { id: string; question: Question; onDone: (cells: Cell[]) => void }) {
  const { value: batch, error: pollError, setValue } = usePolled(id, () => api.getBatch(id), (b) => finishedBatch(b.status));
  const [error, setError] = useState<string | null>(null);
  const fetched = useRef(false);
  useEffect(() => {
    if (!batch || batch.status !== 'completed' || fetched.current) return;
    fetched.current = true;
    (async () => {
      const runs = await api.getBatchRuns(id);
      const failed = runs.filter((r) => r.status !== 'done' || !r.summary);
      if (failed.length) throw new Error(`${failed.length} of ${runs.length} runs failed: ${failed[0].error ?? failed[0].status}`);
      const outcomes: RunOutcome[] = runs.map((r) => ({ point: r.point, params: r.params as RunOutcome['params'], replication: r.replication, summary: r.summary! }));
      onDone(await summarizeCells(collectCells(question.spec, question.axes, question.roles, outcomes), summarize));
    })().catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [batch, id, question, onDone]);

  if (pollError && !batch)
    return (
      <p className="error" role="alert" data-testid="reuse-error">
        {pollError.status === 404 ? `There is no batch with id “${id}”.` : pollError.message}
      </p>
    );
  if (!batch) return <p role="status">Loading batch {id}…</p>;
  const { counts } = batch;
  const percent = counts.total ? Math.round((100 * (counts.done + counts.failed + counts.cancelled)) / counts.total) : 0;
  return (
    <section className="run-bar" aria-label="Server batch" data-testid="reuse-batch" data-status={batch.status}>
      <progress max={100} value={percent} aria-label="Batch progress" />
      <span role="status">
        On the server: batch <Link to={`/b/${id}`}>{id}</Link>, {batch.status}, {counts.done} of {counts.total} runs done
        {counts.failed ? `, ${counts.failed} failed` : ''}
      </span>
      {!finishedBatch(batch.status) && (
        <button type="button" onClick={() => api.cancelBatch(id).then(setValue, (e: unknown) => setError(e instanceof Error ? e.message : String(e)))}>
          Cancel batch
        </button>
      )}
      {(error || batch.status === 'failed' || batch.status === 'cancelled') && (
        <p className="error" role="alert" data-testid="reuse-error">
          {error ?? `The batch ${batch.status === 'failed' ? 'failed' : 'was cancelled'}.`}
        </p>
      )}
    </section>
  );
}
