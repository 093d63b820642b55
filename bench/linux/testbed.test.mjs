// The Linux testbed's short check (a few seconds): the namespaces come up, the round trip the
// kernel measures is the path's within a generous bound (the delay line holds each packet for its
// delay, never less), one short transfer arrives whole with its ACKs traced, and nothing is left
// behind. Skipped, with the reason, where namespaces are not allowed (not root, no /dev/net/tun).
// The full matrix is a bench: npm run calibrate:linux.
import assert from 'node:assert/strict';
import test from 'node:test';

import { Testbed, buildPrograms, cleanupLeftovers, delayLineUs, remnants, unavailableReason } from './testbed.mjs';

const reason = unavailableReason();

// Beyond the path's own round trip, what a loaded machine may add to the smallest RTT sample of a
// transfer before the check calls the delay line broken (the delay line itself is late by tens of
// microseconds at its 99th percentile; a wake-up on a busy kernel can take milliseconds).
const RTT_BOUND_MS = 2;

test('the Linux testbed: up, the path\'s RTT within its bound, one transfer, torn down', { skip: reason ?? false, timeout: 60000 }, async () => {
  cleanupLeftovers();
  const path = { rateMbps: 10, delayMs: 5, queuePackets: 20, mssBytes: 1460 };
  const testbed = new Testbed({ programs: buildPrograms() });
  let run;
  let accuracy;
  try {
    await testbed.up(path);
    run = await testbed.transfer({ cc: 'cubic', bytes: 100_000 });
    accuracy = await testbed.delayReport();
  } finally {
    await testbed.down();
  }
  assert.deepEqual(remnants(testbed.name), [], 'everything the testbed made is gone');

  const [sender] = run.senders;
  const [receiver] = run.receivers;
  assert.equal(receiver.bytes, 100_000);
  assert.equal(sender.info.sndMss, 1460, 'MSS 1460: a 1500-byte MTU and no TCP timestamps');
  assert.ok(receiver.lastByteNs > sender.startNs);
  // The path's round trip: both one-way delays and each packet's transmission at 10 Mb/s, which the
  // delay line never shortens. The smallest sample is the handshake's (SYN and SYN-ACK, tens of
  // bytes), so the bound runs from the propagation alone to a full segment's round trip and more.
  const { forwardUs, reverseUs } = delayLineUs(path);
  const propagationMs = 2 * path.delayMs;
  const fullSegmentRttMs = (forwardUs + reverseUs) / 1000;
  const minRttMs = sender.info.minRtt / 1000;
  assert.ok(minRttMs >= propagationMs, `min RTT ${minRttMs} ms is below the path's propagation delay, ${propagationMs} ms`);
  assert.ok(minRttMs <= fullSegmentRttMs + RTT_BOUND_MS, `min RTT ${minRttMs} ms is more than ${RTT_BOUND_MS} ms above a full segment's round trip, ${fullSegmentRttMs} ms`);
  // The delay line forwarded the transfer's packets both ways.
  assert.ok(accuracy.forwarded[0] >= 69 && accuracy.forwarded[1] > 0, JSON.stringify(accuracy));
  // tcp_probe saw the sender's ACKs, starting from the initial window.
  const [trace] = run.trace;
  assert.ok(trace.probes.cwnd.length > 10, `${trace.probes.cwnd.length} ACKs traced`);
  assert.equal(trace.probes.cwnd[0], 10);
  console.log(
    `# testbed: min RTT ${minRttMs.toFixed(3)} ms (propagation ${propagationMs} ms, a full segment's round trip ${fullSegmentRttMs.toFixed(3)} ms); delay line late p50 ${accuracy.lateUs.p50} µs,` +
      ` p99 ${accuracy.lateUs.p99} µs, max ${accuracy.lateUs.max.toFixed(0)} µs; 100 KB in ${((receiver.lastByteNs - sender.startNs) / 1e9).toFixed(3)} s`,
  );
});
