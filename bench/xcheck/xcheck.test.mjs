// The fidelity comparison's own logic, without ns-3: each row's two generated runs describe the
// same network and TCP, tcpsim accepts the rows it can run (and refuses the others with its
// validation error), and the tables and overlays compute what they print.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

import { ALGORITHMS, SCENARIOS, bdpPackets, ns3Defaults, ns3RowId, ns3Spec, rows, tcpsimScenario } from './matrix.mjs';
import { diffPercent, formatDiff, formatTable, metricRows, withinTolerance } from './report.mjs';
import { niceTicks, stepPoints, thin } from './svg.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const tcpsim = join(root, 'build/release/tcpsim');

test('the matrix is every scenario with every algorithm, and --only/--scenario select from it', () => {
  assert.equal(rows().length, Object.keys(SCENARIOS).length * Object.keys(ALGORITHMS).length);
  assert.deepEqual(
    rows({ scenarios: ['short-1mb'], algorithms: ['cubic', 'prr'] }).map((r) => r.id),
    ['short-1mb-cubic', 'short-1mb-prr'],
  );
  assert.throws(() => rows({ algorithms: ['vegas'] }), /unknown algorithm "vegas"/);
});

test('a buffer of one BDP: 10 Mb/s over a 44 ms round trip in 1500-byte packets is 37 packets', () => {
  assert.equal(bdpPackets(10, 0.044, 1500), 37);
  assert.equal(SCENARIOS['long-60s'].bottleneck.queuePackets, 37);
});

test('each row generates the same network and TCP for tcpsim and for ns-3', () => {
  for (const row of rows()) {
    const ours = tcpsimScenario(row);
    const theirs = ns3Spec(row);
    const defaults = Object.fromEntries(ns3Defaults(row));
    const t = ours.tcp;
    assert.equal(theirs.pairs, ours.topology.pairs, row.id);
    for (const side of ['bottleneck', 'access']) {
      const a = ours.topology[side];
      const b = theirs[side];
      assert.equal(b.rate, `${a.bandwidthMbps}Mbps`, `${row.id} ${side}`);
      assert.equal(b.delay, `${a.delayMs}ms`, `${row.id} ${side}`);
      assert.equal(b.queuePackets, a.queue.packets, `${row.id} ${side}`);
    }
    assert.deepEqual(
      theirs.flows,
      ours.traffic.map((f) => ({ startS: f.startS, bytes: f.bytes === 'unlimited' ? null : f.bytes })),
      row.id,
    );
    assert.equal(theirs.durationS, ours.durationS, row.id);
    assert.equal(defaults['ns3::TcpSocket::SegmentSize'], String(t.mssBytes), row.id);
    assert.equal(defaults['ns3::TcpSocket::InitialCwnd'], String(t.initialWindow), row.id);
    assert.equal(defaults['ns3::TcpSocket::RcvBufSize'], String(t.receiveWindowBytes), row.id);
    assert.equal(defaults['ns3::TcpSocket::DelAckCount'], t.delayedAck ? '2' : '1', row.id);
    assert.equal(defaults['ns3::TcpSocketBase::MinRto'], `${t.minRtoMs}ms`, row.id);
    assert.equal(defaults['ns3::TcpSocketBase::ClockGranularity'], `${t.rtoGranularityMs}ms`, row.id);
    assert.equal(defaults['ns3::TcpSocketBase::ReTxThreshold'], String(t.dupackThreshold), row.id);
    // SACK on exactly when tcpsim's flavor or recovery uses it.
    const sack = t.flavor === 'sack' || ['sack-rfc6675', 'prr'].includes(t.recovery);
    assert.equal(defaults['ns3::TcpSocketBase::Sack'], String(sack), row.id);
    assert.equal(defaults['ns3::TcpSocketState::EnablePacing'], String(t.pacing === 'rate'), row.id);
    const algo = ALGORITHMS[row.algorithm];
    assert.equal(theirs.socketType, { newreno: 'TcpNewReno', cubic: 'TcpCubic', bbr: 'TcpBbr' }[algo.congestion], row.id);
    assert.equal(theirs.recoveryType, algo.recovery === 'prr' ? 'TcpPrrRecovery' : 'TcpClassicRecovery', row.id);
  }
});

test('the NewReno and SACK rows use only the TCP options tcpsim has always had', () => {
  for (const row of rows({ algorithms: ['newreno', 'sack'] })) {
    const t = tcpsimScenario(row).tcp;
    for (const field of ['recovery', 'rack', 'pacing']) assert.equal(t[field], undefined, `${row.id}: ${field}`);
    assert.equal(t.flavor, row.algorithm);
  }
  // The other rows state every new field, so that a changed default cannot move them.
  for (const row of rows({ algorithms: ['cubic', 'cubic-linux', 'bbr', 'prr'] })) {
    const t = tcpsimScenario(row).tcp;
    assert.deepEqual([typeof t.recovery, t.rack, typeof t.pacing], ['string', false, 'string'], row.id);
  }
});

