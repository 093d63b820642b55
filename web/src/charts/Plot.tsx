// A time-based plot: d3 computes the scales, ticks, zoom and brush; React renders the axes in SVG;
// the marks are drawn on a canvas from the same scales (and, for export, into an SvgPainter). The
// dense plots give their marks as data (marks/): the plot worker draws them on the canvas, handed
// over as an OffscreenCanvas, and a frame sends it only the view (plotThread.ts).
// Zoom and pan act on time (x), shared with the other plots through xDomain/onXDomain; y fits what
// is visible unless a brush chose it. Keyboard: arrows pan, + and − zoom, 0 resets, B toggles brush.
// The connection under the pointer (if the plot's hover names one) is highlighted in every plot of
// the run (focus.tsx); a click isolates it.
import { brush as d3brush, type D3BrushEvent } from 'd3-brush';
import { format } from 'd3-format';
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { zoom as d3zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior } from 'd3-zoom';
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { download, slug, svgToPng } from './export';
import { useFocus } from './focus';
import { GlPainter } from './glPainter';
import { buildScene, drawScene, marksRows, type Frame, type Marks, type MarksStyle, type Scene } from './marks';
import { PixelPainter } from './pixelPainter';
import { SvgPainter, type Painter } from './painter';
import { RemotePlot } from './plotThread';
import type { FromWorker } from './plotProtocol';
import { mainThreadPainter, preferredRenderer, preferredThread, type Thread } from './renderer';
import { useWidth } from './useWidth';

export type Scale = ScaleLinear<number, number>;
export type Domain = [number, number];

export interface LegendEntry {
  name: string;
  color: string;
  dash?: boolean;
  mark?: string;
  /** With onLegend: the entry is a toggle (e.g. a connection shown or hidden). */
  toggle?: number;
  off?: boolean;
}

export interface PlotProps {
  title: string;
  xLabel: string;
  yLabel: string;
  xDomain: Domain;
  xFull: Domain;
  onXDomain: (d: Domain) => void;
  /** y range of what is visible between x0 and x1. */
  yExtent: (x0: number, x1: number) => Domain;
  yFormat?: (v: number) => string;
  /** Draws the marks (plots whose marks are not given as `marks`). */
  draw?: (p: Painter, sx: Scale, sy: Scale, frame: Frame) => void;
  /**
   * The marks as data and their style (marks/index.ts): drawn in the plot worker when the plot is
   * `fast` and the browser can, else on the main thread; the same draw function serves export.
   */
  marks?: { data: Marks; style: MarksStyle };
  /** Pixels kept under the lines for state bands (the y axis maps above them). */
  bandHeight?: number;
  /** Lines of the tooltip at a data point, and the connection (flow) there if any; or null. */
  hover?: (x: number, y: number, sx: Scale, sy: Scale) => string[] | { lines: string[]; flow?: number | null } | null;
  legend?: LegendEntry[];
  onLegend?: (toggle: number) => void;
  csv?: () => string;
  height?: number;
  /** One line under the plot: what to look for. */
  caption?: string;
  /**
   * The draw function strokes lines and puts fills and text on top of them: the faster renderers
   * (pixelPainter.ts, glPainter.ts) may draw it.
   */
  fast?: boolean;
  /** Data attributes on the figure (what the plot shows, for tests and scripts). */
  data?: Record<string, string | number>;
  children?: ReactNode;
}

const margin = { top: 8, right: 16, bottom: 40, left: 68 };
/** Plots of at most this many rows draw on the page until the worker's first frame (handOver). */
const FIRST_FRAME_ON_PAGE_UP_TO = 200_000;
const si = format('~s');
const plain = format('~g');
/** Axis numbers: plain below 10 000 (0.25 s, not 250m), SI prefixes above (1.5M B). */
export const formatSi = (v: number) => (Math.abs(v) < 1e4 ? plain(v) : si(v));
const formatTime = format('~g');

