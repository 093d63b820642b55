// Checks the scenario with the simulator's own validator (debounced; the error goes to its field)
// and runs it: the first scenario at once, then valid edits again while runs are quick.
//
// The first scenario is checked by its own run, which validates as validation does: validating it
// beside the run would start a second worker while the first plot is on its way. Should that run
// fail, the scenario is validated then, and the error goes to its field. A scenario and trace level
// already run (or running) are not run again.
import { jsonPathToPointer, type Scenario, type TraceLevel } from '@tcb-lab/sim';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { FieldError } from '../../components/SchemaForm';
import { validateScenario, type useRunner } from '../../sim';
import type { Mode } from './state';

/** Runs slower than this (wall time, ms) are not re-run on every edit. */
const autoRunUpToMs = 2000;

export interface CheckAndRunOptions {
  scenario: Scenario | null;
  mode: Mode;
  trace: TraceLevel;
  autoRun: boolean;
  runner: ReturnType<typeof useRunner>;
}

export function useCheckAndRun({ scenario, mode, trace, autoRun, runner }: CheckAndRunOptions) {
  const { state, run } = runner;
  const text = useMemo(() => (scenario ? JSON.stringify(scenario) : ''), [scenario]);
  const [validText, setValidText] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<FieldError | null>(null);
  const [validating, setValidating] = useState(false);
  const validatedOnce = useRef(false);
  const firstRun = useRef(true);
  const firstRunText = useRef<string | null>(null);
  const [firstRunSettled, setFirstRunSettled] = useState(false);
  const requested = useRef('');

  useEffect(() => {
    if (!text) return;
    // firstRun is still true when the first scenario arrives: its run starts after this.
    const checkedByFirstRun = mode === 'run' && (firstRun.current || text === firstRunText.current);
    if (checkedByFirstRun && (!firstRunSettled || validText === text)) {
      setValidating(false);
      return;
    }
    setValidating(true);
    let live = true;
    const timer = setTimeout(async () => {
      try {
        const v = await validateScenario(text);
        if (!live) return;
        if (v.valid) {
          performance.mark('tcb:validated');
          setFieldError(null);
          setValidText(text);
        } else {
          setFieldError({ pointer: jsonPathToPointer(v.error.path), problem: v.error.problem });
          setValidText(null);
        }
      } catch (e) {
        if (live) setFieldError({ pointer: '', problem: String(e) });
      } finally {
        if (live) setValidating(false);
      }
    }, validatedOnce.current ? 200 : 0);
    validatedOnce.current = true;
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // validText and mode: read only for the first scenario, once its run has settled.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, firstRunSettled]);
  const valid = validText === text && !!text;

  useEffect(() => {
    if (!scenario || mode !== 'run' || !firstRun.current) return;
    firstRun.current = false;
    requested.current = `${trace} ${text}`;
    firstRunText.current = text;
    void run(scenario, trace).then((result) => {
      if (result) {
        setFieldError(null);
        setValidText(text);
      }
      setFirstRunSettled(true);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, mode]);

  const lastWall = state.elapsedMs ?? 0;
  useEffect(() => {
    if (!valid || !scenario || mode !== 'run' || firstRun.current) return;
    if (!autoRun || lastWall > autoRunUpToMs || requested.current === `${trace} ${text}`) return;
    const timer = setTimeout(() => {
      requested.current = `${trace} ${text}`;
      void run(scenario, trace);
    }, 350);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [valid, text, trace, autoRun, mode]);

  /** Runs the scenario now (the Run button). */
  const runNow = () => {
    if (!scenario) return;
    requested.current = `${trace} ${text}`;
    void run(scenario, trace);
  };
  return { text, valid, validating, fieldError, runNow };
}
