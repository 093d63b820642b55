// "What would reuse give my traffic?" (/reuse): a path and a workload (a download of S bytes, or a
// built-in web page) visited twice with an idle time T between the visits; the repeat visit's
// completion time against T and against S for each sharing scheme, and the loss and queueing cost
// each scheme pays or causes a neighbour. The sweep is one grid (data/reuse/) planned by sim-core:
// small sweeps run in this browser's workers, larger ones as a batch on the server; both give the
// same table (the runs are bit-identical and the statistics are sim-core's either way). The form's
// fields are in the link, and a server run adds its batch (?batch=<id>), so a link reopens both.
import type { Scenario } from '@tcb-lab/sim';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { questionLink, questions } from '../components/Landing';
import { Stale } from '../components/Stale';
import { browserSegmentBudget, formFromQuery, formToQuery, parseForm, reusePaths, reuseRequest, sweepRuns, sweepSegments, type FormErrors, type ReuseForm } from '../data/reuse';
import { presetScenario } from '../sim';
import { QuestionForm } from './reuse/QuestionForm';
import { ReuseResults } from './reuse/ReuseResults';
import { ServerSweep } from './reuse/ServerSweep';
import { useReuseSweep, type Asked } from './reuse/useReuseSweep';
import './reuse.css';

// The landing screen's question that opens this view: its preset in compare mode is one point of it.
const landingQuestion = questions.find((q) => q.view === '/reuse');

/** The paths' scenarios (path presets), loaded once. */
function useReusePaths() {
  const [paths, setPaths] = useState<Record<string, Scenario>>({});
  const [pathError, setPathError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all(reusePaths.map(async (p) => [p.preset, await presetScenario(p.preset)] as const)).then(
      (entries) => live && setPaths(Object.fromEntries(entries)),
      (e) => live && setPathError(`The paths could not be loaded: ${e instanceof Error ? e.message : String(e)}`),
    );
    return () => {
      live = false;
    };
  }, []);
  return { paths, pathError };
}

export function ReusePage() {
  const [params, setParams] = useSearchParams();
  const [form, setForm] = useState<ReuseForm>(() => formFromQuery(params));
  const batchId = params.get('batch');
  const { paths, pathError } = useReusePaths();
  const sweep = useReuseSweep(form, params, setParams);

  const parsed = useMemo(() => parseForm(form), [form]);
  const path = paths[form.path];
  // The question the form asks (null while it has errors or the path is loading).
  const asked = useMemo((): Asked | { error: string } | null => {
    if (!parsed.spec || !path) return null;
    try {
      const { request, roles, axes } = reuseRequest(path, parsed.spec);
      return { question: { spec: parsed.spec, roles, axes }, request };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }, [parsed, path]);
  const question = asked && 'question' in asked ? asked : null;
  const fieldErrors: FormErrors = { ...(parsed.errors ?? {}), ...sweep.errors, ...(asked && 'error' in asked ? { path: asked.error } : {}) };

  const update = (patch: Partial<ReuseForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    sweep.clearErrors();
    setParams(formToQuery(next), { replace: true });
  };

  const segments = parsed.spec && path ? sweepSegments(parsed.spec, ((path.tcp ?? {}) as { mssBytes?: number }).mssBytes ?? 1460) : 0;
  const outcome = sweep.outcome;

  // ?run=1 (the landing screen's question): the question is answered at once, in this browser,
  // where it is small enough; the address then keeps only the form.
  const autoRun = useRef(params.get('run') === '1');
  useEffect(() => {
    if (!autoRun.current || !question || sweep.running !== null) return;
    autoRun.current = false;
    setParams(formToQuery(form), { replace: true });
    if (segments <= browserSegmentBudget) void sweep.runInBrowser(question);
  }, [question, segments, sweep, form, setParams]);

  return (
    <main className="page reuse" data-testid="reuse">
      <h2>What would reuse give my traffic?</h2>
      <p className="reuse-intro">
        Pick a path and a workload: a client downloads a file or fetches a web page, waits an idle time, and comes back. The first visit leaves the server’s sharing scheme whatever it keeps
        (an RFC 9040 cache, Linux’s tcp_metrics, Careful Resume’s or QUIC’s saved capacity, an E-TCP ensemble); the repeat visit shows what that is worth, and what it costs in losses and
        queueing, to the visit itself and to a neighbour who makes the same visits at the same time without reuse.
        {landingQuestion && (
          <>
            {' '}
            The same question, one scenario at a time, is the preset <Link to={questionLink(landingQuestion)}>{landingQuestion.preset} in compare mode</Link>.
          </>
        )}
      </p>
      {pathError && <p className="error" role="alert">{pathError}</p>}
      <QuestionForm
        form={form}
        update={update}
        path={path}
        fieldErrors={fieldErrors}
        valid={!!parsed.spec}
        runs={parsed.spec ? sweepRuns(parsed.spec) : 0}
        segments={segments}
        ready={!!question && sweep.running === null}
        serverOk={sweep.serverOk}
        running={sweep.running}
        error={sweep.error}
        runInBrowser={() => question && sweep.runInBrowser(question)}
        runOnServer={() => question && sweep.runOnServer(question)}
        cancel={sweep.cancel}
      />
      {batchId && question && !outcome && <ServerSweep key={batchId} id={batchId} question={question.question} onDone={(cells) => sweep.serverDone(question.question, batchId, cells)} />}
      {outcome && (
        <Stale stale={JSON.stringify(parsed.spec) !== JSON.stringify(outcome.question.spec)} what="the sweep's results">
          <ReuseResults key={outcome.id} outcome={outcome} />
        </Stale>
      )}
    </main>
  );
}
