// The time–sequence graph's marks (tcptrace/xplot): per connection its segments (ticks over their
// byte ranges), ACK line and receive-window edge; SACK blocks at their ACKs; retransmissions with
// an "R"; drops as crosses; SYN and FIN. The scene holds the graph and its levels of detail, built
// once where the marks are drawn (in the plot worker, or on the main thread for export).
import { affineOf, decimateMarks, decimateTicks, type TickColumns } from '../../data/decimate';
import { pickLevel, stepPyramid, tickPyramid, type StepLevel, type TickLevel } from '../../data/lod';
import { alertColor, colorOf } from '../../data/palette';
import type { TimeSequence } from '../../data/timeseq';
import type { Painter } from '../painter';
import { drawStepLevels, dropGlyph, emphasis, lighten, sackGlyph, segmentGlyph, type Frame, type Scale } from './primitives';

/** The time–sequence graph draws every receive-window edge up to this many connections shown. */
export const WINDOW_EDGES_UP_TO = 8;

export interface TimeSequenceMarks {
  kind: 'time-sequence';
  ts: TimeSequence;
}

export interface TimeSequenceStyle {
  /** Per connection index: drawn or not. */
  visible: Uint8Array;
  /** The highlighted flow, or null. */
  hovered: number | null;
}

export interface TimeSequenceScene {
  ts: TimeSequence;
  levels: TickLevel[];
  sackLevels: TickLevel[];
  ackLevels: StepLevel[][];
  windowLevels: StepLevel[][];
  // Reused between frames.
  ticks?: TickColumns;
  sackTicks?: TickColumns;
  order?: Int32Array;
  sackOrder?: Int32Array;
}

export function timeSequenceScene(ts: TimeSequence): TimeSequenceScene {
  const n = ts.connections.length;
  return {
    ts,
    levels: tickPyramid(ts.segments, n, ts.tMax),
    sackLevels: tickPyramid(ts.sacks, n, ts.tMax),
    ackLevels: ts.acks.map((a) => stepPyramid(a.t, a.y, ts.tMax)),
    windowLevels: ts.windows.map((a) => stepPyramid(a.t, a.y, ts.tMax)),
  };
}

