// The calibration's own logic, without the kernel: the tracepoints' text parsed into one
// connection's events, the figures taken from a run, the kernel's spread and the targets, the
// matrix and the tcpsim scenarios it generates (which tcpsim accepts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

import { bytesBy, caseRows, firstEventS, kernelMetrics, offPercent, slowStartExit, spread } from './calibration.mjs';
import { DEFAULT_HZ, PATHS, bdpPackets, cases, linuxTcpOptions, tcpsimScenario, testbedPath } from './matrix.mjs';
import { BUCKET_SLACK_US, bucketBytes, delayLineUs } from './testbed.mjs';
import { tcpsimReuse } from './metrics.mjs';
import { INFINITE_SSTHRESH, parseTrace } from './trace.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const tcpsim = join(root, 'build/release/tcpsim');

// Lines as a tracefs instance prints them (trace_clock mono): two connections' ACKs, one of them
// ours (cookie 0x2a, local port 58710, server port 47001), a retransmission and a state change.
const TRACE = `# tracer: nop
#
           delay-20389   [000] ..s2.   835.261205: tcp_probe: family=AF_INET src=10.77.1.2:58710 dest=10.77.2.2:47001 mark=0x0 data_len=0 snd_nxt=0xfffffa00 snd_una=0xfffff000 snd_cwnd=10 ssthresh=2147483647 snd_wnd=64240 srtt=20150 rcv_wnd=65536 sock_cookie=2a skbaddr=00000000e13b766d skaddr=000000004c926f34
           delay-20389   [000] ..s2.   835.261300: tcp_probe: family=AF_INET src=10.77.1.2:40000 dest=10.77.2.2:47001 mark=0x0 data_len=0 snd_nxt=0x10 snd_una=0x1 snd_cwnd=99 ssthresh=2147483647 snd_wnd=64240 srtt=20150 rcv_wnd=65536 sock_cookie=2b skbaddr=00000000e13b766d skaddr=000000004c926f35
           delay-20389   [001] ..s2.   835.262429: tcp_probe: family=AF_INET src=10.77.1.2:58710 dest=10.77.2.2:47001 mark=0x0 data_len=0 snd_nxt=0x00000a00 snd_una=0x000005b4 snd_cwnd=12 ssthresh=8 snd_wnd=67584 srtt=20143 rcv_wnd=65536 sock_cookie=2a skbaddr=00000000e13b766d skaddr=000000004c926f34
          <idle>-0       [001] ..s2.   835.262500: tcp_retransmit_skb: skbaddr=0000000024fa3c5b skaddr=000000004c926f34 family=AF_INET sport=58710 dport=47001 saddr=10.77.1.2 daddr=10.77.2.2 saddrv6=::ffff:10.77.1.2 daddrv6=::ffff:10.77.2.2 state=TCP_ESTABLISHED err=0
          <idle>-0       [001] ..s2.   835.262400: tcp_cong_state_set: family=AF_INET sport=58710 dport=47001 saddr=10.77.1.2 daddr=10.77.2.2 saddrv6=::ffff:10.77.1.2 daddrv6=::ffff:10.77.2.2 cong_state=3
`;

test('the trace: one connection\'s ACKs by cookie, its retransmissions and states by ports, sequence numbers modulo 2^32', () => {
  const t = parseTrace(TRACE, { cookie: 42, localPort: 58710, port: 47001 });
  assert.deepEqual(t.probes.tNs, [835261205000, 835262429000]);
  assert.deepEqual(t.probes.cwnd, [10, 12]);
  assert.deepEqual(t.probes.ssthresh, [INFINITE_SSTHRESH, 8]);
  // snd_una went from 0xfffff000 past the wrap to 0x5b4: 0x1000 + 0x5b4 bytes acknowledged.
  assert.deepEqual(t.probes.ackedBytes, [0, 0x1000 + 0x5b4]);
  assert.deepEqual(t.probes.sentBytes, [0xa00, 0x1000 + 0xa00]);
  assert.deepEqual(t.retransmits, [835262500000]);
  assert.deepEqual(t.states, [{ tNs: 835262400000, state: 3 }]);
});

test('the window at the end of slow start: the peak while ssthresh was infinite, null without an end', () => {
  assert.equal(slowStartExit([10, 20, 40, 35, 30], [false, false, false, true, true]), 40);
  assert.equal(slowStartExit([10, 20, 40], [false, false, false]), null);
  assert.equal(slowStartExit([10, 20], [true, true]), null);
});

