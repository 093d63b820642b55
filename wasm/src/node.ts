// The package in Node: the engine runs in worker threads.
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { defaultFunctions } from './api.js';
import type { WorkerHost } from './simulator.js';

export * from './api.js';

const nodeHost: WorkerHost = {
  async loadModule() {
    return WebAssembly.compile(await readFile(new URL('./engine/tcbsim.wasm', import.meta.url)));
  },
  spawn(onReply, onFailure) {
    const worker = new Worker(new URL('./worker-node.js', import.meta.url));
    worker.on('message', onReply);
    worker.on('error', onFailure);
    worker.on('messageerror', onFailure);
    worker.on('exit', (code) => onFailure(new Error(`worker exited with code ${code}`)));
    worker.unref();
    return {
      post: (message) => worker.postMessage(message),
      // Resolves on the 'exit' event, once the thread has ended and its memory is free.
      terminate: () => worker.terminate().then(() => undefined, () => undefined),
      setBusy: (busy) => (busy ? worker.ref() : worker.unref()),
    };
  },
  defaultMaxWorkers: () => Math.min(4, availableParallelism()),
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
  defaultFunctions(nodeHost);
