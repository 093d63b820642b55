// Random valid scenarios for the native/WASM comparison, in the spirit of sim-core's
// tests/invariants_test.cc RandomScenario: random topologies, TCP options, applications, losses
// and sharing schemes, with arbitrary (non-round) numbers so that number parsing is exercised too.
import type { Scenario } from '@tcb-lab/sim';

// mulberry32: a small seeded generator; test inputs only, the simulator has its own.
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    uniform: (lo: number, hi: number) => lo + (hi - lo) * next(),
    int: (n: number) => Math.floor(next() * n),
    chance: (p: number) => next() < p,
    pick<T>(xs: readonly T[]): T {
      return xs[Math.floor(next() * xs.length)];
    },
  };
}

export function randomScenario(seed: number): Scenario {
  const r = generator(seed);
  // Linux's rules from their own stream, so that the rest of each scenario stays what it was
  // without them.
  const lr = generator(seed ^ 0x4c696e78);
  const queue = () =>
    r.pick([() => 'unlimited' as const, () => ({ packets: r.int(30) }), () => ({ bytes: 1500 + r.int(40000) })])();
  const link = (maxMbps: number) => {
    const rateLoss = r.chance(0.3) ? { rate: r.uniform(0, 0.05) } : undefined;
    const reverseLoss = r.chance(0.2) ? { rate: r.uniform(0, 0.05) } : undefined;
    const scriptedLoss = r.chance(0.15) ? { packets: [1 + r.int(20), 3 + r.int(40)] } : undefined;
    const lossForward = scriptedLoss ?? rateLoss;
    return {
      bandwidthMbps: r.uniform(0.2, maxMbps),
      delayMs: r.uniform(0, 60),
      queue: queue(),
      ...(lossForward ? { lossForward } : {}),
      ...(reverseLoss ? { lossReverse: reverseLoss } : {}),
    };
  };
  const tcp = () => {
    const flavor = r.pick(['tahoe', 'reno', 'newreno', 'sack', 'cubic', 'bbr'] as const);
    return {
      flavor,
      ...tcpOptions(),
      initialWindow: r.chance(0.1) ? ('rfc6928' as const) : r.chance(0.5) ? 1 + r.int(4) : ('rfc3390' as const),
      ...(r.chance(0.3) ? { initialSsthreshBytes: 2000 + r.int(60000) } : {}),
      ...(r.chance(0.2) ? { pacing: 'rate' as const } : {}),
      ...(flavor === 'cubic' && r.chance(0.3)
        ? {
            cubic: {
              hystart: r.chance(0.5),
              fastConvergence: r.chance(0.5),
              beta: r.uniform(0.5, 0.9),
              rules: r.pick(['rfc9438', 'linux'] as const),
            },
          }
        : {}),
      // RFC 8985 RACK-TLP needs SACK-based recovery; always given, so that an item's own flavor
      // overrides the scenario's choice.
      rack: (flavor === 'sack' || flavor === 'cubic' || flavor === 'bbr') && r.chance(0.4),
      // Linux's rules: Reno's window, BBR 6.x, the receiver's ACKs, the RTO, pacing, on 4 or 1 ms
      // jiffies.
      ...(lr.chance(0.3) ? { reno: { rules: 'linux' as const } } : {}),
      ...(lr.chance(0.3) ? { bbr: { rules: 'linux' as const } } : {}),
      ...(lr.chance(0.3) ? { ackRules: 'linux' as const } : {}),
      ...(lr.chance(0.3) ? { rtoRules: 'linux' as const } : {}),
      ...(lr.chance(0.5) ? { linuxHz: lr.pick([250, 1000] as const) } : {}),
      ...(lr.chance(0.3) ? { pacingRules: 'linux' as const } : {}),
    };
  };
  // An item's own TCP options, with loss recovery as its own choice half of the time (not
  // scenario-wide: it would make an item's Tahoe invalid).
  const itemTcp = () => {
    const t = tcp();
    if (t.flavor === 'tahoe' || !r.chance(0.5)) return t;
    const recovery = r.pick(['reno', 'newreno', 'sack-rfc6675', 'prr'] as const);
    return { ...t, recovery, rack: (recovery === 'sack-rfc6675' || recovery === 'prr') && r.chance(0.4) };
  };
  const tcpOptions = () => ({
    rightEdgeRecovery: r.chance(0.2),
    cwndValidation: r.chance(0.3),
    connection: r.pick(['full', 'one-way'] as const),
    mssBytes: 100 + r.int(1400),
    delayedAck: r.chance(0.5),
    delayedAckTimeoutMs: r.uniform(10, 300),
    rtoGranularityMs: r.pick([0, 10, 50, 200, 500]),
    minRtoMs: r.uniform(0, 1000),
    slowStartRestart: r.chance(0.5),
    nagle: r.chance(0.3),
    receiveWindowBytes: 2000 + r.int(200000),
  });
  const sharing = () => {
    const scheme = r.pick([
      'independent',
      'rfc9040-temporal',
      'rfc9040-ensemble',
      'mv-tcbi',
      'fs-tcbi',
      'etcp',
      'tcp-int',
      'spand',
      'congestion-manager',
      'careful-resume',
      'linux-tcp-metrics',
      'bdp-resume',
    ] as const);
    const scope = r.pick(['host-pair', 'network', 'host'] as const);
    switch (scheme) {
      case 'independent':
        return { scheme };
      case 'etcp':
        return {
          scheme,
          scope,
          tickets: r.pick(['fair', 'content', 'decay', 'html-pre'] as const),
          handshakeAvoidance: r.chance(0.5),
          paceHalfClosed: r.chance(0.5),
        };
      case 'spand':
        return { scheme, windowS: 1 + r.int(60), segmentsPerAck: 1 + r.int(2), shiftOptimisation: r.chance(0.5) };
      case 'tcp-int':
        return { scheme, scope, weighted: r.chance(0.5), delayedAckRules: r.chance(0.5) };
      case 'rfc9040-temporal':
        return {
          scheme,
          scope,
          merge: r.pick(['latest', 'mean', 'ewma'] as const),
          ageCwnd: r.chance(0.5),
          lifetimeS: 1 + r.int(20),
        };
      case 'careful-resume':
        return {
          scheme,
          scope,
          lifetimeS: r.uniform(1, 60),
          maxJumpBytes: r.chance(0.3) ? 2000 + r.int(200000) : ('none' as const),
          beta: r.uniform(0.5, 1),
        };
      case 'linux-tcp-metrics':
        return {
          scheme,
          scope,
          noMetricsSave: r.chance(0.2),
          noSsthreshMetricsSave: r.chance(0.5),
          initcwndSegments: r.chance(0.3) ? 1 + r.int(20) : ('none' as const),
          cwndLockSegments: r.chance(0.2) ? 2 + r.int(50) : ('none' as const),
          timeoutS: r.uniform(1, 30),
        };
      case 'bdp-resume':
        return {
          scheme,
          scope,
          lifetimeS: r.uniform(1, 60),
          maxWindowBytes: r.chance(0.3) ? 2000 + r.int(200000) : ('none' as const),
        };
      default:
        return { scheme, scope };
    }
  };

  let topology: Scenario['topology'];
  let left: string[];
  let right: string[];
  switch (r.int(3)) {
    case 0: {
      const pairs = 1 + r.int(4);
      topology = { kind: 'dumbbell', pairs, bottleneck: link(20), access: link(100) };
      left = Array.from({ length: pairs }, (_, i) => `left${i}`);
      right = Array.from({ length: pairs }, (_, i) => `right${i}`);
      break;
    }
    case 1:
      topology = {
        kind: 'parking-lot',
        hops: 2 + r.int(3),
        users: 2,
        crossPerRouter: 1,
        hop: link(10),
        access: link(100),
      };
      left = ['src0', 'src1', 'x1s0'];
      right = ['dst0', 'dst1', 'x1d0'];
      break;
    default: {
      // A random tree over six nodes.
      const nodes = Array.from({ length: 6 }, (_, i) => ({ name: `n${i}` }));
      const links = Array.from({ length: 5 }, (_, k) => ({ ...link(50), a: `n${r.int(k + 1)}`, b: `n${k + 1}` }));
      type Custom = Extract<Scenario['topology'], { kind: 'custom' }>;
      topology = { kind: 'custom', nodes: nodes as Custom['nodes'], links: links as Custom['links'] };
      left = ['n0', 'n1', 'n2'];
      right = ['n5', 'n4', 'n3'];
    }
  }

  // Sizes and times drawn from every kind of distribution, so that the math behind them (our own
  // det_math, not libm) is compared too.
  const distribution = (mean: number) =>
    r.pick([
      () => mean * r.uniform(0.5, 1.5),
      () => ({ dist: 'uniform' as const, min: mean * 0.5, max: mean * 1.5 }),
      () => ({ dist: 'exponential' as const, mean }),
      () => ({ dist: 'pareto' as const, shape: r.uniform(1.1, 2), scale: mean / 3, max: mean * 20 }),
      () => ({ dist: 'lognormal' as const, mean, sd: mean * r.uniform(0.5, 3) }),
      () => ({ dist: 'gamma' as const, mean, sd: mean * r.uniform(0.5, 3) }),
    ])();
  const rounds = { rounds: 1 + r.int(4), idleS: r.uniform(0, 2) };
  const items = 1 + r.int(4);
  const traffic = Array.from({ length: items }, (_, i) => {
    let from = r.pick(left);
    let to = r.pick(right);
    if (r.chance(0.3)) [from, to] = [to, from];
    const common = { name: `item${i}`, from, to };
    const tcpish = {
      ...(r.chance(0.3) ? { tcp: itemTcp() } : {}),
      ...(r.chance(0.5) ? { content: r.pick(['html', 'image', 'java', 'ftp', 'other'] as const) } : {}),
      ...(r.chance(0.3) ? { weight: r.uniform(0.5, 3) } : {}),
    };
    switch (r.int(7)) {
      case 0:
        return {
          ...common,
          ...tcpish,
          type: 'bulk' as const,
          startS: r.uniform(0, 2),
          ...(r.chance(0.7) ? { bytes: 1 + r.int(300000), repeat: 1 + r.int(3) } : {}),
        };
      case 1:
        return {
          ...common,
          ...tcpish,
          type: 'transfers' as const,
          bytes: 1 + r.int(100000),
          atS: [r.uniform(0, 3), r.uniform(0, 6), r.uniform(0, 9)],
          startJitterS: r.uniform(0, 1),
          reuseConnection: r.chance(0.5),
        };
      case 2:
        return {
          ...common,
          type: 'telnet' as const,
          meanIntervalS: r.uniform(0.01, 0.5),
          ...(r.chance(0.5) ? { stopS: r.uniform(1, 10) } : {}),
        };
      case 3:
        return { ...common, type: 'onoff-udp' as const, rateKbps: r.uniform(10, 500) };
      case 4:
        return {
          ...common,
          ...(r.chance(0.3) ? { weight: r.uniform(0.5, 3) } : {}),
          // Requests and responses go both ways: web clients need full connections.
          tcp: { ...itemTcp(), connection: 'full' as const },
          type: 'web' as const,
          http: r.pick(['1.0-serial', '1.0-parallel', '1.1-pipelined', '1.1-segment-filled', '1.1-persistent', '2'] as const),
          maxConnections: r.chance(0.5) ? 1 + r.int(6) : ('unlimited' as const),
          // HTTP/2's options (ignored by the other methods): few streams, either scheduler, with and
          // without the low-water mark.
          ...(r.chance(0.5)
            ? {
                http2: {
                  maxConcurrentStreams: 1 + r.int(8),
                  scheduler: r.pick(['round-robin', 'weighted'] as const),
                  notSentLowatBytes: r.chance(0.3) ? ('unlimited' as const) : 1 + r.int(40000),
                  priorities: { image: { urgency: r.int(8), incremental: r.chance(0.5) } },
                },
              }
            : {}),
          inlineRequests: r.pick(['as-html-arrives', 'after-html'] as const),
          pageCount: 1 + r.int(3),
          thinkS: distribution(0.5),
          page: r.chance(0.5)
            ? { named: r.pick(['etcp-text', 'etcp-map', 'etcp-graphics', 'etcp-frames', 'etcp-java']) }
            : { model: 'mah' as const },
        };
      case 5:
        // Every rounds item of a scenario must agree on rounds and idleS.
        return { ...common, ...tcpish, type: 'rounds' as const, bytes: 1 + r.int(60000), ...rounds, startJitterS: r.uniform(0, 1) };
      default:
        return {
          ...common,
          ...tcpish,
          type: 'sessions' as const,
          bytes: distribution(20000),
          gapS: distribution(0.3),
          ...(r.chance(0.5) ? { sessions: { gapS: distribution(1), transfers: distribution(3) } } : {}),
        };
    }
  });

  const scenario = {
    schemaVersion: 1 as const,
    seed,
    durationS: r.uniform(2, 20),
    tcp: tcp(),
    topology,
    traffic: traffic as Scenario['traffic'],
    hosts: { '*': { sharing: sharing() } },
  };
  // BBR needs each connection's own delivery-rate samples, Linux's RTO rules each connection's own
  // RTT estimate: not under a scheme that shares one window (the parser refuses them there).
  const scheme = scenario.hosts['*'].sharing.scheme;
  if (scheme === 'etcp' || scheme === 'tcp-int' || scheme === 'congestion-manager') {
    type Own = { flavor?: string; rtoRules?: string };
    const ownWindow = <T extends Own>(t: T): T =>
      ({
        ...t,
        ...(t.flavor === 'bbr' ? { flavor: 'sack' } : {}),
        ...(t.rtoRules !== undefined ? { rtoRules: 'rfc6298' } : {}),
      }) as T;
    scenario.tcp = ownWindow(scenario.tcp);
    for (const item of scenario.traffic as { tcp?: Own }[]) {
      if (item.tcp) item.tcp = ownWindow(item.tcp);
    }
  }
  return scenario;
}
