// Zoom and pan on time (x): d3-zoom maps the full time range onto the plot, its transform is the
// visible range. While this plot is zoomed it moves at once and the other plots of the run follow
// when the gesture pauses (onXDomain is debounced), so only this plot redraws per frame.
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { zoom as d3zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior } from 'd3-zoom';
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { Domain } from './types';

export interface TimeZoomOptions {
  xDomain: Domain;
  xFull: Domain;
  onXDomain: (d: Domain) => void;
  innerW: number;
  innerH: number;
  /** The element the zoom gestures act on. */
  target: RefObject<HTMLDivElement | null>;
  /** While brushing, drags draw the brush instead. */
  brushing: boolean;
}

export function useTimeZoom({ xDomain, xFull, onXDomain, innerW, innerH, target, brushing }: TimeZoomOptions) {
  const zoomRef = useRef<ZoomBehavior<HTMLDivElement, unknown> | null>(null);
  const syncing = useRef(false);
  // The visible range follows xDomain.
  const [local, setLocal] = useState<Domain>(xDomain);
  useEffect(() => setLocal((l) => (l[0] === xDomain[0] && l[1] === xDomain[1] ? l : xDomain)), [xDomain]);
  const share = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(share.current), []);
  const moveTo = useCallback(
    (d: Domain, immediately: boolean) => {
      // Rendered and drawn at once, inside the input event, rather than in a later scheduler task.
      flushSync(() => setLocal(d));
      clearTimeout(share.current);
      if (immediately) onXDomain(d);
      else share.current = setTimeout(() => onXDomain(d), 250);
    },
    [onXDomain],
  );
  const sx = useMemo(() => scaleLinear().domain(local).range([0, innerW]), [local, innerW]);

  const base = useMemo(() => scaleLinear().domain(xFull).range([0, innerW]), [xFull, innerW]);
  useEffect(() => {
    const el = target.current;
    if (!el) return;
    const z = d3zoom<HTMLDivElement, unknown>()
      .scaleExtent([1, 1e7])
      .extent([
        [0, 0],
        [innerW, innerH],
      ])
      .translateExtent([
        [0, 0],
        [innerW, innerH],
      ])
      .filter((event: Event) => !brushing && (!(event instanceof MouseEvent) || event.button === 0 || event.type === 'wheel'))
      .on('zoom', (event: D3ZoomEvent<HTMLDivElement, unknown>) => {
        if (syncing.current) return;
        const d = event.transform.rescaleX(base).domain() as Domain;
        moveTo(d, false);
      });
    zoomRef.current = z;
    select(el).call(z).on('dblclick.zoom', null);
    return () => {
      select(el).on('.zoom', null);
    };
  }, [base, innerW, innerH, moveTo, brushing, target]);

  // Keep the zoom transform in step with a domain set from outside (another plot, a button).
  useEffect(() => {
    const el = target.current;
    const z = zoomRef.current;
    if (!el || !z) return;
    const span = xFull[1] - xFull[0] || 1;
    const k = span / (local[1] - local[0] || span);
    const t = zoomIdentity.scale(k).translate(-base(local[0]), 0);
    syncing.current = true;
    select(el).call(z.transform, t);
    syncing.current = false;
  }, [local, xFull, base, target]);

  /** Zooms by `factor` about the middle (0.5 in, 2 out), moved by `shift` spans. */
  const zoomBy = useCallback(
    (factor: number, shift = 0) => {
      const [a, b] = local;
      const span = b - a;
      const full = xFull[1] - xFull[0];
      const next = Math.min(full, span * factor);
      let lo = a + (span - next) / 2 + shift * span;
      lo = Math.max(xFull[0], Math.min(xFull[1] - next, lo));
      moveTo([lo, lo + next], true);
    },
    [local, xFull, moveTo],
  );
  return { local, sx, moveTo, zoomBy };
}