test('a run\'s figures: times from connect(), goodput of a timed transfer up to its deadline', () => {
  const receiver = { acceptedNs: 1_010_000_000, lastByteNs: 3_000_000_000, bytes: 500, progressBytesPerMs: [10, 20, 30, 40] };
  // By 1.0125 s the receiver had read what it had by 1.012 s: the second millisecond's 20 bytes.
  assert.equal(bytesBy(receiver, 1_012_500_000), 20);
  assert.equal(bytesBy(receiver, 1_000_000_000), 0);
  assert.equal(bytesBy(receiver, 2_000_000_000), 500);
  const run = {
    senders: [{ startNs: 1_000_000_000, info: { totalRetrans: 3, minRtt: 21300, rwndLimitedUs: 0, sndbufLimitedUs: 0 } }],
    receivers: [{ ...receiver, bytes: 100_000, lastByteNs: 1_250_000_000 }],
    trace: [{ probes: { tNs: [1_040_000_000, 1_050_000_000], cwnd: [10, 11], ssthresh: [INFINITE_SSTHRESH, 7] }, retransmits: [1_100_000_000], states: [] }],
  };
  const m = kernelMetrics(run, { bytes: 100_000 });
  assert.equal(m.completionS, 0.25);
  assert.equal(m.goodputBps, 3.2e6);
  assert.equal(m.retransmissions, 3);
  assert.equal(m.firstRetransmitS, 0.1);
  assert.equal(m.ssExitCwnd, 10);
  assert.equal(m.minRttMs, 21.3);
  assert.deepEqual(m.window, { tS: [0.04, 0.05], cwnd: [10, 11] });
  assert.throws(() => kernelMetrics(run, { bytes: 100_001 }), /read 100000 of 100001 bytes/);
});

test('tcpsim\'s first retransmission from trace.csv', () => {
  const csv = 'time_ns,event,flow\n5,send,0\n7,retransmit,0\n9,retransmit,0\n';
  assert.equal(firstEventS(csv, 'retransmit'), 7e-9);
  assert.equal(firstEventS(csv, 'drop'), null);
});

test('the kernel\'s spread and the targets against its median', () => {
  assert.deepEqual(spread([3, 1, 2]), { min: 1, median: 2, max: 3, missing: 0 });
  assert.deepEqual(spread([4, null, 2]), { min: 2, median: 3, max: 4, missing: 1 });
  assert.equal(spread([null]).median, null);
  assert.equal(offPercent(105, 100), 5);
  assert.equal(offPercent(0, 0), 0);
  assert.equal(offPercent(1, 0), null);
  const runs = [1, 1.02, 1.04].map((completionS) => ({ completionS, goodputBps: 8e6 / completionS, retransmissions: 8, firstRetransmitS: null, ssExitCwnd: 40 }));
  const rows = caseRows(runs, { completionS: 1.06, goodputBps: 8e6 / 1.06, retransmissions: 10, firstRetransmitS: null, ssExitCwnd: 45 }, { bytes: 1e6 });
  const by = Object.fromEntries(rows.map((r) => [r.key, r]));
  assert.equal(by.completionS.within, true); // +3.9 % of 1.02
  assert.equal(by.goodputBps.target, null); // a sized transfer is held to its completion time
  assert.equal(by.retransmissions.within, true); // +25 %
  assert.equal(by.ssExitCwnd.within, false); // +12.5 %
  assert.equal(by.firstRetransmitS.within, null); // no target
  // A bulk transfer has no completion time and holds goodput to 2 %.
  const bulk = caseRows([{ completionS: null, goodputBps: 9.5e6, retransmissions: 0, ssExitCwnd: null }], { completionS: null, goodputBps: 9.3e6, retransmissions: 0, ssExitCwnd: null }, { seconds: 20 });
  assert.deepEqual(bulk.map((r) => r.key), ['goodputBps', 'retransmissions', 'firstRetransmitS', 'ssExitCwnd']);
  assert.equal(bulk[0].within, false); // −2.1 %
  assert.equal(bulk[1].within, true); // 0 against 0
  assert.equal(bulk[3].within, true); // neither left slow start
});

test('the matrix: three paths, three controls, three transfers; patterns pick cases in the matrix\'s order', () => {
  assert.equal(cases().length, 27);
  assert.deepEqual(cases('4g-bbr-*').map((c) => c.id), ['4g-bbr-100kb', '4g-bbr-1mb', '4g-bbr-20s']);
  assert.deepEqual(cases('*-cubic-1mb,geo-reno-20s').map((c) => c.id), ['10m-20ms-cubic-1mb', '4g-cubic-1mb', 'geo-reno-20s', 'geo-cubic-1mb']);
  assert.throws(() => cases('5g-*'), /no case matches "5g-\*"/);
  // One BDP of 10 Mb/s over 20 ms in 1514-byte frames is 16.5 frames.
  assert.equal(bdpPackets(10, 0.02), 17);
  assert.equal(PATHS['10m-20ms'].queuePackets, 17);
});

