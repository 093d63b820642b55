// A plot as a standalone SVG document: its marks drawn again into an SvgPainter (the same decimated
// marks as on screen, as vectors) under the axes the page shows.
import { slug } from '../export';
import { SvgPainter } from '../painter';
import type { DrawMarks } from './useMarksCanvas';
import { margin, type Scale } from './types';

export interface FigureParts {
  title: string;
  width: number;
  height: number;
  innerW: number;
  innerH: number;
  sx: Scale;
  sy: Scale;
  draw: DrawMarks;
  /** The axes' SVG markup (the page's axes element). */
  axes: string;
}

export function plotSvg({ title, width, height, innerW, innerH, sx, sy, draw, axes }: FigureParts): string {
  const p = new SvgPainter();
  draw(p, sx, sy, { width: innerW, height: innerH });
  const clip = `clip-${slug(title)}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="#fff"/>` +
    `<defs><clipPath id="${clip}"><rect width="${innerW}" height="${innerH}"/></clipPath></defs>` +
    `<g transform="translate(${margin.left},${margin.top})" clip-path="url(#${clip})">${p.parts.join('')}</g>` +
    axes +
    `</svg>`
  );
}
