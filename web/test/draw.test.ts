// The marks drawn through the Painter interface, recorded as SVG (the export path).
import { scaleLinear } from 'd3-scale';
import { describe, expect, it } from 'vitest';
import { drawStep, drawStepLevels } from '../src/charts/marks/primitives';
import { SvgPainter } from '../src/charts/painter';

describe('drawStep', () => {
  const sx = scaleLinear().domain([0, 2]).range([0, 200]);
  const sy = scaleLinear().domain([0, 20]).range([20, 0]);

  it('draws a rising step line with two points per column', () => {
    const p = new SvgPainter();
    drawStep(p, [0, 1, 2], [0, 10, 20], sx, sy);
    expect(p.parts).toEqual(['<path d="M0,20L100,20L100,10L200,10L200,0" fill="none" stroke="#000" stroke-width="1"/>']);
  });

  it('keeps a dip inside one pixel column', () => {
    const p = new SvgPainter();
    drawStep(p, [0, 1, 1.001, 1.002], [10, 10, 0, 10], sx, sy);
    expect(p.parts[0]).toContain('L100,10L100,20L100,10');
  });

  it('holds the last value to the right edge unless told where the line ends', () => {
    const p = new SvgPainter();
    drawStep(p, [0, 0.5], [5, 5], sx, sy);
    expect(p.parts[0]).toBe('<path d="M0,15L50,15L200,15" fill="none" stroke="#000" stroke-width="1"/>');
    const q = new SvgPainter();
    drawStepLevels(q, [{ bucketS: 0, t: [0, 0.5], first: [5, 5], min: [5, 5], max: [5, 5], last: [5, 5] } as never], sx, sy, 1);
    expect(q.parts[0]).toBe('<path d="M0,15L50,15L100,15" fill="none" stroke="#000" stroke-width="1"/>');
  });
});
