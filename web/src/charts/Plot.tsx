// A time-based plot: d3 computes the scales, ticks, zoom and brush; React renders the axes in SVG;
// the marks are drawn on a canvas from the same scales (and, for export, into an SvgPainter). Its
// parts are in plot/: zoom and pan on time (useTimeZoom), the brush (useBrush), where the marks are
// drawn (useMarksCanvas), the tooltip and the connection under the pointer (usePlotHover), the
// axes, the legend and the toolbar.
// Zoom and pan act on time (x), shared with the other plots through xDomain/onXDomain; y fits what
// is visible unless a brush chose it. Keyboard: arrows pan, + and − zoom, 0 resets, B toggles brush.
// The connection under the pointer (if the plot's hover names one) is highlighted in every plot of
// the run (focus.tsx); a click isolates it.
import { scaleLinear } from 'd3-scale';
import { useCallback, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Marks, MarksStyle } from './marks';
import { Axes } from './plot/Axes';
import { composeFigure, useFigureSource } from './figure';
import { plotBody } from './plot/exportFigure';
import { Legend } from './plot/Legend';
import { PlotToolbar } from './plot/PlotToolbar';
import { formatSi, innerSize, margin, type Domain, type LegendEntry } from './plot/types';
import { useBrush } from './plot/useBrush';
import { MarksCanvases, useMarksCanvas, type DrawMarks } from './plot/useMarksCanvas';
import { usePlotHover, type Hover } from './plot/usePlotHover';
import { useTimeZoom } from './plot/useTimeZoom';
import { useWidth } from './useWidth';

export { formatSi, type Domain, type LegendEntry, type Scale } from './plot/types';

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
  draw?: DrawMarks;
  /**
   * The marks as data and their style (marks/index.ts): drawn in the plot worker when the plot is
   * `fast` and the browser can, else on the main thread; the same draw function serves export.
   */
  marks?: { data: Marks; style: MarksStyle };
  /** Pixels kept under the lines for state bands (the y axis maps above them). */
  bandHeight?: number;
  /** Lines of the tooltip at a data point, and the connection (flow) there if any; or null. */
  hover?: Hover;
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

export function Plot(props: PlotProps) {
  const { title, xLabel, yLabel, xDomain, xFull, onXDomain, yExtent, hover, legend, csv, data } = props;
  const height = props.height ?? 260;
  const [container, width] = useWidth<HTMLDivElement>();
  const { innerW, innerH, band } = innerSize(width, height, props.bandHeight);
  const overlayRef = useRef<HTMLDivElement>(null);
  const brushRef = useRef<SVGGElement>(null);
  const axesRef = useRef<SVGSVGElement>(null);
  const figureRef = useRef<HTMLElement>(null);
  const id = useId();
  const [yOverride, setYOverride] = useState<Domain | null>(null);
  const [brushing, setBrushing] = useState(false);

  const { local, sx, moveTo, zoomBy } = useTimeZoom({ xDomain, xFull, onXDomain, innerW, innerH, target: overlayRef, brushing });
  const sy = useMemo(() => {
    let d = yOverride ?? yExtent(local[0], local[1]);
    if (!(d[1] > d[0])) d = [d[0], d[0] + 1];
    const s = scaleLinear().domain(d).range([innerH - band, 0]);
    return yOverride ? s : s.nice();
  }, [yOverride, yExtent, local, innerH, band]);
  const onBrushed = useCallback(
    (x: Domain, y: Domain) => {
      moveTo(x, true);
      setYOverride(y);
      setBrushing(false);
    },
    [moveTo],
  );
  useBrush({ target: brushRef, brushing, innerW, innerH, sx, sy, onBrushed });
  const canvas = useMarksCanvas({ title, draw: props.draw, marks: props.marks, fast: props.fast, sx, sy, innerW, innerH, figure: figureRef });
  const { tip, handlers } = usePlotHover({ hover, target: overlayRef, sx, sy, brushing });

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
  // The figure for a paper: title, chart, legend, and a caption naming the run.
  const source = useFigureSource();
  const svg = () => {
    const body = plotBody({ title, innerW, innerH, sx, sy, draw: canvas.draw, axes: axesRef.current?.innerHTML ?? '' });
    const figure = composeFigure({ title, width, body, bodyHeight: height, legend: legend ?? [], caption: props.caption, source });
    return { text: figure.svg, width: figure.width, height: figure.height };
  };

  const yFmt = props.yFormat ?? formatSi;
  const dataAttrs = Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [`data-${k}`, String(v)]));
  const inner = { position: 'absolute' as const, left: margin.left, top: margin.top, width: innerW, height: innerH };

  return (
    <figure className="plot" ref={figureRef} aria-labelledby={`${id}-title`} {...dataAttrs}>
      <figcaption>
        <span id={`${id}-title`} className="plot-title">
          {title}
        </span>
        <PlotToolbar title={title} zoomBy={zoomBy} reset={reset} brushing={brushing} toggleBrush={() => setBrushing((v) => !v)} svg={svg} csv={csv} />
      </figcaption>
      <div ref={container} className="plot-area" style={{ height }}>
        <MarksCanvases canvas={canvas} innerW={innerW} innerH={innerH} left={margin.left} top={margin.top} />
        <Axes ref={axesRef} width={width} height={height} innerW={innerW} innerH={innerH} sx={sx} sy={sy} xLabel={xLabel} yLabel={yLabel} yFormat={yFmt} />
        <div
          ref={overlayRef}
          className="plot-overlay"
          tabIndex={0}
          role="img"
          aria-label={`${title}: ${xLabel} against ${yLabel}. Arrow keys pan, plus and minus zoom, 0 resets, B brushes.`}
          onKeyDown={onKey}
          {...handlers}
          style={{ ...inner, cursor: brushing ? 'crosshair' : 'grab' }}
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
      {legend && <Legend title={title} entries={legend} onToggle={props.onLegend} />}
      {props.caption && <p className="plot-caption">{props.caption}</p>}
      {props.children}
    </figure>
  );
}