export function drawTimeSequence(p: Painter, scene: TimeSequenceScene, style: TimeSequenceStyle, sx: Scale, sy: Scale, _frame: Frame) {
  const { ts } = scene;
  const { visible, hovered } = style;
  const n = ts.connections.length;
  const hoveredConn = hovered === null ? -1 : ts.connections.findIndex((c) => c.flow === hovered);
  let shownCount = 0;
  for (let c = 0; c < n; c++) shownCount += visible[c];
  const [t0, t1] = sx.domain();
  const secondsPerPixel = (t1 - t0) / Math.max(1, sx.range()[1]);
  const level = pickLevel(scene.levels, secondsPerPixel);
  const d = decimateTicks(level.seg, n, t0, t1, affineOf(sx), scene.ticks);
  scene.ticks = d;
  const sackLevel = pickLevel(scene.sackLevels, secondsPerPixel);
  const sk = decimateTicks(sackLevel.seg, n, t0, t1, affineOf(sx), scene.sackTicks);
  scene.sackTicks = sk;
  // Per connection: segments in xplot's glyph; the hovered connection last, the others faded.
  // The ticks are put in connection order by a counting sort (no arrays per frame).
  const start = new Int32Array(n + 1);
  let retx = 0;
  for (let k = 0; k < d.count; k++) {
    if (!visible[d.conn[k]]) continue;
    if (d.retx[k]) retx++;
    else start[d.conn[k] + 1]++;
  }
  for (let c = 0; c < n; c++) start[c + 1] += start[c];
  if (!scene.order || scene.order.length < d.count) scene.order = new Int32Array(d.count);
  const byConn = scene.order;
  const fill = start.slice(0, n);
  for (let k = 0; k < d.count; k++) if (visible[d.conn[k]] && !d.retx[k]) byConn[fill[d.conn[k]]++] = k;
  // The SACK marks likewise.
  const sackStart = new Int32Array(n + 1);
  for (let k = 0; k < sk.count; k++) if (visible[sk.conn[k]]) sackStart[sk.conn[k] + 1]++;
  for (let c = 0; c < n; c++) sackStart[c + 1] += sackStart[c];
  if (!scene.sackOrder || scene.sackOrder.length < sk.count) scene.sackOrder = new Int32Array(sk.count);
  const sackByConn = scene.sackOrder;
  const sackFill = sackStart.slice(0, n);
  for (let k = 0; k < sk.count; k++) if (visible[sk.conn[k]]) sackByConn[sackFill[sk.conn[k]]++] = k;
  const order = hoveredConn >= 0 ? [...Array.from({ length: n }, (_, c) => c).filter((c) => c !== hoveredConn), hoveredConn] : Array.from({ length: n }, (_, c) => c);
  for (const c of order) {
    if (!visible[c]) continue;
    const e = emphasis(hovered, ts.connections[c].flow);
    const color = colorOf(ts.connections[c].flow);
    p.globalAlpha = e.alpha;
    p.strokeStyle = color;
    p.lineWidth = e.width;
    if (start[c + 1] > start[c]) {
      p.beginPath();
      for (let j = start[c]; j < start[c + 1]; j++) {
        const k = byConn[j];
        segmentGlyph(p, d.x[k] + 0.5, sy(d.lo[k]), sy(d.hi[k]));
      }
      p.stroke();
    }
    // SACK blocks at their ACKs' times, in the connection's colour (thin: they repeat ranges the
    // segments already show; what they add is when the receiver held them).
    if (sackStart[c + 1] > sackStart[c]) {
      p.lineWidth = 1;
      p.beginPath();
      for (let j = sackStart[c]; j < sackStart[c + 1]; j++) {
        const k = sackByConn[j];
        sackGlyph(p, sk.x[k] + 0.5, sy(sk.lo[k]), sy(sk.hi[k]));
      }
      p.stroke();
    }
    // The ACK line (solid) and the receive-window edge (thin, light) in the connection's colour;
    // no dashes, which cost the most to rasterise on a software canvas. With many connections
    // shown, only the highlighted one's window edge: dozens of them are clutter, and each is
    // another line to rasterise per frame.
    p.lineWidth = e.width;
    const last = ts.acks[c].t.length ? ts.acks[c].t[ts.acks[c].t.length - 1] : 0;
    drawStepLevels(p, scene.ackLevels[c], sx, sy, last);
    if (shownCount <= WINDOW_EDGES_UP_TO || c === hoveredConn) {
      p.strokeStyle = lighten(color);
      p.lineWidth = 1;
      drawStepLevels(p, scene.windowLevels[c], sx, sy, last);
    }
  }
  p.globalAlpha = 1;
  // Retransmissions: vermillion segments with an "R".
  p.strokeStyle = alertColor;
  p.fillStyle = alertColor;
  p.lineWidth = 1;
  p.font = 'bold 10px sans-serif';
  p.textAlign = 'center';
  p.textBaseline = 'bottom';
  p.beginPath();
  for (let k = 0; k < d.count; k++) {
    if (!d.retx[k] || !visible[d.conn[k]]) continue;
    segmentGlyph(p, d.x[k] + 0.5, sy(d.lo[k]), sy(d.hi[k]));
  }
  p.stroke();
  // The letters only while they can be told apart; the vermillion segments always.
  if (retx <= 300) for (let k = 0; k < d.count; k++) if (d.retx[k] && visible[d.conn[k]]) p.fillText('R', d.x[k] + 0.5, sy(d.hi[k]) - 1);
  // Drops: a vermillion cross at the instant and sequence number where the segment was lost,
  // one per 3-pixel cell (crosses on top of each other draw the same mark).
  const dr = ts.drops;
  const marks = decimateMarks(dr.t, dr.seq, t0, t1, affineOf(sx), affineOf(sy), sx.range()[1], sy.range()[0], 3, (i) => visible[dr.conn[i]] === 1);
  p.beginPath();
  for (let k = 0; k < marks.count; k++) dropGlyph(p, marks.x[k], marks.y[k]);
  p.lineWidth = 1.5;
  p.stroke();
  p.lineWidth = 1;
  // SYN and FIN.
  p.font = '10px sans-serif';
  p.textBaseline = 'middle';
  p.textAlign = 'left';
  for (const l of ts.labels) {
    if (l.t < t0 || l.t > t1 || !visible[l.conn]) continue;
    p.fillStyle = colorOf(ts.connections[l.conn].flow);
    p.fillText(l.text, sx(l.t) + 3, sy(l.seq));
  }
}
