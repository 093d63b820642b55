import { describe, expect, it } from 'vitest';
import { timeSequence } from '../src/data/timeseq';
import { ACK, fakeResult, LOSS, sackRun, SEND } from './fixtures';

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

  it('has no SACK marks when no ACK carried the option', () => {
    expect(ts.sacks.t.length).toBe(0);
  });

  it('is null without a packet trace', () => {
    expect(timeSequence({ ...fakeResult(), trace: undefined })).toBeNull();
  });
});

describe('timeSequence: SACK blocks', () => {
  const sack = timeSequence(
    sackRun([
      [0, SEND, 1, 100, 0, 1, 0, 0, 0],
      [0, SEND, 101, 100, 0, 1, 0, 0, 0],
      [1, LOSS, 101, 100, 0, 1, 0, 0, 0],
      [0, SEND, 201, 100, 0, 1, 0, 0, 0],
      [0, SEND, 301, 100, 0, 1, 0, 0, 0],
      [10, ACK, 1, 0, 101, 0, 0, 0, 0],
      // Duplicate ACKs: the block holding the segment that triggered each (RFC 2018 §4), growing.
      [11, ACK, 1, 0, 101, 0, 1, 201, 301],
      [12, ACK, 1, 0, 101, 0, 1, 201, 401],
      [20, ACK, 1, 0, 401, 0, 0, 0, 0],
    ]),
  )!;

  it('puts each ACK’s first SACK block at the ACK’s time, over the SACKed bytes', () => {
    expect(Array.from(sack.sacks.t)).toEqual([0.011, 0.012]);
    expect(Array.from(sack.sacks.lo)).toEqual([201, 201]);
    expect(Array.from(sack.sacks.hi)).toEqual([301, 401]);
    expect(Array.from(sack.sacks.conn)).toEqual([0, 0]);
    expect(Array.from(sack.sacks.retx)).toEqual([0, 0]);
  });

  it('keeps the ACK line as the cumulative ACK, SACKs or not', () => {
    expect(Array.from(sack.acks[0].y)).toEqual([101, 101, 101, 401]);
  });

  it('reads a trace without the SACK columns as one without SACK blocks', () => {
    const run = sackRun([
      [0, SEND, 1, 100, 0, 1, 0, 0, 0],
      [10, ACK, 1, 0, 101, 0, 1, 201, 301],
    ]);
    const old = { ...run.trace! } as Partial<NonNullable<typeof run.trace>>;
    delete old.sackBlocks;
    delete old.sackStart;
    delete old.sackEnd;
    expect(timeSequence({ ...run, trace: old as NonNullable<typeof run.trace> })!.sacks.t.length).toBe(0);
  });
});
