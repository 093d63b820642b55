// The fidelity comparison's matrix (`npm run xcheck`): scenarios × algorithms, each row described
// once here and turned into a tcpsim scenario (sim-core/scenario/schema/scenario.schema.json) and
// an ns-3 run specification (bench/ns3/xcheck.py) by the two functions at the end, so that the two
// simulators always run the same thing. docs/FIDELITY.md explains every choice made here.

// Bytes of IP and TCP headers on every tcpsim segment (sim-core/net/packet.h), so a full segment is
// mss + 40 bytes at the IP layer in both simulators (ns-3 adds a 2-byte PPP header on the wire).
export const HEADER_BYTES = 40;

// The TCP configuration both simulators can express, shared by every scenario unless it says
// otherwise. ns-3 3.44's defaults differ in most of these (IW 10, min RTO 1 s, G 1 ms, delayed
// ACKs, SACK, timestamps, limited transmit, PRR); ns3Spec() sets each to tcpsim's value.
const BASE_TCP = {
  mssBytes: 1460,
  initialWindow: 10, // RFC 6928's 10 segments, as a number (both simulators take segments)
  delayedAck: false,
  delayedAckTimeoutMs: 200,
  receiveWindowBytes: 1048576,
  rtoGranularityMs: 0, // RFC 6298's G: an exact clock, which ns-3's ClockGranularity = 0 matches
  minRtoMs: 1000,
  initialRtoMs: 1000,
  dupackThreshold: 3,
};

// The network path of a round trip without queueing: twice the bottleneck and two access links.
function propagationRttS(s) {
  return (2 * (s.bottleneck.delayMs + 2 * s.access.delayMs)) / 1000;
}

// A drop-tail queue of one bandwidth-delay product, in full-sized packets.
export function bdpPackets(bandwidthMbps, rttS, packetBytes) {
  return Math.round((bandwidthMbps * 1e6 * rttS) / 8 / packetBytes);
}

const SHORT_PATH = {
  bottleneck: { bandwidthMbps: 1.6, delayMs: 50, queuePackets: 10 },
  access: { bandwidthMbps: 100, delayMs: 1, queuePackets: 1000 },
};

const LONG_PATH = {
  bottleneck: { bandwidthMbps: 10, delayMs: 20, queuePackets: 0 /* set below: one BDP */ },
  access: { bandwidthMbps: 100, delayMs: 1, queuePackets: 1000 },
};
LONG_PATH.bottleneck.queuePackets = bdpPackets(
  LONG_PATH.bottleneck.bandwidthMbps,
  propagationRttS(LONG_PATH),
  BASE_TCP.mssBytes + HEADER_BYTES,
);

export const SCENARIOS = {
  'short-100kb': {
    title: 'one 100 KB flow over 1.6 Mb/s, 50 ms, a 10-packet queue',
    durationS: 30,
    ...SHORT_PATH,
    tcp: BASE_TCP,
    flows: [{ startS: 0, bytes: 100_000 }],
  },
  'short-1mb': {
    title: 'one 1 MB flow over 1.6 Mb/s, 50 ms, a 10-packet queue',
    durationS: 60,
    ...SHORT_PATH,
    tcp: BASE_TCP,
    flows: [{ startS: 0, bytes: 1_000_000 }],
  },
  'long-60s': {
    title: `one 60 s flow over 10 Mb/s, 20 ms, a buffer of one BDP (${LONG_PATH.bottleneck.queuePackets} packets), delayed ACKs`,
    durationS: 60,
    ...LONG_PATH,
    tcp: { ...BASE_TCP, delayedAck: true },
    flows: [{ startS: 0, bytes: null }],
  },
  // The dumbbell-bulk preset's network and TCP (sim-core/scenario/presets/dumbbell-bulk.json) with
  // four flows started a quarter second apart (the preset draws its starts at random).
  'dumbbell-4': {
    title: 'four flows on the dumbbell-bulk network (100 Mb/s, 10 ms, 100-packet queues), started 0.25 s apart',
    durationS: 60,
    bottleneck: { bandwidthMbps: 100, delayMs: 10, queuePackets: 100 },
    access: { bandwidthMbps: 1000, delayMs: 1, queuePackets: 100 },
    tcp: { ...BASE_TCP, mssBytes: 1000, initialWindow: 1, receiveWindowBytes: 131072 },
    flows: [0, 0.25, 0.5, 0.75].map((startS) => ({ startS, bytes: null })),
  },
};

