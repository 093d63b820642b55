import { describe, expect, it } from 'vitest';
import { timeSequence } from '../src/data/timeseq';
import { fakeResult } from './fixtures';

describe('timeSequence', () => {
  const ts = timeSequence(fakeResult())!;

  it('plots the data direction of each TCP flow and leaves UDP out', () => {
    expect(ts.connections.map((c) => [c.name, c.fromInitiator])).toEqual([
      ['a', 1],
      ['b', 0],
    ]);
  });

  it('turns each data segment into a tick from seq to seq+len, retransmissions flagged', () => {
    expect(Array.from(ts.segments.t)).toEqual([0.01, 0.01, 0.012, 0.021]);
    expect(Array.from(ts.segments.lo)).toEqual([1, 101, 1, 101]);
    expect(Array.from(ts.segments.hi)).toEqual([101, 201, 51, 201]);
    expect(Array.from(ts.segments.conn)).toEqual([0, 0, 1, 0]);
    expect(Array.from(ts.segments.retx)).toEqual([0, 0, 0, 1]);
    expect(ts.seqMax).toBe(201);
  });

  it('marks drops of data segments with their link', () => {
    expect(Array.from(ts.drops.t)).toEqual([0.011]);
    expect(Array.from(ts.drops.seq)).toEqual([101]);
    expect(Array.from(ts.drops.link)).toEqual([0]);
  });

  it('draws the ACK line and the window edge from the ACKs coming back', () => {
    expect(Array.from(ts.acks[0].y)).toEqual([1, 101, 201]);
    expect(Array.from(ts.windows[0].y)).toEqual([65536, 65636, 65736]);
    expect(Array.from(ts.acks[1].y)).toEqual([51]);
    expect(Array.from(ts.windows[1].y)).toEqual([1051]);
  });

  it('labels SYN and FIN', () => {
    expect(ts.labels).toEqual([
      { t: 0, seq: 0, conn: 0, text: 'SYN' },
      { t: 0.032, seq: 201, conn: 0, text: 'FIN' },
    ]);
  });

  it('is null without a packet trace', () => {
    expect(timeSequence({ ...fakeResult(), trace: undefined })).toBeNull();
  });
});
