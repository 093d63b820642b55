// The calibration matrix against the Linux kernel (`npm run calibrate:linux`): paths × congestion
// controls × transfers, each case described once here and turned into a testbed run (the kernel's
// TCP, bench/linux/testbed.mjs) and a tcpsim scenario with the `linux` profile, so that both always
// run the same thing. docs/FIDELITY.md ("against Linux") explains every choice made here.
import { ETHERNET_HEADER_BYTES, IP_TCP_HEADER_BYTES } from './testbed.mjs';

export const MSS_BYTES = 1460;
const FRAME_BYTES = MSS_BYTES + IP_TCP_HEADER_BYTES + ETHERNET_HEADER_BYTES;

// A drop-tail queue of one bandwidth-delay product, in full frames.
export function bdpPackets(rateMbps, rttS, frameBytes = FRAME_BYTES) {
  return Math.round((rateMbps * 1e6 * rttS) / 8 / frameBytes);
}

// Paths: the bottleneck's rate, the propagation RTT (split evenly into the two one-way delays) and
// the queue in packets waiting (the one in transmission not counted, as tcpsim counts them).
export const PATHS = {
  '10m-20ms': { title: '10 Mb/s, 20 ms RTT, a queue of one BDP', rateMbps: 10, rttMs: 20, queuePackets: bdpPackets(10, 0.02) },
  '4g': { title: '4G-like: 30 Mb/s, 80 ms RTT, 50 packets', rateMbps: 30, rttMs: 80, queuePackets: 50 },
  geo: { title: 'GEO-like: 50 Mb/s, 600 ms RTT, a queue of one BDP', rateMbps: 50, rttMs: 600, queuePackets: bdpPackets(50, 0.6) },
};

// The kernel's congestion controls, chosen per socket (TCP_CONGESTION).
export const ALGORITHMS = {
  reno: { title: 'Reno (tcp_cong.c tcp_reno_cong_avoid, tcp_reno_ssthresh)', cc: 'reno' },
  cubic: { title: 'CUBIC (tcp_cubic.c, HyStart on)', cc: 'cubic' },
  bbr: { title: 'BBR v1 (tcp_bbr.c), paced by TCP itself (no fq)', cc: 'bbr' },
};

export const TRANSFERS = {
  '100kb': { title: 'a 100 KB transfer', bytes: 100_000 },
  '1mb': { title: 'a 1 MB transfer', bytes: 1_000_000 },
  '20s': { title: 'a 20 s bulk transfer', seconds: 20 },
};

export const REPETITIONS = 3;

export function cases(selection, { extraIds = [] } = {}) {
  const all = [];
  for (const path of Object.keys(PATHS)) {
    for (const algorithm of Object.keys(ALGORITHMS)) {
      for (const transfer of Object.keys(TRANSFERS)) all.push({ id: `${path}-${algorithm}-${transfer}`, path, algorithm, transfer });
    }
  }
  if (!selection) return all;
  const wanted = selection.split(',').map((s) => s.trim()).filter(Boolean);
  const picked = all.filter((c) => wanted.some((w) => matches(c.id, w)));
  // A pattern may pick cases of another list (extraIds: the tcp_metrics cases) instead.
  const unknown = wanted.filter((w) => ![...all.map((c) => c.id), ...extraIds].some((id) => matches(id, w)));
  if (unknown.length > 0) {
    throw new Error(`no case matches ${unknown.map((u) => `"${u}"`).join(', ')} (cases are <path>-<algorithm>-<transfer>: paths ${Object.keys(PATHS).join(', ')}; algorithms ${Object.keys(ALGORITHMS).join(', ')}; transfers ${Object.keys(TRANSFERS).join(', ')}${extraIds.length ? `; or ${extraIds.join(', ')}` : ''}; * matches anything)`);
  }
  return picked;
}

// A case id against a pattern where * matches any run of characters.
export function matches(id, pattern) {
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(id);
}

// The testbed's path of a case.
export function testbedPath(c) {
  const p = PATHS[c.path];
  return { rateMbps: p.rateMbps, delayMs: p.rttMs / 2, queuePackets: p.queuePackets, mssBytes: MSS_BYTES };
}

// How long tcpsim runs a sized transfer: long enough for any of these to finish.
const SIZED_DURATION_S = 120;

// The `linux` profile: tcpsim's TCP options for what the kernel does here, each from its source.
// The kernel's tick rate where the running kernel does not say (CONFIG_HZ of x86_64_defconfig); see
// kernelHz() in testbed.mjs.
export const DEFAULT_HZ = 1000;

