// A plot's tools: zoom in and out, reset, brush, and the downloads (PNG, SVG, CSV).
import { useState } from 'react';
import { download, slug, svgToPng } from '../export';

export interface PlotToolbarProps {
  title: string;
  zoomBy: (factor: number) => void;
  reset: () => void;
  brushing: boolean;
  toggleBrush: () => void;
  /** The figure as an SVG document, and its size for the PNG. */
  svg: () => { text: string; width: number; height: number };
  csv?: () => string;
}

export function PlotToolbar({ title, zoomBy, reset, brushing, toggleBrush, svg, csv }: PlotToolbarProps) {
  const [exportError, setExportError] = useState<string | null>(null);
  const exportPng = async () => {
    try {
      setExportError(null);
      const { text, width, height } = svg();
      download(`${slug(title)}.png`, await svgToPng(text, width, height));
    } catch (e) {
      setExportError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <>
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
        <button type="button" aria-pressed={brushing} onClick={toggleBrush} title="Drag a rectangle to zoom to it (B)">
          Brush
        </button>
        <button type="button" onClick={exportPng}>
          PNG
        </button>
        <button type="button" onClick={() => download(`${slug(title)}.svg`, svg().text, 'image/svg+xml')}>
          SVG
        </button>
        {csv && (
          <button type="button" onClick={() => download(`${slug(title)}.csv`, csv(), 'text/csv')}>
            CSV
          </button>
        )}
      </span>
      {exportError && (
        <p className="error" role="alert">
          {exportError}
        </p>
      )}
    </>
  );
}
