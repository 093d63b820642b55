// A run's packet trace as a time–sequence graph in tcptrace/xplot conventions: per connection, the
// direction that carries its data; each segment a tick from seq to seq+len at its send time,
// retransmissions flagged, drops where the network discarded a data segment, the cumulative ACK
// and the receive window (ack + window) as step lines, SACK blocks at the time their ACK arrived,
// SYN and FIN labelled.
import type { SimulationResult } from '@tcb-lab/sim';
import { NS } from './columns';
import { runAll, type Slices } from './slices';

export interface Connection {
  /** Index into result.flows (the trace's flow column). */
  flow: number;
  name: string;
  /** 1 when the connection's initiator sends the data plotted, 0 when the responder does. */
  fromInitiator: number;
}

export interface StepLine {
  t: Float64Array;
  y: Float64Array;
}

export interface Segments {
  t: Float64Array;
  lo: Float64Array;
  hi: Float64Array;
  conn: Int32Array;
  retx: Uint8Array;
}

export interface TimeSequence {
  connections: Connection[];
  /** Data segments in time order. */
  segments: Segments;
  /** Data segments dropped in a queue or lost on a link. */
  drops: { t: Float64Array; seq: Float64Array; conn: Int32Array; link: Int32Array; loss: Uint8Array };
  /**
   * SACK blocks, as tcptrace draws them: per ACK that carried the option, a line at the ACK's
   * arrival over the block's bytes (lo to hi, the right edge being the byte after the block), in
   * time order. The trace keeps each ACK's first block (RFC 2018 §4: the one holding the segment
   * that triggered the ACK; the others repeat earlier blocks), so every range appears when it was
   * SACKed and as it grew. `retx` is always 0 (the shape of Segments, for the levels of detail).
   */
  sacks: Segments;
  /** Per connection: cumulative ACK and receive-window edge, as step lines. */
  acks: StepLine[];
  windows: StepLine[];
  /** SYN and FIN segments of the data direction. */
  labels: { t: number; seq: number; conn: number; text: 'SYN' | 'FIN' }[];
  tMax: number;
  seqMax: number;
}

const SYN = 0x02;
const FIN = 0x01;

/** Trace rows per slice of timeSequenceSlices (a few milliseconds of work). */
const ROWS_PER_SLICE = 1 << 16;

/** Builds the graph from a run at trace level 'full'; null without a packet trace. */
export function timeSequence(result: Pick<SimulationResult, 'flows' | 'trace' | 'summary'>): TimeSequence | null {
  return runAll(timeSequenceSlices(result));
}

