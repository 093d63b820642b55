// Running a reuse question: in this browser's workers (planned by sim-core's planGrid, each run's
// summary turned into cells with sim-core's statistics), or as a batch on the server (its id goes in
// the link, and ServerSweep follows it). Errors of the planner or the service go to their field.
import type { Scenario } from '@tcb-lab/sim';
import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { SetURLSearchParams } from 'react-router-dom';
import { api, ApiError } from '../../api';
import { ServerContext } from '../../components/ServerStatus';
import { collectCells, fieldOfPath, formToQuery, reuseTitle, summarizeCells, type Cell, type FormErrors, type ReuseAxes, type ReuseForm, type ReuseRequest, type ReuseSpec, type RunOutcome } from '../../data/reuse';
import { describeRunError, planGrid, runScenario } from '../../sim';
import { summarize, type Outcome, type Question, type Running } from './types';

export interface Asked {
  question: Question;
  request: ReuseRequest;
}

export function useReuseSweep(form: ReuseForm, params: URLSearchParams, setParams: SetURLSearchParams) {
  const server = useContext(ServerContext);
  const [errors, setErrors] = useState<FormErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState<Running | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const controller = useRef<AbortController | null>(null);
  const idempotency = useRef(crypto.randomUUID());
  const outcomeCount = useRef(0);
  useEffect(() => () => controller.current?.abort(), []);

  // An error of the planner or the service: at its field when it has one.
  const report = useCallback((e: unknown, axes: ReuseAxes, workload: ReuseSpec['workload']) => {
    const path = e instanceof ApiError ? e.path : (e as { path?: string }).path;
    const message = e instanceof ApiError ? e.message : describeRunError(e).message;
    const field = fieldOfPath(path, axes, workload);
    if (field) setErrors({ [field]: message });
    else setError(message);
  }, []);

  const clearErrors = () => {
    setErrors({});
    setError(null);
  };

  const runInBrowser = async ({ question, request }: Asked) => {
    const { spec, roles, axes } = question;
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    clearErrors();
    setRunning({ kind: 'planning' });
    const started = performance.now();
    try {
      const plan = await planGrid(request);
      const runs = plan.points.flatMap((p, point) => Array.from({ length: spec.replications }, (_, replication) => ({ point, params: p.params, replication, scenario: p.scenario, seed: p.seed + replication })));
      let done = 0;
      setRunning({ kind: 'browser', done, total: runs.length });
      const results: RunOutcome[] = await Promise.all(
        runs.map(async (r) => {
          const result = await runScenario(r.scenario as unknown as Scenario, { seed: r.seed, trace: 'summary', signal: c.signal });
          done++;
          if (controller.current === c) setRunning({ kind: 'browser', done, total: runs.length });
          return { point: r.point, params: r.params as RunOutcome['params'], replication: r.replication, summary: result.summary };
        }),
      );
      const cells = await summarizeCells(collectCells(spec, axes, roles, results), summarize);
      if (controller.current !== c) return;
      setOutcome({ id: ++outcomeCount.current, question, cells, source: { kind: 'browser', elapsedMs: performance.now() - started } });
      if (params.has('batch')) setParams(formToQuery(form), { replace: true });
    } catch (e) {
      if (controller.current === c) report(e, axes, spec.workload);
    } finally {
      if (controller.current === c) setRunning(null);
    }
  };

  const runOnServer = async ({ question, request }: Asked) => {
    const { spec, axes } = question;
    controller.current?.abort();
    clearErrors();
    setRunning({ kind: 'planning' });
    try {
      const r = await api.createBatch({ ...request, title: reuseTitle(spec), trace: 'summary' }, idempotency.current);
      idempotency.current = crypto.randomUUID();
      const q = formToQuery(form);
      q.set('batch', r.id);
      setOutcome(null);
      setParams(q, { replace: true });
    } catch (e) {
      report(e, axes, spec.workload);
      if (e instanceof ApiError && e.unreachable) server.recheck();
    } finally {
      setRunning(null);
    }
  };

  /** A server batch's cells have come in. */
  const serverDone = (question: Question, batch: string, cells: Cell[]) => setOutcome({ id: ++outcomeCount.current, question, cells, source: { kind: 'server', batch } });

  return { errors, error, running, outcome, runInBrowser, runOnServer, serverDone, clearErrors, cancel: () => controller.current?.abort(), serverOk: server.ok };
}
