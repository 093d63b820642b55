// The tooltip at the pointer and the connection under it: the plot's hover function names the
// lines to show and the connection (flow) there, which every plot of the run highlights
// (focus.tsx); a click isolates it.
import { useState, useRef, type RefObject } from 'react';
import { useFocus } from '../focus';
import type { Scale } from './types';

export type Hover = (x: number, y: number, sx: Scale, sy: Scale) => string[] | { lines: string[]; flow?: number | null } | null;

export function usePlotHover({ hover, target, sx, sy, brushing }: { hover?: Hover; target: RefObject<HTMLDivElement | null>; sx: Scale; sy: Scale; brushing: boolean }) {
  const [tip, setTip] = useState<{ x: number; y: number; lines: string[] } | null>(null);
  const focusApi = useFocus();
  const hoveredFlow = useRef<number | null>(null);

  const onPointerMove = (e: React.PointerEvent) => {
    if (!hover) return;
    const rect = target.current!.getBoundingClientRect();
    const px = e.clientX - rect.left;
    const py = e.clientY - rect.top;
    const found = hover(sx.invert(px), sy.invert(py), sx, sy);
    const lines = Array.isArray(found) ? found : found?.lines;
    const flow = found && !Array.isArray(found) ? (found.flow ?? null) : null;
    setTip(lines ? { x: px, y: py, lines } : null);
    if (flow !== hoveredFlow.current) {
      hoveredFlow.current = flow;
      focusApi.hover(flow);
    }
  };
  const onPointerLeave = () => {
    setTip(null);
    if (hoveredFlow.current !== null) {
      hoveredFlow.current = null;
      focusApi.hover(null);
    }
  };
  // A click (not a drag: d3-zoom swallows the click that ends a pan) isolates the connection under
  // the pointer; a click on an isolated one shows all again.
  const onClick = () => {
    if (hoveredFlow.current !== null && !brushing) focusApi.isolate([hoveredFlow.current]);
  };
  return { tip, handlers: { onPointerMove, onPointerLeave, onClick } };
}