/** timeSequence in slices (data/slices.ts): it yields after each block of trace rows. */
export function* timeSequenceSlices(result: Pick<SimulationResult, 'flows' | 'trace' | 'summary'>): Slices<TimeSequence | null> {
  const trace = result.trace;
  if (!trace) return null;
  const code = (name: string) => trace.eventNames.indexOf(name);
  const SEND = code('send');
  const RETX = code('retransmit');
  const ACK = code('ack');
  const DROP = code('drop');
  const LOSS = code('loss');
  const n = trace.timeNs.length;
  const flowCount = result.flows.length;
  const udp = new Uint8Array(flowCount);
  for (const f of result.summary.flows ?? []) if (f.protocol === 'udp' && f.id < flowCount) udp[f.id] = 1;

  // The data direction of each flow: the one that sent more payload.
  const bytes = [new Float64Array(flowCount), new Float64Array(flowCount)];
  for (let from = 0; from < n; from += ROWS_PER_SLICE) {
    for (let i = from, to = Math.min(n, from + ROWS_PER_SLICE); i < to; i++) {
      const e = trace.event[i];
      if ((e === SEND || e === RETX) && trace.payload[i] > 0) bytes[trace.fromInitiator[i]][trace.flow[i]] += trace.payload[i];
    }
    yield;
  }
  const connOf = new Int32Array(flowCount).fill(-1);
  const connections: Connection[] = [];
  for (let f = 0; f < flowCount; f++) {
    if (udp[f] || bytes[0][f] + bytes[1][f] === 0) continue;
    connOf[f] = connections.length;
    connections.push({ flow: f, name: result.flows[f], fromInitiator: bytes[1][f] >= bytes[0][f] ? 1 : 0 });
  }
  const dir = (f: number) => (connOf[f] >= 0 ? connections[connOf[f]].fromInitiator : -1);

  // Results recorded before the trace kept SACK blocks have no such columns: no SACK marks.
  const sackBlocks = trace.sackBlocks as Uint8Array | undefined;
  let segCount = 0;
  let dropCount = 0;
  let sackCount = 0;
  const ackCount = new Int32Array(connections.length);
  for (let from = 0; from < n; from += ROWS_PER_SLICE) {
    for (let i = from, to = Math.min(n, from + ROWS_PER_SLICE); i < to; i++) {
      const f = trace.flow[i];
      if (f < 0 || f >= flowCount || connOf[f] < 0) continue;
      const e = trace.event[i];
      const data = trace.fromInitiator[i] === dir(f);
      if ((e === SEND || e === RETX) && data && trace.payload[i] > 0) segCount++;
      else if ((e === DROP || e === LOSS) && data && trace.payload[i] > 0) dropCount++;
      else if (e === ACK && !data) {
        ackCount[connOf[f]]++;
        if (sackBlocks && sackBlocks[i] > 0) sackCount++;
      }
    }
    yield;
  }
  const segments = {
    t: new Float64Array(segCount),
    lo: new Float64Array(segCount),
    hi: new Float64Array(segCount),
    conn: new Int32Array(segCount),
    retx: new Uint8Array(segCount),
  };
  const drops = {
    t: new Float64Array(dropCount),
    seq: new Float64Array(dropCount),
    conn: new Int32Array(dropCount),
    link: new Int32Array(dropCount),
    loss: new Uint8Array(dropCount),
  };
  const sacks = {
    t: new Float64Array(sackCount),
    lo: new Float64Array(sackCount),
    hi: new Float64Array(sackCount),
    conn: new Int32Array(sackCount),
    retx: new Uint8Array(sackCount),
  };
  const acks = connections.map((_, c) => ({ t: new Float64Array(ackCount[c]), y: new Float64Array(ackCount[c]) }));
  const windows = connections.map((_, c) => ({ t: new Float64Array(ackCount[c]), y: new Float64Array(ackCount[c]) }));
  const labels: TimeSequence['labels'] = [];
  const ackFill = new Int32Array(connections.length);
  let s = 0;
  let d = 0;
  let sk = 0;
  let tMax = 0;
  let seqMax = 0;
  for (let from = 0; from < n; from += ROWS_PER_SLICE) {
    for (let i = from, to = Math.min(n, from + ROWS_PER_SLICE); i < to; i++) {
      const f = trace.flow[i];
      if (f < 0 || f >= flowCount || connOf[f] < 0) continue;
      const c = connOf[f];
      const e = trace.event[i];
      const t = trace.timeNs[i] / NS;
      const data = trace.fromInitiator[i] === dir(f);
      const seq = trace.seq[i];
      const len = trace.payload[i];
      if ((e === SEND || e === RETX) && data) {
        if (len > 0) {
          segments.t[s] = t;
          segments.lo[s] = seq;
          segments.hi[s] = seq + len;
          segments.conn[s] = c;
          segments.retx[s] = e === RETX ? 1 : 0;
          s++;
          if (seq + len > seqMax) seqMax = seq + len;
        }
        const flags = trace.flags[i];
        if (flags & SYN) labels.push({ t, seq, conn: c, text: 'SYN' });
        if (flags & FIN) labels.push({ t, seq: seq + len, conn: c, text: 'FIN' });
        if (t > tMax) tMax = t;
      } else if ((e === DROP || e === LOSS) && data && len > 0) {
        drops.t[d] = t;
        drops.seq[d] = seq;
        drops.conn[d] = c;
        drops.link[d] = trace.link[i];
        drops.loss[d] = e === LOSS ? 1 : 0;
        d++;
      } else if (e === ACK && !data) {
        const k = ackFill[c]++;
        acks[c].t[k] = t;
        acks[c].y[k] = trace.ack[i];
        windows[c].t[k] = t;
        windows[c].y[k] = trace.ack[i] + trace.window[i];
        if (sackBlocks && sackBlocks[i] > 0) {
          sacks.t[sk] = t;
          sacks.lo[sk] = trace.sackStart[i];
          sacks.hi[sk] = trace.sackEnd[i];
          sacks.conn[sk] = c;
          sk++;
        }
        if (t > tMax) tMax = t;
      }
    }
    yield;
  }
  return { connections, segments, drops, sacks, acks, windows, labels, tMax, seqMax };
}
