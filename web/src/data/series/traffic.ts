// What the network and the trace show per link and per connection: queue occupancy with drops,
// goodput and throughput in bins, and RTT samples as tcptrace takes them.
import type { SimulationResult } from '@tcb-lab/sim';
import { NS, pick, rowsByKey } from '../columns';
import { runAll, type Slices } from '../slices';
import type { TimeSequence } from '../timeseq';

export interface QueueLine {
  link: number;
  name: string;
  t: Float64Array;
  packets: Float64Array;
  /** Times of the packets this link direction dropped (queue full) or lost, from the trace. */
  dropT: Float64Array;
}

/** Queue occupancy per link direction that ever queued or dropped, in packets. */
export function queueLines(result: Pick<SimulationResult, 'series' | 'links' | 'trace'>): QueueLine[] {
  return runAll(queueLinesSlices(result));
}

/** Trace rows per slice of queueLinesSlices' scan for drops. */
const ROWS_PER_SLICE = 1 << 18;

/** queueLines in slices (data/slices.ts): it yields after each block of trace rows and each link. */
export function* queueLinesSlices(result: Pick<SimulationResult, 'series' | 'links' | 'trace'>): Slices<QueueLine[]> {
  const q = result.series?.queue;
  if (!q) return [];
  const rows = rowsByKey(q.link, result.links.length);
  const dropTimes: number[][] = result.links.map(() => []);
  const tr = result.trace;
  if (tr) {
    const drop = tr.eventNames.indexOf('drop');
    const loss = tr.eventNames.indexOf('loss');
    const n = tr.event.length;
    for (let from = 0; from < n; from += ROWS_PER_SLICE) {
      for (let i = from, to = Math.min(n, from + ROWS_PER_SLICE); i < to; i++) {
        const e = tr.event[i];
        if ((e === drop || e === loss) && tr.link[i] >= 0 && tr.link[i] < dropTimes.length) dropTimes[tr.link[i]].push(tr.timeNs[i] / NS);
      }
      yield;
    }
  }
  const out: QueueLine[] = [];
  for (let link = 0; link < rows.length; link++) {
    const r = rows[link];
    const packets = pick(q.packets, r);
    if (!packets.some((p) => p > 0) && dropTimes[link].length === 0) continue;
    out.push({ link, name: result.links[link], t: pick(q.timeNs, r, NS), packets, dropT: Float64Array.from(dropTimes[link]) });
    yield;
  }
  return out;
}

export interface RateLine {
  conn: number;
  name: string;
  /** Bin centres (s). */
  t: Float64Array;
  throughputBps: Float64Array;
  goodputBps: Float64Array;
}

/**
 * Throughput (every data byte sent, retransmissions included) and goodput (bytes newly
 * acknowledged) per connection, in bits per second over bins of `binS` seconds.
 */
export function rates(ts: TimeSequence, binS: number): RateLine[] {
  const bins = Math.max(1, Math.ceil(ts.tMax / binS));
  return ts.connections.map((c, k) => {
    const sent = new Float64Array(bins);
    const good = new Float64Array(bins);
    for (let i = 0; i < ts.segments.t.length; i++) {
      if (ts.segments.conn[i] !== k) continue;
      sent[Math.min(bins - 1, Math.floor(ts.segments.t[i] / binS))] += ts.segments.hi[i] - ts.segments.lo[i];
    }
    const a = ts.acks[k];
    let acked = a.y.length > 0 ? a.y[0] : 0;
    for (let i = 0; i < a.t.length; i++) {
      if (a.y[i] > acked) {
        good[Math.min(bins - 1, Math.floor(a.t[i] / binS))] += a.y[i] - acked;
        acked = a.y[i];
      }
    }
    const t = new Float64Array(bins);
    for (let b = 0; b < bins; b++) {
      t[b] = (b + 0.5) * binS;
      sent[b] = (sent[b] * 8) / binS;
      good[b] = (good[b] * 8) / binS;
    }
    return { conn: k, name: c.name, t, throughputBps: sent, goodputBps: good };
  });
}

/** A bin width giving about `target` bins over the run (1-2-5 steps). */
export function niceBin(tMax: number, target = 100): number {
  const raw = Math.max(tMax, 1e-6) / target;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

export interface RttSamples {
  conn: number;
  name: string;
  t: Float64Array;
  rttS: Float64Array;
}

/**
 * RTT samples per connection as tcptrace takes them: an ACK that acknowledges exactly the end of a
 * segment sent once gives ACK time − send time; segments sent again give none (Karn).
 */
export function rttSamples(ts: TimeSequence): RttSamples[] {
  return ts.connections.map((c, k) => {
    const sentAt = new Map<number, number>(); // segment end → send time; NaN once retransmitted
    for (let i = 0; i < ts.segments.t.length; i++) {
      if (ts.segments.conn[i] !== k) continue;
      const end = ts.segments.hi[i];
      if (ts.segments.retx[i] || sentAt.has(end)) sentAt.set(end, NaN);
      else sentAt.set(end, ts.segments.t[i]);
    }
    const t: number[] = [];
    const rtt: number[] = [];
    const a = ts.acks[k];
    let last = -1;
    for (let i = 0; i < a.t.length; i++) {
      const ack = a.y[i];
      if (ack === last) continue;
      last = ack;
      const sent = sentAt.get(ack);
      if (sent !== undefined && !Number.isNaN(sent)) {
        t.push(a.t[i]);
        rtt.push(a.t[i] - sent);
        sentAt.delete(ack);
      }
    }
    return { conn: k, name: c.name, t: Float64Array.from(t), rttS: Float64Array.from(rtt) };
  });
}