test('the testbed\'s path and tcpsim\'s link describe the same path', () => {
  for (const c of cases()) {
    const s = tcpsimScenario(c);
    const p = testbedPath(c);
    assert.equal(s.topology.link.bandwidthMbps, p.rateMbps, c.id);
    assert.equal(s.topology.link.delayMs, p.delayMs, c.id);
    assert.equal(s.topology.link.queue.packets, p.queuePackets, c.id);
    assert.equal(s.topology.link.framingBytes, 14, c.id);
    assert.equal(s.tcp.mssBytes, p.mssBytes, c.id);
  }
  // The delay line adds the one transmission tbf does not hold a packet for: 1514 B at 10 Mb/s is
  // 1211.2 µs, a 54-byte ACK 43.2 µs.
  assert.deepEqual(delayLineUs({ rateMbps: 10, delayMs: 10, mssBytes: 1460 }), { forwardUs: 11211.2, reverseUs: 10043.2 });
  // tbf's bucket: one 1514-byte frame and 100 µs of tokens (125 B at 10 Mb/s, 625 B at 50 Mb/s),
  // so that a late wake-up is made up (sch_tbf.c tbf_dequeue() caps the tokens at the bucket).
  assert.equal(BUCKET_SLACK_US, 100);
  assert.equal(bucketBytes({ rateMbps: 10, mssBytes: 1460 }), 1514 + 125);
  assert.equal(bucketBytes({ rateMbps: 50, mssBytes: 1460 }), 1514 + 625);
  assert.equal(linuxTcpOptions('bbr').pacing, 'rate');
  assert.equal(linuxTcpOptions('cubic').pacing, 'off');
  assert.equal(linuxTcpOptions('reno').flavor, 'sack');
});

test('the linux profile runs Linux\'s rules, on the kernel\'s jiffies', () => {
  for (const algorithm of ['reno', 'cubic', 'bbr']) {
    const t = linuxTcpOptions(algorithm, { hz: 250 });
    assert.equal(t.rtoRules, 'linux', algorithm);
    assert.equal(t.ackRules, 'linux', algorithm);
    assert.equal(t.linuxHz, 250, algorithm);
    assert.equal(t.cwndValidation, false, algorithm); // the rules ask tcp_is_cwnd_limited() themselves
    assert.equal(t.pacingRules, 'linux', algorithm);
  }
  assert.deepEqual(linuxTcpOptions('reno').reno, { rules: 'linux' });
  assert.deepEqual(linuxTcpOptions('bbr').bbr, { rules: 'linux' });
  assert.deepEqual(linuxTcpOptions('cubic').cubic, { rules: 'linux' }); // tcp_cubic.c, not RFC 9438
  assert.equal(linuxTcpOptions('reno').linuxHz, DEFAULT_HZ);
  assert.equal(tcpsimScenario(cases('geo-bbr-20s')[0], { hz: 250 }).tcp.linuxHz, 250);
});

test('tcp_metrics: tcpsim\'s second connection starts with the RTO its summary reports', () => {
  const flow = (rtoS, ssthreshBytes = 2 ** 40) => ({ initial: { ssthreshBytes, ...(rtoS == null ? {} : { rtoS }) }, completionTimeS: 0.87, retransmissions: 2 });
  const first = { groups: [{ tcpMetrics: { rttUs: 36800, rttvarUs: 36800, ssthreshBytes: 0, cwndBytes: 16 * 1460 } }], flows: [flow(1)] };
  const r = tcpsimReuse({ flows: [flow(1), flow(0.236, 25 * 1460)] }, first);
  assert.equal(r.second.initialRtoMs, 236);
  assert.equal(r.second.initialSsthresh, 25);
  assert.equal(r.cached.cwnd, 16);
  assert.equal(tcpsimReuse({ flows: [flow(1), flow(null)] }, first).second.initialRtoMs, null);
});

test('tcpsim accepts every case\'s scenario', { skip: !existsSync(tcpsim) && 'build/release/tcpsim is not built' }, () => {
  for (const c of cases()) {
    const r = spawnSync(tcpsim, ['validate', '-'], { input: JSON.stringify(tcpsimScenario(c)), encoding: 'utf8' });
    assert.equal(r.status, 0, `${c.id}: ${r.stderr}`);
  }
});
