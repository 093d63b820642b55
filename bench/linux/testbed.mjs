// The Linux calibration testbed: three network namespaces (client, router, server) joined by veth
// pairs, the router delaying every packet through a TUN device (bench/linux/delay.c, real-time
// priority) and limiting each direction with a token bucket (tbf) over a drop-tail FIFO counted in
// packets (pfifo); the kernel's own TCP in the client sends to the server (bench/linux/flow.c), its
// every ACK traced by the tcp:tcp_probe tracepoint in a private tracefs instance.
//
//   client 10.77.1.2 --veth-- 10.77.1.1 router 10.77.2.1 --veth-- 10.77.2.2 server
//                               (what arrives on a veth is routed into tun0, the delay line;
//                                what comes back out of tun0 is forwarded, through tbf + pfifo)
//
// Everything it creates is named `tcbl-<pid>-<n>`: namespaces tcbl-<pid>-<n>-{client,router,server},
// the tracefs instance tcbl-<pid>-<n>, the tracefs mount <tmp>/tcbl-<pid>-<n>-tracefs. `down()` and
// an exit hook (normal exit, an exception, SIGINT, SIGTERM, SIGHUP) remove it; `cleanupLeftovers()`
// removes what a killed run left, recognised by the prefix and a pid that no longer runs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { parseTrace } from './trace.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');

export const NAME_PREFIX = 'tcbl-';
export const ADDRESSES = { client: '10.77.1.2', routerClient: '10.77.1.1', routerServer: '10.77.2.1', server: '10.77.2.2' };

// Bytes a qdisc counts for one packet on a veth: the IP packet and a 14-byte Ethernet header
// (skb->len at the qdisc; no preamble, FCS or padding). A full segment at MSS 1460 is 1514.
export const ETHERNET_HEADER_BYTES = 14;
export const IP_TCP_HEADER_BYTES = 40;

// Real-time priorities: the delay line above the transfer's two ends, both above every ordinary task.
const DELAY_PRIORITY = 50;
const FLOW_PRIORITY = 40;
// Per-CPU ring of the tracefs instance; a 20 s transfer at 50 Mb/s writes about 6 MB of events.
const TRACE_BUFFER_KB = 16384;

