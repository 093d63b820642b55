// The charts of few marks, all SVG: grouped bars (BarChart.tsx) and sweep lines with confidence
// intervals (SweepChart.tsx).
export { BarChart, type Bars } from './BarChart';
export { SweepChart, type SweepLine } from './SweepChart';