export function linuxTcpOptions(algorithm, { hz = DEFAULT_HZ } = {}) {
  const common = {
    mssBytes: MSS_BYTES, // 1500-byte MTU, no TCP timestamps (the testbed turns them off)
    initialWindow: 'rfc6928', // TCP_INIT_CWND 10 (include/net/tcp.h)
    initialSsthreshBytes: 'infinite', // TCP_INFINITE_SSTHRESH
    // The receive buffer's autotuning (tcp_rcv_space_adjust()) keeps the advertised window ahead
    // of the sender here (the kernel reports no rwnd-limited time); tcpsim's cap on cwnd is the
    // testbed's tcp_rmem maximum.
    receiveWindowBytes: 67108864,
    // The receiver's ACKs as tcp_input.c sends them: quick ACKs for the first data
    // (tcp_incr_quickack()), then every second full segment (__tcp_ack_snd_check()) or after the
    // delayed-ACK timer, whose ato starts at TCP_ATO_MIN, 40 ms (include/net/tcp.h), and SACK
    // compression for out-of-order data.
    delayedAck: true,
    delayedAckTimeoutMs: 40,
    ackRules: 'linux',
    // RTT samples in microseconds from every ACK (tcp_clean_rtx_queue()) into tcp_rtt_estimator(),
    // whose variance term is at least TCP_RTO_MIN (200 ms); TCP_TIMEOUT_INIT 1 s before the first
    // sample, TCP_RTO_MAX 120 s; the RTO in jiffies of the kernel's CONFIG_HZ.
    rtoGranularityMs: 0,
    minRtoMs: 200,
    initialRtoMs: 1000,
    maxRtoMs: 120000,
    rtoRules: 'linux',
    linuxHz: hz,
    dupackThreshold: 3, // net.ipv4.tcp_reordering
    // tcp_cong_avoid() grows the window only while tcp_is_cwnd_limited() (include/net/tcp.h): the
    // Linux rules (and CUBIC, RFC 9438 §5.8) ask it themselves; RFC 7661's stricter test is not
    // the kernel's.
    cwndValidation: false,
    nagle: false, // the transfer program sets TCP_NODELAY
    slowStartRestart: true, // net.ipv4.tcp_slow_start_after_idle
    connection: 'full',
    // Paced sockets (BBR) as tcp_update_skb_after_send() spaces them: the first 10 segments
    // unpaced, a late departure shortening the next gap by up to half.
    pacingRules: 'linux',
    // SACK with RACK-TLP loss detection (net.ipv4.tcp_recovery = 1, tcp_recovery.c) and PRR
    // (tcp_cwnd_reduction() in tcp_input.c) on every connection.
    recovery: 'prr',
    rack: true,
  };
  switch (algorithm) {
    case 'reno':
      // tcp_reno_cong_avoid() with tcp_slow_start() and tcp_cong_avoid_ai() (tcp_cong.c): the window
      // counted in segments delivered; SACK recovery as above.
      return { flavor: 'sack', ...common, reno: { rules: 'linux' }, pacing: 'off' };
    case 'cubic':
      // net/ipv4/tcp_cubic.c as the kernel runs it (cubic.rules 'linux': its integer curve in
      // jiffies of linuxHz, ssthresh = cwnd * 717 / 1024, HyStart's ACK train and delay tests in
      // hystart_update()), with tcp_cong.c's tcp_slow_start() and tcp_cong_avoid_ai(). Without fq
      // the kernel paces only what asks for it (sk_pacing_status, set by BBR): CUBIC sends as the
      // ACKs clock it, and HyStart's ACK-train threshold is half the minimum RTT.
      return { flavor: 'cubic', ...common, cubic: { rules: 'linux' }, pacing: 'off' };
    case 'bbr':
      // The kernel's tcp_bbr.c (6.x, with ACK aggregation); it sets sk_pacing_status =
      // SK_PACING_NEEDED: TCP paces it with its own hrtimer (tcp_internal_pacing()); tcpsim's BBR
      // always paces at its rate.
      return { flavor: 'bbr', ...common, bbr: { rules: 'linux' }, pacing: 'rate' };
    default:
      throw new Error(`unknown algorithm ${algorithm}`);
  }
}

// The tcpsim scenario of a case: one link as the path (the testbed's tbf counts each packet's
// 14-byte Ethernet header: framingBytes), the server sending to the client.
export function tcpsimScenario(c, { seed = 1, hz = DEFAULT_HZ } = {}) {
  const p = PATHS[c.path];
  const t = TRANSFERS[c.transfer];
  return {
    schemaVersion: 1,
    name: `calibrate-linux-${c.id}`,
    description: `${p.title}; ${ALGORITHMS[c.algorithm].title}; ${t.title}. Generated by bench/linux/matrix.mjs for npm run calibrate:linux.`,
    seed,
    durationS: t.seconds ?? SIZED_DURATION_S,
    tcp: linuxTcpOptions(c.algorithm, { hz }),
    topology: {
      kind: 'single-link',
      link: {
        bandwidthMbps: p.rateMbps,
        delayMs: p.rttMs / 2,
        queue: { packets: p.queuePackets },
        framingBytes: ETHERNET_HEADER_BYTES,
      },
    },
    traffic: [{ type: 'bulk', name: 'flow0', from: 'server', to: 'client', startS: 0, bytes: t.bytes ?? 'unlimited' }],
    record: { trace: 'full' },
  };
}