// Congestion control × loss recovery. SACK is on exactly when the recovery uses it. tcpsim's
// names are fixed: tcp.flavor tahoe|reno|newreno|sack|cubic|bbr, tcp.recovery reno|newreno|
// sack-rfc6675|prr, tcp.rack, tcp.pacing off|rate, tcp.cubic.rules rfc9438|linux. `ns3As` names
// the algorithm whose ns-3 run a row shares, when ns-3 has one model for both.
export const ALGORITHMS = {
  newreno: {
    title: 'NewReno (RFC 6582), no SACK',
    congestion: 'newreno',
    recovery: 'newreno',
    pacing: 'off',
  },
  // The baseline of the three below, which tcpsim has today: each of them changes one thing.
  sack: {
    title: 'NewReno with SACK (RFC 6675 recovery)',
    congestion: 'newreno',
    recovery: 'sack-rfc6675',
    pacing: 'off',
  },
  // The window rule alone changes against the SACK row. (Without SACK, ns-3's recovery after a
  // timeout falls into spurious retransmissions, docs/FIDELITY.md D5, which would hide the rule.)
  cubic: {
    title: 'CUBIC (RFC 9438) with SACK (RFC 6675 recovery)',
    congestion: 'cubic',
    cubicRules: 'rfc9438',
    recovery: 'sack-rfc6675',
    pacing: 'off',
  },
  // The CUBIC rules alone change against the `cubic` row: Linux's net/ipv4/tcp_cubic.c instead of
  // RFC 9438 as written. ns-3's side is the same TcpCubic, so the two rows share its run.
  'cubic-linux': {
    title: "CUBIC as Linux's tcp_cubic.c with SACK (RFC 6675 recovery)",
    congestion: 'cubic',
    cubicRules: 'linux',
    recovery: 'sack-rfc6675',
    pacing: 'off',
    ns3As: 'cubic',
  },
  // BBR sets the window itself (ns-3's TcpBbr::HasCongControl), paces, and counts SACKed bytes as
  // delivered: SACK on, as Linux runs it.
  bbr: {
    title: 'BBR v1 with SACK, paced',
    congestion: 'bbr',
    recovery: 'sack-rfc6675',
    pacing: 'rate',
  },
  // The recovery alone changes against the SACK row: RFC 6937 instead of RFC 6675's.
  prr: {
    title: 'NewReno with SACK and PRR (RFC 6937)',
    congestion: 'newreno',
    recovery: 'prr',
    pacing: 'off',
  },
};

export function rows({ scenarios, algorithms } = {}) {
  const pick = (all, wanted, what) => {
    if (!wanted || wanted.length === 0) return Object.keys(all);
    for (const name of wanted) {
      if (!(name in all)) throw new Error(`unknown ${what} "${name}" (known: ${Object.keys(all).join(', ')})`);
    }
    return wanted;
  };
  const out = [];
  for (const scenario of pick(SCENARIOS, scenarios, 'scenario')) {
    for (const algorithm of pick(ALGORITHMS, algorithms, 'algorithm')) {
      out.push({ id: `${scenario}-${algorithm}`, scenario, algorithm });
    }
  }
  return out;
}

const sackOn = (algo) => algo.recovery !== 'newreno';

// tcpsim's TCP options for an algorithm. The NewReno rows use only what tcpsim has always had; a
// row that needs the newer fields states every one of them (rack off: ns-3 3.44 has no RACK), so
// that a changed default cannot move it silently.
export function tcpsimAlgorithmOptions(algo) {
  if (algo.congestion === 'newreno' && algo.pacing === 'off') {
    if (algo.recovery === 'newreno') return { flavor: 'newreno' };
    if (algo.recovery === 'sack-rfc6675') return { flavor: 'sack' };
  }
  const flavor = algo.congestion === 'newreno' ? (sackOn(algo) ? 'sack' : 'newreno') : algo.congestion;
  const cubic = algo.cubicRules ? { cubic: { rules: algo.cubicRules } } : {};
  return { flavor, recovery: algo.recovery, rack: false, pacing: algo.pacing, ...cubic };
}

// The row whose ns-3 run this row's ns-3 side is (itself, or its algorithm's `ns3As`).
export function ns3RowId(row) {
  return `${row.scenario}-${ALGORITHMS[row.algorithm].ns3As ?? row.algorithm}`;
}

