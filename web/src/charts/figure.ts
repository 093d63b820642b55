// A chart as a figure for a paper: its title above, the chart, its legend drawn in SVG (a line
// sample in each entry's dash pattern, so that dashed and dotted lines read apart; a filled square;
// or the entry's mark), and a caption naming what it shows and the scenario and run it comes from.
// PNG and SVG exports of every chart go through here.
import { createContext, useContext } from 'react';
import type { LegendEntry } from './plot/types';

/** What the figures of a view come from, for their caption: "scheme-etcp, resultHash 25f8d391…". */
export const FigureSource = createContext<string>('');
export const useFigureSource = () => useContext(FigureSource);

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** About how wide a character of 11 px sans-serif is, for laying out text without a browser. */
const charWidth = 6.2;

/** The dash pattern of a legend entry's line sample: none for a filled swatch. */
export function legendDash(entry: Pick<LegendEntry, 'dash'>): number[] | null {
  if (entry.dash === true) return [5, 3];
  return Array.isArray(entry.dash) ? entry.dash : null;
}

/** Words laid out in lines of at most `width` pixels. */
function wrap(text: string, width: number): string[] {
  const perLine = Math.max(20, Math.floor(width / charWidth));
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > perLine) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function legendSvg(entries: LegendEntry[], width: number): { markup: string; height: number } {
  let x = 0;
  let y = 0;
  const parts: string[] = [];
  for (const e of entries) {
    const w = 26 + e.name.length * charWidth + 14;
    if (x > 0 && x + w > width) {
      x = 0;
      y += 18;
    }
    const dash = legendDash(e);
    if (e.mark) parts.push(`<text x="${x + 9}" y="${y + 10}" text-anchor="middle" font-size="12" fill="${e.color}">${esc(e.mark)}</text>`);
    else if (dash) parts.push(`<line x1="${x}" x2="${x + 20}" y1="${y + 6}" y2="${y + 6}" stroke="${e.color}" stroke-width="2" stroke-dasharray="${dash.join(' ')}"/>`);
    else parts.push(`<rect x="${x + 4}" y="${y}" width="12" height="12" fill="${e.color}"/>`);
    parts.push(`<text x="${x + 26}" y="${y + 10}" font-size="11" fill="#222">${esc(e.name)}</text>`);
    x += w;
  }
  return { markup: parts.join(''), height: entries.length ? y + 18 : 0 };
}

export interface FigureParts {
  title: string;
  width: number;
  /** The chart's SVG markup, drawn from (0, 0). */
  body: string;
  bodyHeight: number;
  legend: LegendEntry[];
  /** What the chart shows (its on-screen caption), then where it comes from. */
  caption?: string;
  source?: string;
}

/** The figure as a standalone SVG document, with its size. */
export function composeFigure({ title, width, body, bodyHeight, legend, caption, source }: FigureParts): { svg: string; width: number; height: number } {
  const pad = 12;
  const titleLines = wrap(title, width - 2 * pad);
  const top = pad + titleLines.length * 18;
  const key = legendSvg(legend, width - 2 * pad);
  const captionLines = wrap([caption, source].filter(Boolean).join(' '), width - 2 * pad);
  const legendTop = top + bodyHeight + 6;
  const captionTop = legendTop + key.height + (key.height ? 6 : 0);
  const height = captionTop + captionLines.length * 15 + pad;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="#fff"/>` +
    titleLines.map((l, i) => `<text x="${pad}" y="${pad + 13 + i * 18}" font-size="14" font-weight="bold" fill="#111">${esc(l)}</text>`).join('') +
    `<g transform="translate(0,${top})">${body}</g>` +
    `<g transform="translate(${pad},${legendTop})">${key.markup}</g>` +
    captionLines.map((l, i) => `<text x="${pad}" y="${captionTop + 11 + i * 15}" font-size="11" fill="#333">${esc(l)}</text>`).join('') +
    `</svg>`;
  return { svg, width, height };
}
