// The package in a browser: the engine runs in module Web Workers. Bundlers (Vite) follow the
// `new URL(..., import.meta.url)` references to the worker script and the .wasm file.
import { defaultFunctions } from './api.js';
import type { WorkerHost } from './simulator.js';

export * from './api.js';

const browserHost: WorkerHost = {
  async loadModule() {
    const url = new URL('./engine/tcbsim.wasm', import.meta.url);
    // Compiled while it downloads; a server that does not say application/wasm gets the bytes compiled.
    if (typeof WebAssembly.compileStreaming === 'function') {
      try {
        return await WebAssembly.compileStreaming(fetch(url));
      } catch (e) {
        if (!(e instanceof TypeError)) throw e;
      }
    }
    const response = await fetch(url);
    if (!response.ok) throw new Error(`fetching tcbsim.wasm: HTTP ${response.status}`);
    return WebAssembly.compile(await response.arrayBuffer());
  },
  spawn(onReply, onFailure) {
    const worker = new Worker(new URL('./worker-browser.js', import.meta.url), { type: 'module' });
    worker.onmessage = (event) => onReply(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      onFailure(new Error(event.message || 'worker error'));
    };
    worker.onmessageerror = () => onFailure(new Error('a message from the worker could not be read'));
    return {
      post: (message) => worker.postMessage(message),
      terminate: () => {
        // A Web Worker's terminate() reports no completion.
        worker.terminate();
        return Promise.resolve();
      },
      setBusy: () => {},
    };
  },
  defaultMaxWorkers: () => Math.min(4, navigator.hardwareConcurrency || 1),
};

export const {
  createSimulator,
  runScenario,
  validateScenario,
  planGrid,
  summarizeSamples,
  listPresets,
  getPreset,
  listPapers,
  getSchema,
  listExperiments,
  getExperiment,
  runExperiment,
  planExperiment,
} =
  defaultFunctions(browserHost);
