// Other hosts for tests, on this machine: a network namespace joined to this host by a veth pair,
// with an address at each end of a private /30. A process started in the namespace reaches this
// host only over that link, so cutting the link (`ip link set ... down`) cuts it off as a network
// failure would, and restoring it brings it back. Needs root and iproute2's `ip netns`;
// `netnsUnavailable()` says why a test must be skipped otherwise.
//
// Namespaces and links are named after this process (tcbt<pid>n<k>, tcbt<pid>h<k>) and removed by
// `remove()`, at the process's exit (whatever ended it but SIGKILL), and, for a test process that
// was killed outright, by the next test that creates one: namespaces whose process is gone go.
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { userInfo } from 'node:os';

export interface NetnsHost {
  /** The namespace's name (`ip netns exec <name> ...`). */
  name: string;
  /** This host's end of the link (PostgreSQL listens there for the namespace's processes). */
  hostAddress: string;
  /** The namespace's end of the link. */
  peerAddress: string;
  /** The /30 both ends are on. */
  network: string;
  /** The veth on this host's side: what cut() and restore() turn down and up. */
  hostLink: string;
  /** Takes the link down: the namespace's packets go nowhere, as when a cable is pulled. */
  cut(): void;
  /** Brings the link up again. */
  restore(): void;
  /** Starts a process inside the namespace (its pid is the command's: `ip netns exec` execs it). */
  spawn(command: string, args: string[], options?: SpawnOptions): ChildProcess;
  /** Removes the namespace, and with it both ends of the link. */
  remove(): void;
}

const prefix = `tcbt${process.pid}`;
const created = new Set<NetnsHost>();

function ip(...args: string[]): string {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** Why network namespaces cannot be made here, or undefined when they can. */
export function netnsUnavailable(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (userInfo().uid !== 0) return 'network namespaces need root (run the tests as root to include this one)';
  const r = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return `"ip netns" is not available (${r.error?.message ?? r.stderr.trim()}; install iproute2)`;
  return undefined;
}

/** Namespaces left by test processes that were killed before they could remove them. */
function removeLeftovers(): void {
  for (const line of ip('netns', 'list').split('\n')) {
    const match = /^tcbt(\d+)n\d+/.exec(line);
    if (!match || Number(match[1]) === process.pid) continue;
    try {
      process.kill(Number(match[1]), 0);
    } catch {
      spawnSync('ip', ['netns', 'del', match[0]]);
    }
  }
}

/** A private /30 no interface of this host is on: 10.231.x.4k. */
function freeNetwork(): [string, string, string] {
  const used = ip('-4', '-o', 'addr', 'show');
  for (let tries = 0; tries < 100; ++tries) {
    const third = randomInt(256);
    const fourth = randomInt(64) * 4;
    const base = `10.231.${third}.`;
    const host = `${base}${fourth + 1}`;
    const peer = `${base}${fourth + 2}`;
    if (!used.includes(` ${host}/`) && !used.includes(` ${peer}/`)) return [`${base}${fourth}/30`, host, peer];
  }
  throw new Error('no free /30 in 10.231.0.0/16');
}

let counter = 0;

export function createNetnsHost(): NetnsHost {
  const why = netnsUnavailable();
  if (why) throw new Error(why);
  removeLeftovers();
  const k = ++counter;
  const name = `${prefix}n${k}`;
  const hostLink = `${prefix}h${k}`;
  const peerLink = `${prefix}p${k}`;
  const [network, hostAddress, peerAddress] = freeNetwork();
  const host: NetnsHost = {
    name,
    hostAddress,
    peerAddress,
    network,
    hostLink,
    cut: () => void ip('link', 'set', hostLink, 'down'),
    restore: () => void ip('link', 'set', hostLink, 'up'),
    spawn: (command, args, options = {}) => spawn('ip', ['netns', 'exec', name, command, ...args], options),
    remove() {
      created.delete(host);
      spawnSync('ip', ['netns', 'del', name]);
      spawnSync('ip', ['link', 'del', hostLink]); // Gone with the namespace, unless that was never made.
    },
  };
  created.add(host);
  try {
    ip('netns', 'add', name);
    ip('link', 'add', hostLink, 'type', 'veth', 'peer', 'name', peerLink);
    ip('link', 'set', peerLink, 'netns', name);
    ip('addr', 'add', `${hostAddress}/30`, 'dev', hostLink);
    ip('link', 'set', hostLink, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${peerAddress}/30`, 'dev', peerLink);
    ip('netns', 'exec', name, 'ip', 'link', 'set', peerLink, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    host.remove();
    throw error;
  }
  return host;
}

function removeAll(): void {
  for (const host of [...created]) host.remove();
}

process.once('exit', removeAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    removeAll();
    process.exit(128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const)[signal]);
  });
}
