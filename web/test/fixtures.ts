// Hand-made runs: two connections over one link, with a retransmission, a drop, SYN and FIN
// (fakeResult); one connection whose duplicate ACKs carry SACK blocks (sackRun).
import type { SimulationResult } from '@tcb-lab/sim';

const eventNames = ['send', 'retransmit', 'ack', 'drop', 'loss', 'receive'];
export const [SEND, RETX, ACK, DROP, LOSS] = [0, 1, 2, 3, 4];
const SYN = 0x02;
const FIN = 0x01;
const ACKF = 0x10;

// [timeMs, event, flow, link, seq, payload, ack, window, flags, fromInitiator]
type Row = [number, number, number, number, number, number, number, number, number, number];
const rows: Row[] = [
  [0, SEND, 0, -1, 0, 0, 0, 65535, SYN, 1], // SYN of flow 0 (data flows initiator → responder)
  [10, ACK, 0, -1, 0, 0, 1, 65535, SYN | ACKF, 0],
  [10, SEND, 0, -1, 1, 100, 1, 65535, ACKF, 1],
  [10, SEND, 0, -1, 101, 100, 1, 65535, ACKF, 1],
  [11, DROP, 0, 0, 101, 100, 1, 65535, ACKF, 1],
  [12, SEND, 1, -1, 1, 50, 1, 65535, ACKF, 0], // flow 1: the responder sends the data
  [12, SEND, 1, -1, 1, 0, 1, 65535, ACKF, 1], // a pure ACK from flow 1's initiator: not data
  [20, ACK, 0, -1, 1, 0, 101, 65535, ACKF, 0],
  [21, RETX, 0, -1, 101, 100, 1, 65535, ACKF, 1],
  [22, ACK, 1, -1, 1, 0, 51, 1000, ACKF, 1],
  [31, ACK, 0, -1, 1, 0, 201, 65535, ACKF, 0],
  [32, SEND, 0, -1, 201, 0, 1, 65535, FIN | ACKF, 1],
];

const col = (k: number) => rows.map((r) => r[k]);

export function fakeResult(): SimulationResult {
  return {
    summary: {
      flows: [
        { id: 0, protocol: 'tcp', endS: 0.032 },
        { id: 1, protocol: 'tcp', endS: null },
        { id: 2, protocol: 'udp', endS: null },
      ],
      groups: [{ id: 0, scheme: 'etcp', flows: [0, 1] }],
    } as unknown as SimulationResult['summary'],
    flows: ['a', 'b', 'udp'],
    links: ['path:server>client', 'path:client>server'],
    groups: ['etcp 10.0.0.2'],
    wallSeconds: 0,
    series: {
      tcp: {
        timeNs: Float64Array.from([0, 10e6, 12e6, 20e6, 31e6]),
        flow: Int32Array.from([0, 0, 1, 0, 1]),
        // Flow 0's initiator sends its data, flow 1's responder (as in the trace above).
        endpoint: Uint8Array.from([0, 0, 1, 0, 1]),
        cwndBytes: Float64Array.from([100, 200, 50, 300, 100]),
        ssthreshBytes: Float64Array.from([-1, -1, -1, 150, -1]),
        srttNs: Float64Array.from([0, 10e6, 0, 12e6, 10e6]),
        rttvarNs: Float64Array.from([0, 5e6, 0, 5e6, 5e6]),
        inFlightBytes: Float64Array.from([0, 200, 50, 100, 0]),
        pacingBps: Float64Array.from([0, 0, 0, 0, 8e5]),
        wMaxBytes: Float64Array.from([0, 0, 0, 0, 0]),
        cubicKNs: Float64Array.from([0, 0, 0, 0, 0]),
        cubicEpochNs: Float64Array.from([0, 0, 0, 0, 0]),
        crPhase: Uint8Array.from([0, 0, 0, 0, 0]),
        btlBwBps: Float64Array.from([0, 0, 0, 0, 0]),
        bbrMinRttNs: Float64Array.from([0, 0, 0, 0, 0]),
        bbrState: Uint8Array.from([0, 0, 0, 0, 0]),
        bbrPacingGainMilli: Int32Array.from([0, 0, 0, 0, 0]),
      },
      queue: {
        timeNs: Float64Array.from([10e6, 11e6, 15e6]),
        link: Int32Array.from([0, 0, 0]),
        packets: Int32Array.from([1, 2, 0]),
        bytes: Float64Array.from([140, 280, 0]),
      },
      group: {
        timeNs: Float64Array.from([0, 20e6]),
        group: Int32Array.from([0, 0]),
        cwndBytes: Float64Array.from([400, 600]),
        ssthreshBytes: Float64Array.from([-1, 300]),
        srttNs: Float64Array.from([0, 10e6]),
        rttvarNs: Float64Array.from([0, 5e6]),
        inFlightBytes: Float64Array.from([0, 100]),
        members: Int32Array.from([1, 2]),
      },
    },
    trace: {
      eventNames,
      timeNs: Float64Array.from(col(0), (ms) => ms * 1e6),
      event: Uint8Array.from(col(1)),
      flow: Int32Array.from(col(2)),
      link: Int32Array.from(col(3)),
      seq: Float64Array.from(col(4)),
      payload: Int32Array.from(col(5)),
      ack: Float64Array.from(col(6)),
      window: Float64Array.from(col(7)),
      flags: Uint8Array.from(col(8)),
      sackBlocks: new Uint8Array(rows.length),
      sackStart: new Float64Array(rows.length),
      sackEnd: new Float64Array(rows.length),
      fromInitiator: Uint8Array.from(col(9)),
      uid: Float64Array.from(rows.map((_, i) => i)),
    },
  };
}

// [timeMs, event, seq, payload, ack, fromInitiator, sackBlocks, sackStart, sackEnd] of one flow.
export type SackRow = [number, number, number, number, number, number, number, number, number];

/** A one-connection trace: 100-byte segments, the second lost, the third and fourth SACKed. */
export function sackRun(rows: SackRow[]): Pick<SimulationResult, 'flows' | 'trace' | 'summary'> {
  const col = (k: number) => rows.map((r) => r[k]);
  return {
    flows: ['f'],
    summary: { flows: [{ id: 0, protocol: 'tcp' }] } as unknown as SimulationResult['summary'],
    trace: {
      eventNames: ['send', 'retransmit', 'ack', 'drop', 'loss', 'receive'],
      timeNs: Float64Array.from(col(0), (ms) => ms * 1e6),
      event: Uint8Array.from(col(1)),
      flow: new Int32Array(rows.length),
      fromInitiator: Uint8Array.from(col(5)),
      link: Int32Array.from(rows, (r) => (r[1] === LOSS ? 0 : -1)),
      seq: Float64Array.from(col(2)),
      payload: Int32Array.from(col(3)),
      ack: Float64Array.from(col(4)),
      window: new Float64Array(rows.length).fill(1000),
      flags: new Uint8Array(rows.length).fill(0x10),
      sackBlocks: Uint8Array.from(col(6)),
      sackStart: Float64Array.from(col(7)),
      sackEnd: Float64Array.from(col(8)),
      uid: Float64Array.from(rows, (_, i) => i),
    },
  };
}
