// A plot's chart as SVG markup: its marks drawn again into an SvgPainter (the same decimated marks
// as on screen, as vectors), clipped to the marks' area, under the axes the page shows. figure.ts
// puts the title, legend and caption around it.
import { slug } from '../export';
import { SvgPainter } from '../painter';
import type { DrawMarks } from './useMarksCanvas';
import { margin, type Scale } from './types';

export interface ChartParts {
  title: string;
  innerW: number;
  innerH: number;
  sx: Scale;
  sy: Scale;
  draw: DrawMarks;
  /** The axes' SVG markup (the page's axes element). */
  axes: string;
}

export function plotBody({ title, innerW, innerH, sx, sy, draw, axes }: ChartParts): string {
  const p = new SvgPainter();
  draw(p, sx, sy, { width: innerW, height: innerH });
  const clip = `clip-${slug(title)}`;
  return (
    `<defs><clipPath id="${clip}"><rect width="${innerW}" height="${innerH}"/></clipPath></defs>` +
    `<g transform="translate(${margin.left},${margin.top})" clip-path="url(#${clip})">${p.parts.join('')}</g>` +
    axes
  );
}