export function Plot(props: PlotProps) {
  const { title, xLabel, yLabel, xDomain, xFull, onXDomain, yExtent, hover, legend, csv, data } = props;
  const height = props.height ?? 260;
  const [container, width] = useWidth<HTMLDivElement>();
  const innerW = Math.max(50, width - margin.left - margin.right);
  const innerH = height - margin.top - margin.bottom;
  const band = Math.min(props.bandHeight ?? 0, innerH / 3);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const overlayCanvasRef = useRef<HTMLCanvasElement>(null);
  const glPainter = useRef<GlPainter | null>(null);
  const pixelPainter = useRef<PixelPainter | null>(null);
  // Where the marks are drawn: the plot worker for the dense plots (until it fails), else here.
  const [workerFailed, setWorkerFailed] = useState(false);
  const thread: Thread = props.fast && props.marks && !workerFailed ? preferredThread() : 'main';
  const renderer = thread === 'worker' ? preferredRenderer() : props.fast ? mainThreadPainter() : 'canvas2d';
  const useGl = renderer === 'webgl2' || thread === 'worker';
  const remote = useRef<RemotePlot | null>(null);
  // Until the worker's first frame of a small plot, the page draws it (on a canvas of its own, laid
  // over the worker's): the worker's first frame waits for the canvas machinery of a new thread, a
  // cost the page's thread has paid already (docs/ARCHITECTURE.md, "Large traces").
  const [workerDrawn, setWorkerDrawn] = useState(false);
  const handOver = thread === 'worker' && !!props.marks && marksRows(props.marks.data) <= FIRST_FRAME_ON_PAGE_UP_TO;
  const pageDraws = thread === 'main' || (handOver && !workerDrawn);
  const pageCanvasRef = useRef<HTMLCanvasElement>(null);
  // The marks' scene (levels of detail) on the main thread, built when first drawn here.
  const marksData = props.marks?.data;
  const marksStyle = props.marks?.style;
  const localScene = useRef<{ data: Marks; scene: Scene } | null>(null);
  const draw = useMemo(
    () =>
      props.draw ??
      ((p: Painter, sx: Scale, sy: Scale, frame: Frame) => {
        if (!marksData || !marksStyle) return;
        if (localScene.current?.data !== marksData) localScene.current = { data: marksData, scene: buildScene(marksData) };
        drawScene(p, localScene.current.scene, marksStyle, sx, sy, frame);
      }),
    [props.draw, marksData, marksStyle],
  );
  const overlayRef = useRef<HTMLDivElement>(null);
  const brushRef = useRef<SVGGElement>(null);
  const axesRef = useRef<SVGSVGElement>(null);
  const figureRef = useRef<HTMLElement>(null);
  const zoomRef = useRef<ZoomBehavior<HTMLDivElement, unknown> | null>(null);
  const syncing = useRef(false);
  const frames = useRef(0);
  const [yOverride, setYOverride] = useState<Domain | null>(null);
  const [brushing, setBrushing] = useState(false);
  const [tip, setTip] = useState<{ x: number; y: number; lines: string[] } | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const id = useId();
  const focusApi = useFocus();
  const hoveredFlow = useRef<number | null>(null);

  // The visible range follows xDomain; while this plot is zoomed it moves at once and the other
  // plots follow when the gesture pauses (onXDomain is debounced), so only this plot redraws per frame.
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
  const sy = useMemo(() => {
    let d = yOverride ?? yExtent(local[0], local[1]);
    if (!(d[1] > d[0])) d = [d[0], d[0] + 1];
    const s = scaleLinear().domain(d).range([innerH - band, 0]);
    return yOverride ? s : s.nice();
  }, [yOverride, yExtent, local, innerH, band]);

  // The zoom behaviour maps the full time range onto the plot; its transform is the visible range.
  const base = useMemo(() => scaleLinear().domain(xFull).range([0, innerW]), [xFull, innerW]);
  useEffect(() => {
    const el = overlayRef.current;
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
  }, [base, innerW, innerH, moveTo, brushing]);

  // Keep the zoom transform in step with a domain set from outside (another plot, a button).
  useEffect(() => {
    const el = overlayRef.current;
    const z = zoomRef.current;
    if (!el || !z) return;
    const span = xFull[1] - xFull[0] || 1;
    const k = span / (local[1] - local[0] || span);
    const t = zoomIdentity.scale(k).translate(-base(local[0]), 0);
    syncing.current = true;
    select(el).call(z.transform, t);
    syncing.current = false;
  }, [local, xFull, base]);

  // Brush: the chosen rectangle becomes the visible time range and the y range.
  useEffect(() => {
    const g = brushRef.current;
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
        moveTo([sx.invert(x0), sx.invert(x1)], true);
        setYOverride([sy.invert(y1), sy.invert(y0)]);
        setBrushing(false);
      });
    // d3-brush owns this <g>'s children; React renders the <g> empty and never touches inside it.
    select(g).call(b);
    return () => {
      select(g).on('.brush', null).selectAll('*').remove();
    };
  }, [brushing, innerW, innerH, sx, sy, moveTo]);

  // A frame drawn (here or in the worker): the figure's data attributes, the first-draw mark, and a
  // `plotframe` event with when it was drawn (ms on the page's clock) and how long drawing took.
  const drawn = useCallback(
    (at: number, drawMs: number, painter: string) => {
      if (frames.current === 0) performance.mark(`tcb:first-draw:${title}`, { startTime: at });
      frames.current++;
      const fig = figureRef.current;
      if (fig) {
        fig.dataset.renderer = painter;
        fig.dataset.thread = thread;
        fig.dataset.frames = String(frames.current);
        fig.dataset.drawMs = drawMs.toFixed(2);
        fig.dispatchEvent(new CustomEvent('plotframe', { detail: { at, drawMs } }));
      }
    },
    [title, thread],
  );
  const onWorker = useRef<(m: FromWorker) => void>(() => {});
  onWorker.current = (m: FromWorker) => {
    if (m.type === 'drawn') {
      drawn(m.at - performance.timeOrigin, m.drawMs, m.painter);
      if (!workerDrawn) setWorkerDrawn(true);
    } else setWorkerFailed(true);
  };
  // The worker path: the canvases go to the worker once; the data when it changes; the view with
  // every frame. Layout effects in this order, so that a new plot is attached before it is drawn.
  useLayoutEffect(() => {
    if (thread !== 'worker') return;
    const plot = RemotePlot.of(canvasRef.current!, overlayCanvasRef.current!, renderer, (m) => onWorker.current(m));
    remote.current = plot;
    return () => {
      plot.release();
      remote.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [thread]);
  useLayoutEffect(() => {
    if (thread === 'worker' && marksData) remote.current?.setMarks(marksData);
  }, [thread, marksData]);
  useLayoutEffect(() => {
    if (thread !== 'worker' || !marksStyle) return;
    remote.current?.frame(
      { x: sx.domain() as Domain, y: sy.domain() as Domain, yBottom: sy.range()[0], width: innerW, height: innerH, dpr: window.devicePixelRatio || 1 },
      marksStyle,
    );
  }, [thread, sx, sy, innerW, innerH, marksStyle]);

  useLayoutEffect(() => {
    const canvas = thread === 'main' ? canvasRef.current : pageCanvasRef.current;
    if (!canvas || !pageDraws) return;
    const painter = thread === 'main' ? renderer : 'pixels';
    const dpr = window.devicePixelRatio || 1;
    for (const c of [canvas, thread === 'main' ? overlayCanvasRef.current : null]) {
      if (c && (c.width !== Math.round(innerW * dpr) || c.height !== Math.round(innerH * dpr))) {
        c.width = Math.round(innerW * dpr);
        c.height = Math.round(innerH * dpr);
      }
    }
    // Drawn before the browser paints (Chromium delivers wheel and pointer input once per frame).
    {
      const started = performance.now();
      const frame = { width: innerW, height: innerH };
      if (painter === 'webgl2') {
        glPainter.current ??= new GlPainter(canvas, overlayCanvasRef.current!);
        const p = glPainter.current;
        p.begin(innerW, innerH, dpr);
        draw(p, sx, sy, frame);
        p.end();
      } else if (painter === 'pixels') {
        if (pixelPainter.current?.canvas !== canvas) pixelPainter.current = new PixelPainter(canvas.getContext('2d', { alpha: false })!);
        const p = pixelPainter.current;
        p.begin(innerW, innerH, dpr);
        draw(p, sx, sy, frame);
        p.end();
      } else {
        // Opaque: the plot's background is white, and an opaque canvas composites without blending.
        const ctx = canvas.getContext('2d', { alpha: false });
        if (!ctx) return;
        ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        ctx.fillStyle = '#fff';
        ctx.fillRect(0, 0, innerW, innerH);
        draw(ctx, sx, sy, frame);
      }
      const now = performance.now();
      drawn(now, now - started, painter);
    }
  }, [draw, sx, sy, innerW, innerH, renderer, thread, drawn, pageDraws]);

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
  const reset = useCallback(() => {
    setYOverride(null);
    moveTo(xFull, true);
  }, [moveTo, xFull]);

  const onKey = (e: React.KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowLeft: () => zoomBy(1, -0.1),
      ArrowRight: () => zoomBy(1, 0.1),
      '+': () => zoomBy(0.5),
      '=': () => zoomBy(0.5),
      '-': () => zoomBy(2),
      '0': reset,
      b: () => setBrushing((v) => !v),
      Escape: () => setBrushing(false),
    };
    const f = keys[e.key];
    if (f) {
      e.preventDefault();
      f();
    }
  };

  const onPointerMove = (e: React.PointerEvent) => {
    if (!hover) return;
    const rect = overlayRef.current!.getBoundingClientRect();
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

  const svgDocument = () => {
    const p = new SvgPainter();
    draw(p, sx, sy, { width: innerW, height: innerH });
    const clip = `clip-${slug(title)}`;
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">` +
      `<rect width="100%" height="100%" fill="#fff"/>` +
      `<defs><clipPath id="${clip}"><rect width="${innerW}" height="${innerH}"/></clipPath></defs>` +
      `<g transform="translate(${margin.left},${margin.top})" clip-path="url(#${clip})">${p.parts.join('')}</g>` +
      (axesRef.current?.innerHTML ?? '') +
      `</svg>`
    );
  };
  const exportSvg = () => download(`${slug(title)}.svg`, svgDocument(), 'image/svg+xml');
  const exportPng = async () => {
    try {
      setExportError(null);
      download(`${slug(title)}.png`, await svgToPng(svgDocument(), width, height));
    } catch (e) {
      setExportError(e instanceof Error ? e.message : String(e));
    }
  };

  const xTicks = sx.ticks(Math.max(2, Math.floor(innerW / 90)));
  const yTicks = sy.ticks(Math.max(2, Math.floor(innerH / 40)));
  const yFmt = props.yFormat ?? formatSi;
  const dataAttrs = Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [`data-${k}`, String(v)]));

  return (
    <figure className="plot" ref={figureRef} aria-labelledby={`${id}-title`} {...dataAttrs}>
      <figcaption>
        <span id={`${id}-title`} className="plot-title">
          {title}
        </span>
        <span className="plot-tools" role="toolbar" aria-label={`${title} tools`}>
          <button type="button" onClick={() => zoomBy(0.5)} aria-label="Zoom in" title="Zoom in (+)">
            +
          </button>
          <button type="button" onClick={() => zoomBy(2)} aria-label="Zoom out" title="Zoom out (−)">
            −
          </button>
          <button type="button" onClick={reset} title="Reset zoom (0)">
            Reset
          </button>
          <button type="button" aria-pressed={brushing} onClick={() => setBrushing((v) => !v)} title="Drag a rectangle to zoom to it (B)">
            Brush
          </button>
          <button type="button" onClick={exportPng}>PNG</button>
          <button type="button" onClick={exportSvg}>SVG</button>
          {csv && (
            <button type="button" onClick={() => download(`${slug(title)}.csv`, csv(), 'text/csv')}>
              CSV
            </button>
          )}
        </span>
      </figcaption>
      {exportError && <p className="error" role="alert">{exportError}</p>}
      <div ref={container} className="plot-area" style={{ height }}>
        {/* Keyed by thread: a canvas handed to the worker cannot be drawn here again. */}
        <canvas
          key={`marks-${thread}`}
          ref={canvasRef}
          style={{ position: 'absolute', left: margin.left, top: margin.top, width: innerW, height: innerH }}
        />
        {useGl && <canvas key={`overlay-${thread}`} ref={overlayCanvasRef} style={{ position: 'absolute', left: margin.left, top: margin.top, width: innerW, height: innerH }} />}
        {thread === 'worker' && pageDraws && <canvas ref={pageCanvasRef} style={{ position: 'absolute', left: margin.left, top: margin.top, width: innerW, height: innerH }} />}
        <svg ref={axesRef} width={width} height={height} style={{ position: 'absolute', left: 0, top: 0 }} aria-hidden="true">
          <g transform={`translate(${margin.left},${margin.top + innerH})`} fontSize="11" fill="#222">
            <line x1={0} x2={innerW} stroke="#222" />
            {xTicks.map((t) => (
              <g key={t} transform={`translate(${sx(t)},0)`}>
                <line y2={5} stroke="#222" />
                <text y={17} textAnchor="middle">
                  {formatTime(t)}
                </text>
              </g>
            ))}
            <text x={innerW / 2} y={34} textAnchor="middle" fontSize="12">
              {xLabel}
            </text>
          </g>
          <g transform={`translate(${margin.left},${margin.top})`} fontSize="11" fill="#222">
            <line y1={0} y2={innerH} stroke="#222" />
            {yTicks.map((t) => (
              <g key={t} transform={`translate(0,${sy(t)})`}>
                <line x2={-5} stroke="#222" />
                <line x2={innerW} stroke="#000" strokeOpacity={0.07} />
                <text x={-8} dy="0.32em" textAnchor="end">
                  {yFmt(t)}
                </text>
              </g>
            ))}
            <text transform={`translate(${-margin.left + 14},${innerH / 2}) rotate(-90)`} textAnchor="middle" fontSize="12">
              {yLabel}
            </text>
          </g>
        </svg>
        <div
          ref={overlayRef}
          className="plot-overlay"
          tabIndex={0}
          role="img"
          aria-label={`${title}: ${xLabel} against ${yLabel}. Arrow keys pan, plus and minus zoom, 0 resets, B brushes.`}
          onKeyDown={onKey}
          onPointerMove={onPointerMove}
          onPointerLeave={onPointerLeave}
          onClick={onClick}
          style={{ position: 'absolute', left: margin.left, top: margin.top, width: innerW, height: innerH, cursor: brushing ? 'crosshair' : 'grab' }}
        >
          <svg width={innerW} height={innerH} style={{ display: brushing ? 'block' : 'none' }}>
            <g ref={brushRef} />
          </svg>
        </div>
        {tip && (
          <div className="plot-tip" role="status" style={{ left: margin.left + tip.x + 12, top: margin.top + tip.y + 12 }}>
            {tip.lines.map((l, i) => (
              <div key={i}>{l}</div>
            ))}
          </div>
        )}
      </div>
      {legend && legend.length > 0 && (
        <ul className="legend" aria-label={`${title} legend`}>
          {legend.map((l) => {
            const swatch = (
              <span className="swatch" style={{ background: l.dash || l.off ? 'transparent' : l.color, borderColor: l.color }}>
                {l.mark}
              </span>
            );
            return (
              <li key={l.name}>
                {l.toggle !== undefined && props.onLegend ? (
                  <button type="button" className="legend-toggle" aria-pressed={!l.off} title={l.off ? 'Show' : 'Hide'} onClick={() => props.onLegend!(l.toggle!)}>
                    {swatch}
                    {l.name}
                  </button>
                ) : (
                  <>
                    {swatch}
                    {l.name}
                  </>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {props.caption && <p className="plot-caption">{props.caption}</p>}
      {props.children}
    </figure>
  );
}
