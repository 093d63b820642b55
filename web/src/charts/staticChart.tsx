// What the SVG charts of few marks share (BarChart.tsx, SweepChart.tsx): margins, axis numbers, the
// paper's value as a hollow diamond, and the export buttons (the chart's own SVG, as SVG or PNG, and
// its numbers as CSV).
import { format } from 'd3-format';
import { useState } from 'react';
import { download, slug, svgToPng } from './export';

export const margin = { top: 10, right: 16, bottom: 48, left: 64 };
const si = format('~s');
const plain = format('~g');
/** Plain numbers below 10 000 (0.8 s, not 800m), SI prefixes above. */
export const fmt = (v: number) => (Math.abs(v) < 1e4 ? plain(v) : si(v));

export function ExportButtons({ title, svg, csv }: { title: string; svg: () => SVGSVGElement | null; csv: () => string }) {
  const [error, setError] = useState<string | null>(null);
  const text = () => {
    const el = svg();
    return el ? new XMLSerializer().serializeToString(el) : '';
  };
  return (
    <span className="plot-tools" role="toolbar" aria-label={`${title} tools`}>
      <button
        type="button"
        onClick={async () => {
          try {
            const el = svg();
            if (el) download(`${slug(title)}.png`, await svgToPng(text(), el.width.baseVal.value, el.height.baseVal.value));
          } catch (e) {
            setError(String(e));
          }
        }}
      >
        PNG
      </button>
      <button type="button" onClick={() => download(`${slug(title)}.svg`, text(), 'image/svg+xml')}>
        SVG
      </button>
      <button type="button" onClick={() => download(`${slug(title)}.csv`, csv(), 'text/csv')}>
        CSV
      </button>
      {error && <span role="alert" className="error">{error}</span>}
    </span>
  );
}

/** The paper's value: a hollow diamond (with a title for hover). */
export function PaperMark({ x, y, label }: { x: number; y: number; label: string }) {
  return (
    <path d={`M${x},${y - 5}L${x + 5},${y}L${x},${y + 5}L${x - 5},${y}Z`} fill="#fff" stroke="#000" strokeWidth={1.5}>
      <title>{label}</title>
    </path>
  );
}

export const hasPaper = (values: (number | null | undefined)[] | undefined) => !!values && values.some((v) => v !== null && v !== undefined);
