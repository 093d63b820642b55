// Congestion windows of several runs over one time axis, as step lines (SVG; d3 gives the scales and
// ticks, React renders every element): the kernel's runs dashed, tcpsim's solid.
import { scaleLinear } from 'd3-scale';
import { useId } from 'react';
import { stepPoints, type Window } from '../data/linuxCalibration';
import { useWidth } from './useWidth';

export interface OverlayLine {
  name: string;
  color: string;
  dashed: boolean;
  window: Window;
}

const margin = { top: 10, right: 16, bottom: 44, left: 56 };

export function WindowOverlay({ title, lines, endS, height = 300 }: { title: string; lines: OverlayLine[]; endS: number; height?: number }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const id = useId();
  const innerW = Math.max(50, width - margin.left - margin.right);
  const innerH = height - margin.top - margin.bottom;
  const x = scaleLinear().domain([0, endS]).range([0, innerW]);
  const yMax = Math.max(1, ...lines.flatMap((l) => l.window.cwnd));
  const y = scaleLinear().domain([0, yMax]).nice().range([innerH, 0]);
  return (
    <figure className="plot" aria-labelledby={`${id}-t`} data-plot="window-overlay" data-lines={lines.length}>
      <figcaption>
        <span id={`${id}-t`} className="plot-title">{title}</span>
      </figcaption>
      <div ref={ref}>
        <svg xmlns="http://www.w3.org/2000/svg" width={width} height={height} fontFamily="sans-serif" role="img" aria-label={`${title}: cwnd in segments against time in seconds`}>
          <rect width={width} height={height} fill="#fff" />
          <g transform={`translate(${margin.left},${margin.top})`} fontSize={11}>
            {y.ticks(5).map((t) => (
              <g key={t} transform={`translate(0,${y(t)})`}>
                <line x2={innerW} stroke="#000" strokeOpacity={0.08} />
                <text x={-8} dy="0.32em" textAnchor="end">{t}</text>
              </g>
            ))}
            {x.ticks(Math.max(2, Math.floor(innerW / 80))).map((t) => (
              <text key={t} x={x(t)} y={innerH + 16} textAnchor="middle">{t}</text>
            ))}
            <line x1={0} x2={innerW} y1={innerH} y2={innerH} stroke="#222" />
            <line y1={0} y2={innerH} stroke="#222" />
            {lines.map((l) => (
              <path
                key={l.name}
                d={stepPoints(l.window, endS).map(([t, v], i) => `${i ? 'L' : 'M'}${x(t).toFixed(1)},${y(v).toFixed(1)}`).join('')}
                fill="none"
                stroke={l.color}
                strokeWidth={l.dashed ? 1.2 : 1.6}
                strokeDasharray={l.dashed ? '5 3' : undefined}
              >
                <title>{l.name}</title>
              </path>
            ))}
            <text x={innerW / 2} y={innerH + 34} textAnchor="middle" fontSize={12}>time since the SYN (s)</text>
            <text transform={`translate(${-margin.left + 14},${innerH / 2}) rotate(-90)`} textAnchor="middle" fontSize={12}>cwnd (segments)</text>
          </g>
        </svg>
      </div>
      <ul className="legend">
        {lines.map((l) => (
          <li key={l.name}><span className="swatch" style={{ background: l.color, borderColor: l.color }} />{l.name}</li>
        ))}
      </ul>
    </figure>
  );
}
