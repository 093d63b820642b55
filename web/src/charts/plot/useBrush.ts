// The brush: the rectangle dragged becomes the visible time range and the y range.
import { brush as d3brush, type D3BrushEvent } from 'd3-brush';
import { select } from 'd3-selection';
import { useEffect, type RefObject } from 'react';
import type { Domain, Scale } from './types';

export interface BrushOptions {
  /** The <g> d3-brush owns; React renders it empty and never touches inside it. */
  target: RefObject<SVGGElement | null>;
  brushing: boolean;
  innerW: number;
  innerH: number;
  sx: Scale;
  sy: Scale;
  onBrushed: (x: Domain, y: Domain) => void;
}

export function useBrush({ target, brushing, innerW, innerH, sx, sy, onBrushed }: BrushOptions) {
  useEffect(() => {
    const g = target.current;
    if (!g || !brushing) return;
    const b = d3brush<unknown>()
      .extent([
        [0, 0],
        [innerW, innerH],
      ])
      .on('end', (event: D3BrushEvent<unknown>) => {
        const sel = event.selection as [[number, number], [number, number]] | null;
        if (!sel) return;
        const [[x0, y0], [x1, y1]] = sel;
        select(g).call(b.move, null);
        if (x1 - x0 < 3 || y1 - y0 < 3) return;
        onBrushed([sx.invert(x0), sx.invert(x1)], [sy.invert(y1), sy.invert(y0)]);
      });
    select(g).call(b);
    return () => {
      select(g).on('.brush', null).selectAll('*').remove();
    };
  }, [target, brushing, innerW, innerH, sx, sy, onBrushed]);
}
