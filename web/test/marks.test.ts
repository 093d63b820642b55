// The dense plots' marks drawn from their data (charts/marks/), recorded as SVG: the same draw
// functions the plot worker and the main thread run.
import { scaleLinear } from 'd3-scale';
import { describe, expect, it } from 'vitest';
import { buildScene, drawScene } from '../src/charts/marks';
import { bandLayout } from '../src/charts/marks/primitives';
import { SvgPainter } from '../src/charts/painter';
import { timeSequence } from '../src/data/timeseq';
import { ACK, LOSS, sackRun, SEND } from './fixtures';

const frame = { width: 200, height: 100 };

describe('time–sequence marks', () => {
  const ts = timeSequence(
    sackRun([
      [0, SEND, 1, 100, 0, 1, 0, 0, 0],
      [0, SEND, 101, 100, 0, 1, 0, 0, 0],
      [1, LOSS, 101, 100, 0, 1, 0, 0, 0],
      [0, SEND, 201, 100, 0, 1, 0, 0, 0],
      [10, ACK, 1, 0, 101, 0, 0, 0, 0],
      [10, ACK, 1, 0, 101, 0, 1, 201, 301],
    ]),
  )!;
  const sx = scaleLinear().domain([0, 0.02]).range([0, 200]);
  const sy = scaleLinear().domain([0, 400]).range([100, 0]);

  it('draws a SACK block as a line at its ACK’s time over the SACKed bytes, with a bar at each end', () => {
    const p = new SvgPainter();
    drawScene(p, buildScene({ kind: 'time-sequence', ts }), { visible: Uint8Array.of(1), hovered: null }, sx, sy, frame);
    // At 10 ms: x = 100 (+0.5, the pixel's centre); bytes 201–301: y from 49.75 up to 24.75.
    const sack = p.parts.find((d) => d.includes('M100.5,49.75L100.5,24.75'));
    expect(sack).toBeDefined();
    expect(sack).toContain('M98.5,49.75L102.5,49.75');
    expect(sack).toContain('M98.5,24.75L102.5,24.75');
  });

  it('draws no SACK block for a hidden connection', () => {
    const p = new SvgPainter();
    drawScene(p, buildScene({ kind: 'time-sequence', ts }), { visible: Uint8Array.of(0), hovered: null }, sx, sy, frame);
    expect(p.parts.some((d) => d.includes('M100.5,49.75L100.5,24.75'))).toBe(false);
  });
});

describe('series marks: bands and K', () => {
  const sx = scaleLinear().domain([0, 10]).range([0, 200]);
  // Lines above y = 70; the band below.
  const sy = scaleLinear().domain([0, 100]).range([70, 0]);
  const marks = {
    kind: 'flow-series' as const,
    lines: [{ flow: 0, t: Float64Array.of(0, 5), values: [Float64Array.of(10, 50)] }],
    columns: [{ width: 1.5, dash: [] }],
    tMax: 10,
    bands: {
      lanes: [{ flow: 0, start: Float64Array.of(0, 2), end: Float64Array.of(2, 10), state: Uint8Array.of(1, 3) }],
      colors: ['', '#EE8866', '#77AADD', '#44BB99', '#AA4499'],
      names: ['none', 'Startup', 'Drain', 'ProbeBW', 'ProbeRTT'],
    },
    kMarks: [{ flow: 0, t: Float64Array.of(4), y: Float64Array.of(80) }],
  };

  it('draws each run of the band in its state’s colour, under the lines', () => {
    const p = new SvgPainter();
    drawScene(p, buildScene(marks), { visible: [0], hovered: null }, sx, sy, frame);
    const layout = bandLayout(1, 70, 100);
    const rects = p.parts.filter((d) => d.startsWith('<rect'));
    expect(rects).toContain(`<rect x="0" y="${layout.top}" width="40" height="${layout.height - 1}" fill="#EE8866"/>`);
    expect(rects).toContain(`<rect x="40" y="${layout.top}" width="160" height="${layout.height - 1}" fill="#44BB99"/>`);
    expect(p.parts.some((d) => d.includes('>ProbeBW</text>'))).toBe(true);
    expect(layout.top).toBeGreaterThan(70);
  });

  it('marks K with a diamond on W_max', () => {
    const p = new SvgPainter();
    drawScene(p, buildScene(marks), { visible: [0], hovered: null }, sx, sy, frame);
    // t = 4 s → x = 80; W_max 80 → y = 14.
    expect(p.parts.some((d) => d.includes('M80,10L84,14L80,18L76,14L80,10'))).toBe(true);
    expect(p.parts.some((d) => d.includes('>K</text>'))).toBe(true);
  });

  it('draws neither for a hidden connection', () => {
    const p = new SvgPainter();
    drawScene(p, buildScene(marks), { visible: [], hovered: null }, sx, sy, frame);
    expect(p.parts).toEqual([]);
  });
});
