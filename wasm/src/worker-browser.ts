// Entry point of a module Web Worker (see browser.ts).
import { serveEngine } from './worker-core.js';

const scope = self as unknown as {
  postMessage(message: unknown, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent) => void) | null;
};
const handler = serveEngine((reply, transfer) => scope.postMessage(reply, transfer));
scope.onmessage = (event) => handler(event.data);
