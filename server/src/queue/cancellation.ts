// Cancelled batches, as a worker learns of them: the API marks a batch's runs cancelled and
// announces its id with NOTIFY; the worker LISTENs on a connection of its own (reconnecting when
// it breaks) and aborts the runs of that batch it has in progress.
import { setMaxListeners } from 'node:events';
import pg from 'pg';
import { cancelChannel } from './names.js';

export class CancellationListener {
  private readonly inProgress = new Map<string, Set<AbortController>>(); // batch id → its runs here
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  private constructor(private readonly databaseUrl: string) {}

  static async start(databaseUrl: string): Promise<CancellationListener> {
    const listener = new CancellationListener(databaseUrl);
    await listener.listen();
    return listener;
  }

  /** The controller whose signal aborts this run when its batch is cancelled; `release` it when done. */
  track(batchId: string): AbortController {
    const controller = new AbortController();
    // One signal stops all the runs of a group (hundreds when they are short), each listening.
    setMaxListeners(0, controller.signal);
    let runs = this.inProgress.get(batchId);
    if (!runs) this.inProgress.set(batchId, (runs = new Set()));
    runs.add(controller);
    return controller;
  }

  release(batchId: string, controller: AbortController): void {
    const runs = this.inProgress.get(batchId);
    runs?.delete(controller);
    if (runs?.size === 0) this.inProgress.delete(batchId);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    const again = () => {
      client.end().catch(() => {});
      if (this.client === client) this.client = undefined;
      if (!this.stopped) this.retry = setTimeout(() => void this.listen(), 1000);
    };
    client.on('error', again);
    client.on('notification', (message) => {
      for (const controller of this.inProgress.get(message.payload ?? '') ?? []) controller.abort();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${cancelChannel}`);
      this.client = client;
    } catch {
      again();
    }
  }
}
