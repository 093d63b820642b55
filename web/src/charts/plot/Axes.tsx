// A plot's axes in SVG: time below with its label, the y axis with grid lines and its label. The
// same element is copied into an exported SVG.
import { forwardRef } from 'react';
import { formatTime, margin, type Scale } from './types';

export interface AxesProps {
  width: number;
  height: number;
  innerW: number;
  innerH: number;
  sx: Scale;
  sy: Scale;
  xLabel: string;
  yLabel: string;
  yFormat: (v: number) => string;
}

export const Axes = forwardRef<SVGSVGElement, AxesProps>(function Axes({ width, height, innerW, innerH, sx, sy, xLabel, yLabel, yFormat }, ref) {
  const xTicks = sx.ticks(Math.max(2, Math.floor(innerW / 90)));
  const yTicks = sy.ticks(Math.max(2, Math.floor(innerH / 40)));
  return (
    <svg ref={ref} width={width} height={height} style={{ position: 'absolute', left: 0, top: 0 }} aria-hidden="true">
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
              {yFormat(t)}
            </text>
          </g>
        ))}
        <text transform={`translate(${-margin.left + 14},${innerH / 2}) rotate(-90)`} textAnchor="middle" fontSize="12">
          {yLabel}
        </text>
      </g>
    </svg>
  );
});
