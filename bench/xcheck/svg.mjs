// Congestion-window overlays of the fidelity comparison as standalone SVG: one panel per flow, the
// two simulators' windows as step lines over time. Written by hand (polylines, ticks, text): a
// plot this plain needs no plotting library.

// The vertices of a step function that holds each value until the next change, and the last one
// until `endS`.
export function stepPoints(timesS, values, endS) {
  const points = [];
  for (let i = 0; i < timesS.length; ++i) {
    if (i > 0) points.push([timesS[i], values[i - 1]]);
    points.push([timesS[i], values[i]]);
  }
  if (timesS.length > 0 && endS > timesS[timesS.length - 1]) points.push([endS, values[values.length - 1]]);
  return points;
}

// At most four points per bucket of the x range (the first, lowest, highest and last, in time
// order), so that a million-point trace keeps its envelope in a few thousand points.
export function thin(points, x0, x1, buckets) {
  if (points.length <= 4 * buckets || x1 <= x0) return points;
  const out = [];
  let start = 0;
  const bucketOf = (x) => Math.min(buckets - 1, Math.max(0, Math.floor(((x - x0) / (x1 - x0)) * buckets)));
  while (start < points.length) {
    const b = bucketOf(points[start][0]);
    let end = start;
    let lo = start;
    let hi = start;
    while (end + 1 < points.length && bucketOf(points[end + 1][0]) === b) {
      ++end;
      if (points[end][1] < points[lo][1]) lo = end;
      if (points[end][1] > points[hi][1]) hi = end;
    }
    for (const i of [...new Set([start, lo, hi, end])].sort((a, b2) => a - b2)) out.push(points[i]);
    start = end + 1;
  }
  return out;
}

// Round tick values (1, 2 or 5 times a power of ten) covering [min, max] with about `count` ticks;
// the step nearest the raw one on a log scale, as d3's ticks choose it.
export function niceTicks(min, max, count = 5) {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const error = raw / power;
  const step = power * (error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.sqrt(2) ? 2 : 1);
  const ticks = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

const escape = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (x) => Number(x.toFixed(2));

// panels: [{label, series: [{name, color, dash?, points: [[tS, y], ...]}]}]; every panel shares
// the x range [0, xMax] and has its own y range from 0, up to yClip at most (lines above it are
// cut at the panel's top edge, and the panel says so with `clipNote`).
export function overlaySvg({ title, subtitle, xLabel, yLabel, xMax, panels, yClip = Infinity, clipNote = '' }) {
  const width = 960;
  const panelHeight = 240;
  const margin = { left: 70, right: 20, top: 70, gap: 56 };
  const plotWidth = width - margin.left - margin.right;
  const height = margin.top + panels.length * (panelHeight + margin.gap);
  const xTicks = niceTicks(0, xMax, 10);
  const x = (t) => margin.left + (t / xMax) * plotWidth;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${margin.left}" y="22" font-size="15" font-weight="bold">${escape(title)}</text>`,
    `<text x="${margin.left}" y="40" fill="#444">${escape(subtitle)}</text>`,
  ];
  const names = panels[0]?.series ?? [];
  names.forEach((s, i) => {
    const lx = width - margin.right - 150 * (names.length - i);
    out.push(
      `<line x1="${lx}" y1="56" x2="${lx + 28}" y2="56" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`,
      `<text x="${lx + 34}" y="60">${escape(s.name)}</text>`,
    );
  });
  panels.forEach((panel, p) => {
    const top = margin.top + p * (panelHeight + margin.gap) + 10;
    const bottom = top + panelHeight;
    let yMax = 1;
    for (const s of panel.series) for (const pt of s.points) yMax = Math.max(yMax, pt[1]);
    const clipped = yMax > yClip;
    if (clipped) yMax = yClip;
    const yTicks = niceTicks(0, yMax * 1.05, 5);
    const yTop = Math.max(yMax * 1.05, yTicks[yTicks.length - 1]);
    const y = (v) => bottom - (v / yTop) * panelHeight;
    out.push(
      `<text x="${margin.left}" y="${top - 4}"><tspan font-weight="bold">${escape(panel.label)}</tspan>${clipped ? `<tspan fill="#444">  ${escape(clipNote)}</tspan>` : ''}</text>`,
      `<clipPath id="plot${p}"><rect x="${margin.left}" y="${top}" width="${plotWidth}" height="${panelHeight}"/></clipPath>`,
    );
    for (const t of yTicks) {
      out.push(
        `<line x1="${margin.left}" x2="${width - margin.right}" y1="${fmt(y(t))}" y2="${fmt(y(t))}" stroke="#e4e4e4"/>`,
        `<text x="${margin.left - 6}" y="${fmt(y(t)) + 4}" text-anchor="end">${t}</text>`,
      );
    }
    for (const t of xTicks) {
      out.push(
        `<line x1="${fmt(x(t))}" x2="${fmt(x(t))}" y1="${bottom}" y2="${bottom + 4}" stroke="#333"/>`,
        `<text x="${fmt(x(t))}" y="${bottom + 17}" text-anchor="middle">${t}</text>`,
      );
    }
    out.push(
      `<line x1="${margin.left}" x2="${width - margin.right}" y1="${bottom}" y2="${bottom}" stroke="#333"/>`,
      `<line x1="${margin.left}" x2="${margin.left}" y1="${top}" y2="${bottom}" stroke="#333"/>`,
      `<text x="${margin.left + plotWidth / 2}" y="${bottom + 34}" text-anchor="middle">${escape(xLabel)}</text>`,
      `<text transform="translate(18 ${(top + bottom) / 2}) rotate(-90)" text-anchor="middle">${escape(yLabel)}</text>`,
    );
    for (const s of panel.series) {
      const pts = thin(s.points, 0, xMax, plotWidth)
        .map(([t, v]) => `${fmt(x(t))},${fmt(y(v))}`)
        .join(' ');
      out.push(
        `<polyline clip-path="url(#plot${p})" fill="none" stroke="${s.color}" stroke-width="1.2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''} points="${pts}"/>`,
      );
    }
  });
  out.push('</svg>', '');
  return out.join('\n');
}