test('the two CUBIC rows differ only in tcp.cubic.rules, and share one ns-3 run of TcpCubic', () => {
  for (const scenario of Object.keys(SCENARIOS)) {
    const [rfc, linux] = rows({ scenarios: [scenario], algorithms: ['cubic', 'cubic-linux'] });
    const ours = [rfc, linux].map((row) => tcpsimScenario(row));
    assert.deepEqual([ours[0].tcp.cubic, ours[1].tcp.cubic], [{ rules: 'rfc9438' }, { rules: 'linux' }], scenario);
    const strip = (doc) => ({ ...doc, name: '', description: '', tcp: { ...doc.tcp, cubic: null } });
    assert.deepEqual(strip(ours[1]), strip(ours[0]), scenario);
    assert.equal(ns3RowId(linux), rfc.id);
    assert.deepEqual(ns3Spec(linux), ns3Spec(rfc), scenario);
  }
});

test('tcpsim accepts every NewReno and SACK row, and accepts or refuses (exit 2, a JSON path) every other', { skip: !existsSync(tcpsim) && 'build/release/tcpsim is not built' }, () => {
  for (const row of rows()) {
    const r = spawnSync(tcpsim, ['validate', '-'], { input: JSON.stringify(tcpsimScenario(row)), encoding: 'utf8' });
    if (['newreno', 'sack'].includes(row.algorithm)) {
      assert.equal(r.status, 0, `${row.id}: ${r.stderr}`);
    } else {
      assert.ok(r.status === 0 || (r.status === 2 && /^error: \$/.test(r.stderr)), `${row.id}: exit ${r.status} ${r.stderr}`);
    }
  }
});

test('differences are (tcpsim - ns-3) / ns-3, and undefined against a zero', () => {
  assert.equal(diffPercent(105, 100), 5);
  assert.equal(diffPercent(0, 0), 0);
  assert.equal(diffPercent(3, 0), null);
  assert.equal(diffPercent(null, 2), null);
  assert.equal(formatDiff(-0.04), '−0.04 %');
  assert.equal(formatDiff(12.345), '+12.3 %');
  assert.equal(formatDiff(0), '0 %');
  assert.equal(formatDiff(null), '—');
});

test('metric rows: completion time only for flows with an end, a total for several flows, the tolerance', () => {
  const flow = (completionTimeS, goodputBps) => ({ completionTimeS, goodputBps, retransmissions: 1, timeouts: 0 });
  const theirs = { flows: [flow(null, 10e6), flow(null, 30e6)], drops: 4 };
  const ours = { flows: [flow(null, 10.2e6), flow(null, 29e6)], drops: 5 };
  const m = metricRows(ours, theirs);
  assert.deepEqual(
    m.map((r) => r.name),
    ['goodput flow0', 'goodput flow1', 'goodput, all flows', 'retransmissions', 'drops', 'timeouts'],
  );
  assert.equal(m[2].theirs, 40);
  assert.ok(Math.abs(m[2].diff - -2) < 1e-9);
  assert.equal(withinTolerance(m), true);
  assert.equal(withinTolerance(metricRows({ ...ours, flows: [flow(null, 12e6), flow(null, 30e6)] }, theirs)), false);
  // tcpsim refused the row: nothing to hold to the tolerance yet.
  assert.equal(withinTolerance(metricRows(null, theirs)), null);
  const single = metricRows({ flows: [flow(2, 1e5)], drops: 0 }, { flows: [flow(2.1, 1e5)], drops: 0 });
  assert.equal(single[0].name, 'completion time');
});

test('tables pad each column to its widest cell', () => {
  assert.equal(formatTable(['a', 'bb'], [['xyz', '1'], ['q', '22']]), 'a    bb\n---  --\nxyz   1\nq    22');
});

test('overlays: windows as steps, thinned per bucket to first, lowest, highest and last', () => {
  assert.deepEqual(stepPoints([1, 2], [10, 20], 3), [[1, 10], [2, 10], [2, 20], [3, 20]]);
  const points = Array.from({ length: 1000 }, (_, i) => [i / 1000, i === 500 ? 99 : i % 7]);
  const thinned = thin(points, 0, 1, 10);
  assert.ok(thinned.length <= 40);
  assert.deepEqual(thinned[0], points[0]);
  assert.deepEqual(thinned.at(-1), points.at(-1));
  assert.ok(thinned.some((p) => p[1] === 99));
  assert.deepEqual(niceTicks(0, 8, 4), [0, 2, 4, 6, 8]);
  assert.deepEqual(niceTicks(0, 0.35, 3), [0, 0.1, 0.2, 0.3]);
});