const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0 && !opts.allowFailure) {
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}): ${(r.stderr || r.stdout).trim()}`);
  }
  return r;
};
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
};

// The two C programs, compiled into build/linux/ when missing or older than their source.
export function buildPrograms() {
  const out = join(root, 'build/linux');
  mkdirSync(out, { recursive: true });
  const programs = {};
  for (const name of ['delay', 'flow']) {
    const source = join(here, `${name}.c`);
    const binary = join(out, name);
    if (!existsSync(binary) || statSync(binary).mtimeMs < statSync(source).mtimeMs) {
      run('cc', ['-O2', '-Wall', '-Wextra', '-std=c11', '-pthread', '-o', binary, source]);
    }
    programs[name] = binary;
  }
  return programs;
}

// Why the testbed cannot run here, in one line, or null when it can.
export function unavailableReason() {
  if (process.platform !== 'linux') return 'the testbed needs Linux network namespaces';
  if (process.getuid?.() !== 0) return 'the testbed needs root (network namespaces, tc, tracefs)';
  for (const tool of ['ip', 'tc', 'ethtool', 'cc']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `the testbed needs ${tool} (scripts/bootstrap installs it)`;
  }
  if (!existsSync('/dev/net/tun')) return 'the testbed needs /dev/net/tun';
  const probe = `${NAME_PREFIX}${process.pid}-probe`;
  const r = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (r.status !== 0) return `network namespaces are not allowed here (ip netns add: ${r.stderr.trim()})`;
  spawnSync('ip', ['netns', 'delete', probe]);
  const cc = readFileSync('/proc/sys/net/ipv4/tcp_available_congestion_control', 'utf8');
  if (!/\bcubic\b/.test(cc) || !/\bbbr\b/.test(cc)) return `the kernel lacks cubic or bbr (available: ${cc.trim()})`;
  return null;
}

// The running kernel's tick rate (CONFIG_HZ), which its jiffies-based timers (the RTO, the
// delayed-ACK timer, BBR's ProbeRTT) count in: from /proc/config.gz or /boot/config-<release>, null
// when neither says.
export function kernelHz() {
  const fromConfig = (text) => {
    const m = /^CONFIG_HZ=(\d+)$/m.exec(text);
    return m ? Number(m[1]) : null;
  };
  try {
    if (existsSync('/proc/config.gz')) return fromConfig(gunzipSync(readFileSync('/proc/config.gz')).toString('utf8'));
    const release = spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim();
    const boot = `/boot/config-${release}`;
    if (existsSync(boot)) return fromConfig(readFileSync(boot, 'utf8'));
  } catch {
    return null;
  }
  return null;
}

// The bottleneck's token bucket: one full frame, so that it releases a frame per transmission time
// and never a burst, and BUCKET_SLACK_US of tokens more. tbf_dequeue() (net/sched/sch_tbf.c) caps
// the tokens at the bucket, and the qdisc watchdog that wakes it for the next packet fires late on
// a loaded machine: with a bucket of exactly one frame every late wake-up is lost (measured here:
// a frame every 1230 µs instead of 1211 at 10 Mb/s, 430 instead of 404 at 30 Mb/s, 257 instead of
// 242 at 50 Mb/s, 1.6 to 6 % of the rate); the slack makes up a wake-up up to that late. Its price:
// after an idle period the second packet leaves up to BUCKET_SLACK_US before a link would send it.
export const BUCKET_SLACK_US = 100;
export function bucketBytes(path) {
  const frame = path.mssBytes + IP_TCP_HEADER_BYTES + ETHERNET_HEADER_BYTES;
  return frame + Math.ceil((path.rateMbps * BUCKET_SLACK_US) / 8);
}

// Serialisation time of `bytes` at `rateMbps`, in microseconds.
export const serialisationUs = (bytes, rateMbps) => (bytes * 8) / rateMbps;

// What the delay line holds a full segment (forward) and a bare ACK (reverse) for: the one-way delay
// and the packet's transmission time at the bottleneck's rate, which tbf does not spend on a packet
// that finds tokens for it in its bucket (bench/linux/delay.c adds it to every packet by its own
// length).
export function delayLineUs(path) {
  const frame = path.mssBytes + IP_TCP_HEADER_BYTES + ETHERNET_HEADER_BYTES;
  const ack = IP_TCP_HEADER_BYTES + ETHERNET_HEADER_BYTES;
  return {
    forwardUs: path.delayMs * 1000 + serialisationUs(frame, path.rateMbps),
    reverseUs: path.delayMs * 1000 + serialisationUs(ack, path.rateMbps),
  };
}

const live = new Set();
let hooked = false;
const signalHandlers = {};
function hookExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', teardownAllSync);
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
    signalHandlers[signal] = () => {
      teardownAllSync();
      process.exit(code);
    };
    process.on(signal, signalHandlers[signal]);
  }
}
function unhookExit() {
  if (!hooked || live.size > 0) return;
  hooked = false;
  process.off('exit', teardownAllSync);
  for (const [signal, handler] of Object.entries(signalHandlers)) process.off(signal, handler);
}
function teardownAllSync() {
  for (const t of live) t.teardownSync();
}

let counter = 0;

export class Testbed {
  constructor({ programs = buildPrograms(), earlyUs = 50, trace = true } = {}) {
    this.programs = programs;
    this.earlyUs = earlyUs;
    this.tracing = trace;
    this.name = `${NAME_PREFIX}${process.pid}-${counter++}`;
    this.ns = { client: `${this.name}-client`, router: `${this.name}-router`, server: `${this.name}-server` };
    this.port = 40000 + (process.pid % 20000);
    this.children = new Set();
    this.delay = null;
    this.traceDir = null;
    this.mountDir = null;
  }

  ip(ns, ...args) {
    return run('ip', ['-n', ns, ...args]);
  }
  exec(ns, cmd, args, opts) {
    return run('ip', ['netns', 'exec', ns, cmd, ...args], opts);
  }
  sysctl(ns, settings) {
    this.exec(ns, 'sysctl', ['-q', '-w', ...Object.entries(settings).map(([k, v]) => `${k}=${v}`)]);
  }

  // path: {rateMbps, delayMs (one way), queuePackets (waiting, as tcpsim counts them), mssBytes,
  // lossRate?, jitterMs?, seed?}
  async up(path) {
    live.add(this);
    hookExit();
    this.path = path;
    for (const ns of Object.values(this.ns)) run('ip', ['netns', 'add', ns]);
    const { client, router, server } = this.ns;
    for (const ns of Object.values(this.ns)) {
      this.sysctl(ns, { 'net.ipv6.conf.all.disable_ipv6': 1, 'net.ipv6.conf.default.disable_ipv6': 1 });
      this.ip(ns, 'link', 'set', 'lo', 'up');
    }
    this.ip(client, 'link', 'add', 'c0', 'type', 'veth', 'peer', 'name', 'r0', 'netns', router);
    this.ip(server, 'link', 'add', 's0', 'type', 'veth', 'peer', 'name', 'r1', 'netns', router);
    const ends = [
      [client, 'c0', `${ADDRESSES.client}/24`],
      [router, 'r0', `${ADDRESSES.routerClient}/24`],
      [router, 'r1', `${ADDRESSES.routerServer}/24`],
      [server, 's0', `${ADDRESSES.server}/24`],
    ];
    for (const [ns, dev, address] of ends) {
      this.ip(ns, 'addr', 'add', address, 'dev', dev);
      // Segments leave as single packets: no TSO/GSO to split later, no GRO to merge them.
      this.exec(ns, 'ethtool', ['-K', dev, 'tso', 'off', 'gso', 'off', 'gro', 'off']);
      this.ip(ns, 'link', 'set', dev, 'up');
    }
    this.ip(client, 'route', 'add', 'default', 'via', ADDRESSES.routerClient);
    this.ip(server, 'route', 'add', 'default', 'via', ADDRESSES.routerServer);
    // The end hosts: TCP without timestamps (tcpsim's segments carry 40 bytes of headers; MSS 1460 on
    // a 1500-byte MTU) and buffers that never limit a transfer (the receive window's autotuning and
    // the send buffer's growth up to 64 MiB: more than twice the largest path's BDP).
    for (const ns of [client, server]) {
      this.sysctl(ns, {
        'net.ipv4.tcp_timestamps': 0,
        'net.ipv4.tcp_rmem': '4096 131072 67108864',
        'net.ipv4.tcp_wmem': '4096 16384 67108864',
      });
    }
    this.sysctl(router, { 'net.ipv4.ip_forward': 1, 'net.ipv4.conf.all.rp_filter': 0, 'net.ipv4.conf.default.rp_filter': 0 });
    await this.startDelay(path);
    this.sysctl(router, { 'net.ipv4.conf.tun0.rp_filter': 0 });
    this.ip(router, 'link', 'set', 'tun0', 'up');
    // Policy routing by incoming interface: from either veth into the delay line, from the delay
    // line by destination.
    this.ip(router, 'rule', 'add', 'iif', 'r0', 'lookup', '100', 'pref', '100');
    this.ip(router, 'rule', 'add', 'iif', 'r1', 'lookup', '100', 'pref', '101');
    this.ip(router, 'route', 'add', 'default', 'dev', 'tun0', 'table', '100');
    // The bottleneck in both directions: a token bucket (bucketBytes()) over a FIFO whose limit
    // counts the packet tbf holds until its tokens are complete, the one tcpsim's link is
    // transmitting.
    for (const dev of ['r0', 'r1']) {
      this.exec(router, 'tc', ['qdisc', 'add', 'dev', dev, 'root', 'handle', '1:', 'tbf', 'rate', `${path.rateMbps}mbit`, 'burst', String(bucketBytes(path)), 'limit', '10000000']);
      this.exec(router, 'tc', ['qdisc', 'add', 'dev', dev, 'parent', '1:1', 'handle', '10:', 'pfifo', 'limit', String(path.queuePackets + 1)]);
    }
    if (this.tracing) this.openTrace();
    return this;
  }

  async startDelay(path) {
    const args = [
      'netns', 'exec', this.ns.router, this.programs.delay,
      '--tun', 'tun0',
      '--delay-us', String(path.delayMs * 1000),
      '--rate-mbps', String(path.rateMbps),
      '--framing-bytes', String(ETHERNET_HEADER_BYTES),
      '--forward-dst', ADDRESSES.server,
      '--early-us', String(this.earlyUs),
      '--priority', String(DELAY_PRIORITY),
    ];
    if (path.lossRate) args.push('--loss', String(path.lossRate));
    if (path.jitterMs) args.push('--jitter-us', String(path.jitterMs * 1000));
    if (path.seed != null) args.push('--seed', String(path.seed));
    this.delay = this.spawnChild('ip', args);
    await this.delay.line((l) => l.startsWith('ready'), 'the delay line');
  }

  // A child whose stdout lines are collected; `line(pred)` resolves on the first line matching.
  spawnChild(cmd, args) {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.children.add(child);
    const lines = [];
    let stderr = '';
    let pending = '';
    const waiters = [];
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      let i;
      while ((i = pending.indexOf('\n')) >= 0) {
        const l = pending.slice(0, i);
        pending = pending.slice(i + 1);
        lines.push(l);
        for (const w of [...waiters]) {
          if (!w.pred(l)) continue;
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(l);
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise((resolve) => child.on('close', (code, signal) => {
      this.children.delete(child);
      if (pending) lines.push(pending);
      for (const w of waiters) w.reject(new Error(`${w.what} exited (${code ?? signal}) before it was ready: ${stderr.trim()}`));
      resolve({ code, signal, lines, stderr });
    }));
    return {
      child,
      exited,
      lineCount: () => lines.length,
      // The first line from index `from` on that matches.
      line: (pred, what, from = 0) => {
        const found = lines.slice(from).find(pred);
        if (found) return Promise.resolve(found);
        return new Promise((resolve, reject) => waiters.push({ pred, resolve, reject, what }));
      },
    };
  }

  // A private tracefs instance with tcp_probe, tcp_retransmit_skb and tcp_cong_state_set filtered
  // to the server's port, on the monotonic clock the programs time themselves with.
  openTrace() {
    this.mountDir = join(tmpdir(), `${this.name}-tracefs`);
    mkdirSync(this.mountDir, { recursive: true });
    run('mount', ['-t', 'tracefs', 'nodev', this.mountDir]);
    this.traceDir = join(this.mountDir, 'instances', this.name);
    mkdirSync(this.traceDir);
    const w = (file, value) => writeFileSync(join(this.traceDir, file), value);
    w('trace_clock', 'mono');
    w('buffer_size_kb', String(TRACE_BUFFER_KB));
    w('options/overwrite', '0');
    for (const event of ['tcp_probe', 'tcp_retransmit_skb', 'tcp_cong_state_set']) {
      w(`events/tcp/${event}/filter`, `dport == ${this.port}`);
      w(`events/tcp/${event}/enable`, '1');
    }
    w('tracing_on', '0');
  }

  // One transfer from client to server: {cc, bytes} or {cc, seconds}. Returns the sender's and
  // receiver's reports and the sender's traced events. The client's and server's tcp_metrics are
  // flushed first unless keepMetrics.
  async transfer({ cc, bytes, seconds, sampleUs = 2000, keepMetrics = false, connections = 1, between }) {
    if (!keepMetrics) this.flushMetrics();
    if (this.traceDir) {
      writeFileSync(join(this.traceDir, 'trace'), '');
      writeFileSync(join(this.traceDir, 'tracing_on'), '1');
    }
    const receiver = this.spawnChild('ip', [
      'netns', 'exec', this.ns.server, 'chrt', '-f', String(FLOW_PRIORITY), this.programs.flow,
      'recv', '--port', String(this.port), '--connections', String(connections),
    ]);
    await receiver.line((l) => l.startsWith('ready'), 'the receiver');
    const senders = [];
    for (let i = 0; i < connections; ++i) {
      if (i > 0 && between) await between(i);
      const sender = this.spawnChild('ip', [
        'netns', 'exec', this.ns.client, 'chrt', '-f', String(FLOW_PRIORITY), this.programs.flow,
        'send', '--to', ADDRESSES.server, '--port', String(this.port), '--cc', cc,
        ...(bytes != null ? ['--bytes', String(bytes)] : ['--seconds', String(seconds)]),
        '--sample-us', String(sampleUs),
      ]);
      const s = await sender.exited;
      if (s.code !== 0) throw new Error(`the sender failed (${s.code ?? s.signal}): ${s.stderr.trim()}`);
      senders.push(JSON.parse(s.lines.find((l) => l.startsWith('{'))));
    }
    const r = await receiver.exited;
    if (r.code !== 0) throw new Error(`the receiver failed (${r.code ?? r.signal}): ${r.stderr.trim()}`);
    const receivers = r.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    let trace = null;
    if (this.traceDir) {
      writeFileSync(join(this.traceDir, 'tracing_on'), '0');
      trace = this.readTrace(senders);
    }
    return { senders, receivers, trace };
  }

  readTrace(senders) {
    const text = readFileSync(join(this.traceDir, 'trace'), 'utf8');
    const lost = readdirSync(join(this.traceDir, 'per_cpu')).reduce((n, cpu) => {
      const stats = readFileSync(join(this.traceDir, 'per_cpu', cpu, 'stats'), 'utf8');
      const get = (key) => Number(new RegExp(`^${key}: (\\d+)`, 'm').exec(stats)?.[1] ?? 0);
      return n + get('overrun') + get('dropped events');
    }, 0);
    if (lost > 0) throw new Error(`the trace lost ${lost} events (a larger buffer_size_kb is needed)`);
    return senders.map((s) => parseTrace(text, { cookie: s.cookie, localPort: s.localPort, port: this.port }));
  }

  // The delay line's accuracy since the last report (or since it started), and a fresh count.
  async delayReport() {
    const from = this.delay.lineCount();
    this.delay.child.kill('SIGUSR1');
    return JSON.parse(await this.delay.line((l) => l.startsWith('{'), 'the delay line', from));
  }

  flushMetrics() {
    for (const ns of [this.ns.client, this.ns.server]) this.ip(ns, 'tcp_metrics', 'flush', 'all');
  }

  // Stops the delay line (its accuracy line is the result) and removes everything.
  async down() {
    let delayStats = null;
    if (this.delay) {
      this.delay.child.kill('SIGTERM');
      const d = await this.delay.exited;
      const line = d.lines.find((l) => l.startsWith('{'));
      delayStats = line ? JSON.parse(line) : null;
      this.delay = null;
    }
    this.teardownSync();
    return { delay: delayStats };
  }

  teardownSync() {
    for (const child of this.children) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
    this.children.clear();
    removeTraceInstance(this.traceDir);
    this.traceDir = null;
    if (this.mountDir) {
      spawnSync('umount', [this.mountDir]);
      try {
        rmdirSync(this.mountDir);
      } catch {
        // a busy or already removed mount point is left to cleanupLeftovers()
      }
      this.mountDir = null;
    }
    for (const ns of Object.values(this.ns)) removeNamespace(ns);
    live.delete(this);
    unhookExit();
  }
}

function removeTraceInstance(dir) {
  if (!dir || !existsSync(dir)) return;
  try {
    writeFileSync(join(dir, 'tracing_on'), '0');
    writeFileSync(join(dir, 'events/enable'), '0');
  } catch {
    // the instance is removed below all the same
  }
  try {
    rmdirSync(dir);
  } catch {
    // busy (a reader still open): cleanupLeftovers() tries again
  }
}

// Kills what still runs in a namespace (processes started by a testbed) and deletes it.
function removeNamespace(ns) {
  const pids = spawnSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' });
  if (pids.status === 0) {
    for (const pid of pids.stdout.split(/\s+/).filter(Boolean).map(Number)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
  spawnSync('ip', ['netns', 'delete', ns]);
}

const ownerPid = (name) => Number(new RegExp(`^${NAME_PREFIX}(\\d+)-`).exec(name)?.[1] ?? NaN);
const leftover = (name) => {
  const pid = ownerPid(name);
  return Number.isInteger(pid) && pid !== process.pid && !alive(pid);
};

// Removes namespaces, tracefs instances and mounts of earlier runs whose process is gone; returns
// what it removed.
export function cleanupLeftovers() {
  const removed = [];
  const list = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  for (const line of (list.stdout ?? '').split('\n')) {
    const ns = line.split(' ')[0];
    if (ns.startsWith(NAME_PREFIX) && leftover(ns)) {
      removeNamespace(ns);
      removed.push(`namespace ${ns}`);
    }
  }
  const mounts = existsSync('/proc/mounts') ? readFileSync('/proc/mounts', 'utf8').split('\n') : [];
  const tracefs = mounts.map((l) => l.split(' ')).filter((f) => f[2] === 'tracefs').map((f) => f[1]);
  for (const mount of tracefs) {
    const instances = join(mount, 'instances');
    if (!existsSync(instances)) continue;
    for (const name of readdirSync(instances)) {
      if (name.startsWith(NAME_PREFIX) && leftover(name)) {
        removeTraceInstance(join(instances, name));
        removed.push(`tracefs instance ${name}`);
      }
    }
  }
  for (const mount of tracefs) {
    const base = mount.split('/').pop();
    if (base.startsWith(NAME_PREFIX) && base.endsWith('-tracefs') && leftover(base)) {
      spawnSync('umount', [mount]);
      try {
        rmdirSync(mount);
      } catch {
        // not empty or gone
      }
      removed.push(`tracefs mount ${mount}`);
    }
  }
  return removed;
}

// What of this process's testbeds still exists (for the tests: nothing after down()).
export function remnants(name) {
  const out = [];
  const list = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '';
  for (const line of list.split('\n')) if (line.startsWith(name)) out.push(`namespace ${line.split(' ')[0]}`);
  const mounts = readFileSync('/proc/mounts', 'utf8');
  if (mounts.includes(`${name}-tracefs`)) out.push('tracefs mount');
  return out;
}
