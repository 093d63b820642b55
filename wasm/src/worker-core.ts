// The worker side: instantiates the engine from the compiled module the Simulator sends, then
// answers requests one at a time. A run is synchronous inside the module, so the worker reports
// progress from the engine's callback and cannot see an AbortSignal: the Simulator cancels by
// terminating the worker.
import createTcbsimModule, { type EngineExperimentSession, type TcbsimEngine } from './engine/tcbsim.mjs';
import type { Reply, Request, WorkerError, WorkerMessage } from './protocol.js';

// Progress posts at most this often, so that the main thread hears at least every 100 ms even on
// a loaded machine.
const kProgressIntervalMs = 25;
// The engine calls back every this many events: about a millisecond of simulation.
const kProgressEveryEvents = 16384;

type Post = (reply: Reply, transfer: Transferable[]) => void;

function instantiate(module: WebAssembly.Module): Promise<TcbsimEngine> {
  return createTcbsimModule({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module));
      return {};
    },
  });
}

// The buffers of every typed array in `value`, to transfer rather than copy.
function buffersOf(value: unknown, out: Transferable[] = []): Transferable[] {
  if (ArrayBuffer.isView(value)) {
    out.push(value.buffer as ArrayBuffer);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) buffersOf(v, out);
  }
  return out;
}

function run(engine: TcbsimEngine, request: Extract<Request, { type: 'run' }>, post: Post) {
  let lastPost = -Infinity;
  const options = { progressEveryEvents: kProgressEveryEvents, trace: request.trace, seed: request.seed, maxRecordedBytes: request.maxRecordedBytes };
  // Embind reads absent options as undefined; drop the keys rather than send undefined values.
  if (options.trace === undefined) delete options.trace;
  if (options.seed === undefined) delete options.seed;
  const out = engine.run(request.text, options, (simulatedS, durationS) => {
    const now = performance.now();
    if (now - lastPost >= kProgressIntervalMs || simulatedS >= durationS) {
      lastPost = now;
      post({ id: request.id, type: 'progress', simulatedS, durationS }, []);
    }
  });
  if ('error' in out) return out;
  const { summary, ...rest } = out;
  return { value: { summary: JSON.parse(summary), ...rest } };
}

// The experiments this worker last used, kept so that their runs by index do not parse and expand
// them again: a few, since a service's worker may take runs of several experiments in turn.
const kSessions = 4;
const sessions = new Map<string, EngineExperimentSession>();

function experimentSession(engine: TcbsimEngine, source: string, quick: boolean) {
  const key = `${quick ? 'quick' : 'full'}\n${source}`;
  let session = sessions.get(key);
  if (session) {
    sessions.delete(key); // Most recently used last.
  } else {
    session = new engine.ExperimentSession(source, quick);
    if (sessions.size >= kSessions) {
      const [oldest, old] = sessions.entries().next().value!;
      old.delete();
      sessions.delete(oldest);
    }
  }
  sessions.set(key, session);
  return session;
}

type ExperimentRequest = Extract<Request, { type: 'experimentPlan' | 'experimentRuns' | 'experimentScenario' | 'experimentRecord' | 'experimentReport' }>;

function experiment(engine: TcbsimEngine, request: ExperimentRequest, post: Post): { value: unknown } | { error: WorkerError } {
  const s = experimentSession(engine, request.source, request.quick);
  const status = s.status();
  if ('error' in status) return status;
  switch (request.type) {
    case 'experimentPlan':
      return { value: { runs: status.runs, experiment: JSON.parse(status.experiment), maxDurationS: status.maxDurationS, replications: status.replications } };
    case 'experimentRuns': {
      let lastPost = -Infinity;
      const out = s.runRange(request.from, request.to, (done) => {
        const now = performance.now();
        if (now - lastPost >= kProgressIntervalMs) {
          lastPost = now;
          post({ id: request.id, type: 'runs', done }, []);
        }
      });
      return 'error' in out ? out : { value: out.records };
    }
    case 'experimentScenario': {
      const out = s.runScenario(request.index);
      return 'error' in out ? out : { value: JSON.parse(out.scenario) };
    }
    case 'experimentRecord': {
      const out = s.record(request.summary);
      return 'error' in out ? out : { value: out };
    }
    case 'experimentReport': {
      const out = s.report(request.records);
      return 'error' in out ? out : { value: out };
    }
  }
}

function handle(engine: TcbsimEngine, request: Request, post: Post): { value: unknown } | { error: WorkerError } {
  switch (request.type) {
    case 'run':
      return run(engine, request, post);
    case 'validate': {
      const out = engine.validate(request.text);
      return 'error' in out ? out : { value: JSON.parse(out.scenario) };
    }
    case 'planGrid': {
      const out = engine.planGrid(request.text);
      return 'error' in out ? out : { value: JSON.parse(out.plan) };
    }
    case 'summarizeSamples': {
      const out = engine.summarizeSamples(request.text);
      return 'error' in out ? out : { value: JSON.parse(out.stats) };
    }
    case 'presets':
      return { value: engine.presetNames() };
    case 'preset': {
      const text = engine.presetText(request.name);
      return { value: text === null ? null : JSON.parse(text) };
    }
    case 'papers':
      return { value: JSON.parse(engine.papers()).papers };
    case 'schema': {
      const schemas = { scenario: engine.scenarioSchema, result: engine.resultSchema, experiment: engine.experimentSchema, report: engine.reportSchema };
      return { value: JSON.parse(schemas[request.which].call(engine)) };
    }
    case 'heapStats':
      return { value: engine.heapStats() };
    case 'experiments':
      return { value: engine.experimentNames() };
    case 'experiment': {
      const text = engine.experimentText(request.name);
      return { value: text === null ? null : JSON.parse(text) };
    }
    case 'experimentPlan':
    case 'experimentRuns':
    case 'experimentScenario':
    case 'experimentRecord':
    case 'experimentReport':
      return experiment(engine, request, post);
  }
}

/** Returns the worker's message handler; `post` sends a reply to the Simulator. */
export function serveEngine(post: Post): (message: WorkerMessage) => void {
  let engine: Promise<TcbsimEngine> | undefined;
  return (message) => {
    if (message.type === 'init') {
      engine = instantiate(message.module);
      return;
    }
    const request = message;
    const ready = engine ?? Promise.reject(new Error('worker received a request before init'));
    ready
      .then((e) => handle(e, request, post))
      .catch((e: unknown): { error: WorkerError } => {
        // The series and trace are copied out of the module into typed arrays as they are recorded:
        // when the worker cannot allocate one, the run needs more memory than the worker has.
        if (e instanceof RangeError && /allocation failed|Invalid typed array length|out of memory/i.test(e.message)) {
          return { error: { kind: 'memory', message: `out of memory: the run's series and packet trace do not fit in this worker's memory (${e.message})` } };
        }
        // A trap or abort inside the module, or a JavaScript error here.
        return { error: { kind: 'crash', message: e instanceof Error ? e.message : String(e) } };
      })
      .then((outcome) => {
        if ('error' in outcome) {
          post({ id: request.id, type: 'error', error: outcome.error }, []);
        } else {
          post({ id: request.id, type: 'done', value: outcome.value }, buffersOf(outcome.value));
        }
      });
  };
}
