// senderRows (src/data/series/windows.ts): of a flow's rows from both endpoints (the TCP series'
// `endpoint` column, sim-core/trace/columns.json: 0 the initiator, 1 the responder), the rows of the
// endpoint with the larger peak in flight, so that a flow's window chart shows its data sender and
// not the side that only acknowledges.
import { describe, expect, it } from 'vitest';
import { closedWindows, flowWindows, senderRows } from '../src/data/series';
import { fakeResult } from './fixtures';

const INITIATOR = 0;
const RESPONDER = 1;

describe('senderRows', () => {
  it('keeps the initiator’s rows when the initiator sends the data (an upload, a bulk transfer)', () => {
    // Interleaved as the recorder writes them: the responder only acknowledges (nothing in flight).
    const endpoint = [INITIATOR, RESPONDER, INITIATOR, RESPONDER, INITIATOR];
    const inFlight = [1000, 0, 3000, 0, 2000];
    const rows = Int32Array.from([0, 1, 2, 3, 4]);
    expect(Array.from(senderRows(endpoint, inFlight, rows))).toEqual([0, 2, 4]);
  });

  it('keeps the responder’s rows when the responder sends the data (an HTTP response)', () => {
    // A small request from the initiator (one segment in flight), then a large response.
    const endpoint = [INITIATOR, INITIATOR, RESPONDER, RESPONDER, RESPONDER, INITIATOR];
    const inFlight = [300, 0, 1460, 5840, 2920, 0];
    const rows = Int32Array.from([0, 1, 2, 3, 4, 5]);
    expect(Array.from(senderRows(endpoint, inFlight, rows))).toEqual([2, 3, 4]);
  });

  it('looks only at the flow’s own rows', () => {
    // Rows 1 and 3 belong to another flow whose responder has far more in flight.
    const endpoint = [INITIATOR, RESPONDER, RESPONDER, RESPONDER, INITIATOR];
    const inFlight = [4000, 90000, 100, 90000, 0];
    expect(Array.from(senderRows(endpoint, inFlight, Int32Array.from([0, 2, 4])))).toEqual([0, 4]);
  });

  it('keeps every row of results stored before the endpoint column existed', () => {
    const rows = Int32Array.from([0, 1, 2]);
    expect(senderRows(undefined, [0, 5, 0], rows)).toBe(rows);
  });

  it('gives a flow’s window chart the responder’s window when the responder sends', () => {
    // flowWindows over a result whose flow 0 has both endpoints' rows: a request (initiator, 100
    // bytes in flight) and a response (responder, up to 4000 bytes in flight).
    const r = fakeResult();
    const tcp = r.series!.tcp as unknown as Record<string, ArrayLike<number>>;
    const n = tcp.timeNs.length;
    const endpoint = new Uint8Array(n);
    const flow = tcp.flow as Int32Array;
    const inFlight = Float64Array.from(tcp.inFlightBytes);
    const cwnd = Float64Array.from(tcp.cwndBytes);
    // fakeResult's flow 0 has rows 0, 1 and 3: make rows 1 and 3 the responder's, with more in flight.
    expect(Array.from(flow)).toEqual([0, 0, 1, 0, 1]);
    endpoint[1] = RESPONDER;
    endpoint[3] = RESPONDER;
    inFlight[0] = 100;
    inFlight[1] = 2000;
    inFlight[3] = 4000;
    cwnd[1] = 4380;
    cwnd[3] = 8760;
    Object.assign(tcp, { endpoint, inFlightBytes: inFlight, cwndBytes: cwnd });
    const [a, b] = flowWindows(r);
    expect(Array.from(a.t)).toEqual([0.01, 0.02]);
    expect(Array.from(a.cwnd)).toEqual([4380, 8760]);
    expect(Array.from(a.inFlight)).toEqual([2000, 4000]);
    // Flow 1 has only initiator rows: all kept.
    expect(Array.from(b.t)).toEqual([0.012, 0.031]);
  });
});

describe('flowWindows’ columns', () => {
  it('are the plotted arrays where plotted as recorded, and one array of zeros for what the run left at 0', () => {
    const r = fakeResult();
    const [a] = flowWindows(r);
    expect(a.columns.cwndBytes).toBe(a.cwnd);
    expect(a.columns.inFlightBytes).toBe(a.inFlight);
    // fakeResult leaves CUBIC's and BBR's columns at 0 in every row: shared, and zeros.
    expect(a.columns.wMaxBytes).toBe(a.columns.btlBwBps);
    expect(Array.from(a.columns.wMaxBytes)).toEqual([0, 0, 0]);
    // A column recorded with values gets its own array.
    expect(Array.from(a.columns.rttvarNs)).toEqual([0, 5e6, 5e6]);
    // closedWindows cuts a shared array once, and every column still ends where the flow ended.
    const [ca] = closedWindows([a], r);
    expect(ca.columns.cwndBytes).toBe(ca.cwnd);
    expect(ca.columns.wMaxBytes).toBe(ca.columns.btlBwBps);
    expect(Array.from(ca.columns.wMaxBytes)).toEqual([0, 0, 0, NaN]);
    expect(Array.from(ca.columns.rttvarNs)).toEqual([0, 5e6, 5e6, NaN]);
  });
});
