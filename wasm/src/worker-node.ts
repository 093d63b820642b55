// Entry point of a Node worker thread (see node.ts).
import { parentPort } from 'node:worker_threads';
import { serveEngine } from './worker-core.js';

if (!parentPort) throw new Error('worker-node.js runs as a worker thread');
const port = parentPort;
port.on(
  'message',
  serveEngine((reply, transfer) => port.postMessage(reply, transfer as never)),
);
