// The reuse view's question: the path, the workload (a download of S bytes or built-in pages), the
// idle times, the server's sharing schemes, a competitor, the replications; the sweep's size, and
// where it runs (this browser while small, else the server).
import type { Scenario } from '@tcb-lab/sim';
import type { ReactNode } from 'react';
import { browserSegmentBudget, builtInPages, bytesLabel, describePath, reusePaths, type FormErrors, type ReuseForm } from '../../data/reuse';
import { formatValue } from '../../data/summary';
import { schemeNames } from '../../schema';
import type { Running } from './types';

export interface QuestionFormProps {
  form: ReuseForm;
  update: (patch: Partial<ReuseForm>) => void;
  path: Scenario | undefined;
  fieldErrors: FormErrors;
  /** The checked question's runs and data segments (0 while the form has errors). */
  valid: boolean;
  runs: number;
  segments: number;
  ready: boolean;
  serverOk: boolean;
  running: Running | null;
  error: string | null;
  runInBrowser: () => void;
  runOnServer: () => void;
  cancel: () => void;
}

export function QuestionForm({ form, update, path, fieldErrors, valid, runs, segments, ready, serverOk, running, error, runInBrowser, runOnServer, cancel }: QuestionFormProps) {
  const small = segments <= browserSegmentBudget;
  return (
    <form className="reuse-form" aria-label="The question" onSubmit={(e) => e.preventDefault()}>
      <Field id="reuse-path" label="path" error={fieldErrors.path}>
        <select id="reuse-path" value={form.path} onChange={(e) => update({ path: e.target.value })} aria-invalid={!!fieldErrors.path || undefined} aria-describedby={fieldErrors.path ? 'reuse-path-about reuse-path-error' : 'reuse-path-about'}>
          {reusePaths.map((p) => (
            <option key={p.preset} value={p.preset}>
              {p.preset}
            </option>
          ))}
        </select>
        <span className="hint" id="reuse-path-about">
          {path ? describePath(path, reusePaths.find((p) => p.preset === form.path)?.label) : 'loading…'}
        </span>
      </Field>
      <fieldset className="reuse-choice">
        <legend>workload</legend>
        <label className="inline">
          <input type="radio" name="reuse-workload" checked={form.workload === 'download'} onChange={() => update({ workload: 'download' })} /> a download of S bytes
        </label>
        <label className="inline">
          <input type="radio" name="reuse-workload" checked={form.workload === 'page'} onChange={() => update({ workload: 'page' })} /> a web page
        </label>
      </fieldset>
      {form.workload === 'download' ? (
        <Field id="reuse-sizes" label="sizes S" error={fieldErrors.sizes} hint="bytes, or with k, M, G (5.3M is 5 300 000 bytes), comma-separated">
          <input id="reuse-sizes" value={form.sizes} onChange={(e) => update({ sizes: e.target.value })} aria-invalid={!!fieldErrors.sizes || undefined} aria-describedby={fieldErrors.sizes ? 'reuse-sizes-error' : undefined} />
        </Field>
      ) : (
        <>
          <fieldset className="reuse-choice" aria-describedby={fieldErrors.pages ? 'reuse-pages-error' : undefined}>
            <legend>pages (E-TCP §4’s, by size)</legend>
            {builtInPages.map((p) => (
              <label key={p.name} className="inline">
                <input
                  type="checkbox"
                  checked={form.pages.includes(p.name)}
                  onChange={(e) => update({ pages: e.target.checked ? [...form.pages, p.name] : form.pages.filter((x) => x !== p.name) })}
                />{' '}
                {p.name} ({bytesLabel(p.bytes)}, {p.objects} objects)
              </label>
            ))}
            {fieldErrors.pages && (
              <p className="field-error" role="alert" id="reuse-pages-error">
                {fieldErrors.pages}
              </p>
            )}
          </fieldset>
          <Field id="reuse-http" label="HTTP">
            <select id="reuse-http" value={form.http} onChange={(e) => update({ http: e.target.value as ReuseForm['http'] })}>
              <option value="1.1-persistent">HTTP/1.1, up to six connections per visit</option>
              <option value="2">HTTP/2, one connection per visit</option>
            </select>
          </Field>
        </>
      )}
      <Field id="reuse-idle" label="idle times T" error={fieldErrors.idle} hint="seconds from the first visit’s end to the repeat visit, comma-separated or start:stop:step">
        <input id="reuse-idle" value={form.idle} onChange={(e) => update({ idle: e.target.value })} aria-invalid={!!fieldErrors.idle || undefined} aria-describedby={fieldErrors.idle ? 'reuse-idle-error' : undefined} />
      </Field>
      <fieldset className="reuse-choice" aria-describedby={fieldErrors.schemes ? 'reuse-schemes-error' : undefined}>
        <legend>the server’s sharing scheme</legend>
        {schemeNames.map((s) => (
          <label key={s} className="inline">
            <input type="checkbox" checked={form.schemes.includes(s)} onChange={(e) => update({ schemes: e.target.checked ? [...form.schemes, s] : form.schemes.filter((x) => x !== s) })} /> {s}
          </label>
        ))}
        {fieldErrors.schemes && (
          <p className="field-error" role="alert" id="reuse-schemes-error">
            {fieldErrors.schemes}
          </p>
        )}
      </fieldset>
      <label className="inline reuse-competitor">
        <input type="checkbox" checked={form.competitor} onChange={(e) => update({ competitor: e.target.checked })} /> a competitor: a second client on the same bottleneck makes the same
        visits from another server, without reuse
      </label>
      <Field id="reuse-reps" label="replications" error={fieldErrors.replications} hint="runs per point, seeds seed … seed + n − 1; the competitor’s start differs by seed">
        <input id="reuse-reps" inputMode="numeric" value={form.replications} onChange={(e) => update({ replications: e.target.value })} aria-invalid={!!fieldErrors.replications || undefined} aria-describedby={fieldErrors.replications ? 'reuse-reps-error' : undefined} />
      </Field>
      <p className="reuse-size" data-testid="reuse-size" data-runs={runs} data-segments={segments}>
        {valid ? (
          <>
            <strong>{runs}</strong> runs, about {formatValue(segments)} data segments:{' '}
            {small ? 'small enough for this browser.' : `more than this browser takes (${formatValue(browserSegmentBudget)}), so it runs on the server.`}
          </>
        ) : (
          'Fix the fields marked above.'
        )}
      </p>
      <div className="run-bar">
        <button type="button" className="primary" disabled={!ready || (!small && !serverOk)} onClick={small ? runInBrowser : runOnServer} data-testid="reuse-run">
          {small ? 'Run in this browser' : 'Run on the server'}
        </button>
        {small && (
          <button type="button" disabled={!ready || !serverOk} onClick={runOnServer} data-testid="reuse-run-server" title={serverOk ? '' : 'The server is unreachable'}>
            Run on the server instead
          </button>
        )}
        {running?.kind === 'browser' && (
          <>
            <progress max={running.total} value={running.done} aria-label="Runs done in this browser" data-testid="reuse-progress" />
            <span role="status">
              {running.done} of {running.total} runs
            </span>
            <button type="button" onClick={cancel}>
              Cancel
            </button>
          </>
        )}
        {running?.kind === 'planning' && <span role="status">Planning the sweep…</span>}
      </div>
      {!small && !serverOk && <p className="hint">This sweep is too large for the browser and the server is unreachable: fewer sizes, idle times or replications make it small.</p>}
      {error && (
        <p className="error" role="alert" data-testid="reuse-error">
          {error}
        </p>
      )}
    </form>
  );
}

function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
      <div className="field reuse-field">
        <label htmlFor={id}>{label}</label>
        {children}
        {hint && <span className="hint reuse-hint">{hint}</span>}
        {error && (
          <p className="field-error" role="alert" id={`${id}-error`} data-field={id}>
            {error}
          </p>
        )}
      </div>
  );
}