export function tcpsimScenario(row) {
  const s = SCENARIOS[row.scenario];
  const algo = ALGORITHMS[row.algorithm];
  const link = (l) => ({ bandwidthMbps: l.bandwidthMbps, delayMs: l.delayMs, queue: { packets: l.queuePackets } });
  return {
    schemaVersion: 1,
    name: `xcheck-${row.id}`,
    description: `${s.title}; ${algo.title}. Generated by bench/xcheck/matrix.mjs for npm run xcheck.`,
    seed: 1,
    durationS: s.durationS,
    tcp: { ...tcpsimAlgorithmOptions(algo), ...s.tcp },
    topology: { kind: 'dumbbell', pairs: s.flows.length, bottleneck: link(s.bottleneck), access: link(s.access) },
    traffic: s.flows.map((f, i) => ({
      type: 'bulk',
      name: `flow${i}`,
      from: `left${i}`,
      to: `right${i}`,
      startS: f.startS,
      bytes: f.bytes ?? 'unlimited',
    })),
  };
}

const NS3_CONGESTION = { newreno: 'TcpNewReno', cubic: 'TcpCubic', bbr: 'TcpBbr' };
// RFC 6675 recovery in ns-3 is TcpClassicRecovery with SACK on: cwnd = ssthresh on entry, then
// sending is governed by pipe (TcpSocketBase::AvailableWindow over TcpTxBuffer::BytesInFlight).
const NS3_RECOVERY = { newreno: 'TcpClassicRecovery', 'sack-rfc6675': 'TcpClassicRecovery', prr: 'TcpPrrRecovery' };

const ms = (x) => `${x}ms`;
const rate = (mbps) => `${mbps}Mbps`;

// The ns-3 attributes (Config::SetDefault, values as strings) that make ns-3's TCP the row's.
export function ns3Defaults(row) {
  const s = SCENARIOS[row.scenario];
  const algo = ALGORITHMS[row.algorithm];
  const t = s.tcp;
  return [
    ['ns3::TcpSocket::SegmentSize', String(t.mssBytes)],
    ['ns3::TcpSocket::InitialCwnd', String(t.initialWindow)],
    // tcpsim acknowledges every segment, or every second one (RFC 1122 §4.2.3.2) with a timeout.
    ['ns3::TcpSocket::DelAckCount', t.delayedAck ? '2' : '1'],
    ['ns3::TcpSocket::DelAckTimeout', ms(t.delayedAckTimeoutMs)],
    // The receiver's buffer is the advertised window; the sender's must never limit a bulk flow.
    ['ns3::TcpSocket::RcvBufSize', String(t.receiveWindowBytes)],
    ['ns3::TcpSocket::SndBufSize', String(Math.max(4 * t.receiveWindowBytes, 4 << 20))],
    // tcpsim's first SYN timeout is its initial RTO (ns-3: ConnTimeout, doubled per retry).
    ['ns3::TcpSocket::ConnTimeout', ms(t.initialRtoMs)],
    ['ns3::TcpSocket::TcpNoDelay', 'true'],
    ['ns3::TcpSocketBase::MinRto', ms(t.minRtoMs)],
    ['ns3::TcpSocketBase::ClockGranularity', ms(t.rtoGranularityMs)],
    ['ns3::TcpSocketBase::ReTxThreshold', String(t.dupackThreshold)],
    ['ns3::RttEstimator::InitialEstimation', ms(t.initialRtoMs)],
    ['ns3::TcpSocketBase::Sack', String(sackOn(algo))],
    // tcpsim sends no timestamps (40-byte headers) and has no limited transmit (RFC 3042).
    ['ns3::TcpSocketBase::Timestamp', 'false'],
    ['ns3::TcpSocketBase::LimitedTransmit', 'false'],
    ['ns3::TcpSocketState::EnablePacing', String(algo.pacing === 'rate')],
  ];
}

export function ns3Spec(row) {
  const s = SCENARIOS[row.scenario];
  const algo = ALGORITHMS[row.algorithm];
  const link = (l) => ({ rate: rate(l.bandwidthMbps), delay: ms(l.delayMs), queuePackets: l.queuePackets });
  return {
    name: ns3RowId(row),
    durationS: s.durationS,
    seed: 1,
    pairs: s.flows.length,
    bottleneck: link(s.bottleneck),
    access: link(s.access),
    flows: s.flows.map((f) => ({ startS: f.startS, bytes: f.bytes })),
    socketType: NS3_CONGESTION[algo.congestion],
    recoveryType: NS3_RECOVERY[algo.recovery],
    sendSize: s.tcp.mssBytes,
    defaults: ns3Defaults(row),
  };
}
