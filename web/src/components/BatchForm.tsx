// Batch submission: parameters to sweep (JSON Pointers with values, JSON objects or ranges) and
// replications; the run count shows before submitting. sim-core plans the sweep before it is sent
// (the plan the server makes), so that an error shows at its parameter. "Compare schemes over a
// parameter" starts the study the tool is for: the sharing schemes against one parameter.
import { gridRunCount, jsonPathToPointer, ScenarioError, type Scenario } from '@tcb-lab/sim';
import { useContext, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { api, ApiError } from '../api';
import { compareParameter, scalarPointers, schemeAxis } from '../data/scenarioEdit';
import { pointerLabel } from '../data/schemaForm';
import { gridPointerOf, parseValues } from '../data/sweepValues';
import { scenarioSchema } from '../schema';
import { planGrid } from '../sim';
import { ServerContext } from './ServerStatus';

interface Row {
  pointer: string;
  values: string;
}

/** The schemes a comparison starts with: no sharing, E-TCP's ensemble, and today's Careful Resume. */
export const comparedSchemes = ['independent', 'etcp', 'careful-resume'];

export function BatchForm({ scenario, valid, title, onScenario }: { scenario: Scenario; valid: boolean; title: string; onScenario: (s: Scenario) => void }) {
  const navigate = useNavigate();
  const server = useContext(ServerContext);
  const pointers = useMemo(() => scalarPointers(scenario), [scenario]);
  const [rows, setRows] = useState<Row[]>([{ pointer: '/tcp/initialWindow', values: '1, 2, 4' }]);
  const [replications, setReplications] = useState('3');
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const key = useRef(crypto.randomUUID());

  const parsed = rows.map((r) => {
    try {
      return { values: parseValues(r.values), error: null as string | null };
    } catch (e) {
      return { values: [] as unknown[], error: e instanceof Error ? e.message : String(e) };
    }
  });
  const reps = Number(replications);
  const repsError = Number.isInteger(reps) && reps >= 1 && reps <= 10000 ? null : 'must be an integer from 1 to 10000';
  const grid: Record<string, unknown[]> = {};
  rows.forEach((r, i) => {
    if (r.pointer) grid[r.pointer] = parsed[i].values;
  });
  const runs = repsError ? 0 : gridRunCount(grid, reps);

  const compareSchemes = () => {
    const axis = schemeAxis(scenario);
    if (axis.scenario !== scenario) onScenario(axis.scenario);
    const parameter = compareParameter(axis.scenario);
    setRows([{ pointer: axis.pointer, values: comparedSchemes.join(', ') }, ...(parameter ? [{ pointer: parameter.pointer, values: parameter.values.join(', ') }] : [])]);
    setErrors({});
    setError(null);
  };

  const submit = async () => {
    setError(null);
    const found: Record<number, string> = {};
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (parsed[i].error) found[i] = parsed[i].error!;
      else if (!r.pointer.startsWith('/')) found[i] = 'a parameter is a JSON Pointer such as /tcp/flavor';
      else if (parsed[i].values.length === 0) found[i] = 'give at least one value';
    }
    if (!Object.keys(found).length && !repsError) {
      // The plan the server makes (sim-core/experiment/grid.h): every value and combination checked,
      // the error named at its parameter.
      try {
        await planGrid({ scenario, grid, replications: reps });
      } catch (e) {
        if (!(e instanceof ScenarioError)) throw e;
        const row = rows.findIndex((r) => r.pointer === gridPointerOf(e.path, Object.keys(grid)));
        if (row >= 0) found[row] = `${e.path}: ${e.problem}`;
        else setError(`${e.path}: ${e.problem}`);
        setErrors(found);
        return;
      }
    }
    setErrors(found);
    if (Object.keys(found).length || repsError) return;
    setSubmitting(true);
    try {
      const r = await api.createBatch({ scenario, grid, replications: reps, ...(title ? { title } : {}) }, key.current);
      key.current = crypto.randomUUID();
      navigate(r.url);
    } catch (e) {
      setError(e instanceof ApiError ? `${e.message}${e.path ? ` (${e.path})` : ''}` : String(e));
      if (e instanceof ApiError && e.unreachable) server.recheck();
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <section className="batch-form" aria-label="Batch">
      <p className="hint">
        A batch runs on the server: every combination of the values below, each replication r with seed = scenario seed + r. A value may be JSON (a whole sharing
        configuration: <code>{'{"scheme": "etcp", "tickets": "content"}'}</code>), and a parameter ending in <code>sharing/scheme</code> sweeps schemes each with its own
        defaults.
      </p>
      <p>
        <button type="button" onClick={compareSchemes} data-testid="compare-schemes">
          Compare schemes over a parameter
        </button>{' '}
        <span className="hint">{comparedSchemes.join(', ')}, against a parameter of this scenario.</span>
      </p>
      <datalist id="batch-pointers">
        {pointers.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
      {rows.map((r, i) => (
        <fieldset key={i} className="grid-row" data-testid="grid-row">
          <legend>
            Parameter {i + 1}
            {r.pointer.startsWith('/') && <span className="hint">: {pointerLabel(scenarioSchema, scenario, r.pointer)}</span>}
          </legend>
          <label htmlFor={`bp-${i}`}>parameter (JSON Pointer)</label>
          <input
            id={`bp-${i}`}
            list="batch-pointers"
            value={r.pointer}
            aria-invalid={!!errors[i] || undefined}
            onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, pointer: e.target.value.startsWith('$') ? jsonPathToPointer(e.target.value) : e.target.value } : x)))}
          />
          <label htmlFor={`bv-${i}`}>values (a list, JSON values, or start:stop:step)</label>
          <input id={`bv-${i}`} value={r.values} aria-invalid={!!errors[i] || undefined} onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, values: e.target.value } : x)))} />
          <span className="hint">{parsed[i].error ?? `${parsed[i].values.length} values`}</span>
          <button type="button" onClick={() => setRows(rows.filter((_, j) => j !== i))} aria-label={`Remove parameter ${i + 1}`}>
            Remove
          </button>
          {errors[i] && (
            <p className="field-error" role="alert">
              {errors[i]}
            </p>
          )}
        </fieldset>
      ))}
      <button type="button" onClick={() => setRows([...rows, { pointer: '', values: '' }])}>
        Add parameter
      </button>
      <div className="field">
        <label htmlFor="reps">replications</label>
        <input id="reps" inputMode="numeric" value={replications} aria-invalid={!!repsError || undefined} onChange={(e) => setReplications(e.target.value)} />
        {repsError && (
          <p className="field-error" role="alert">
            {repsError}
          </p>
        )}
      </div>
      <p data-testid="batch-run-count">
        <strong>{runs}</strong> runs
      </p>
      <button type="button" onClick={submit} disabled={!valid || submitting || runs === 0 || !server.ok} data-testid="batch-submit" title={server.ok ? '' : 'The server is unreachable'}>
        {submitting ? 'Submitting…' : 'Submit batch'}
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
