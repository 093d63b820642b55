// Colours. Connections: 14 hues, evenly spaced in HCL (a perceptual space) with vermillion's left
// out (it marks retransmissions and drops), each at three lightnesses: 42 colours that stay apart
// at 40 connections, the first 14 all different hues. Schemes: one fixed colour per sharing scheme
// across the whole app (sweeps, bars, compare mode), each dark enough to read on white.
import { hcl } from 'd3-color';

/** Retransmissions ("R") and drops ("×"): vermillion, never used for a connection. */
export const alertColor = '#D55E00';
export const ackColor = '#555555';

const hueCount = 14;
/** Lightness of each round of hues: mid first, then darker, then lighter (never pale on white). */
const lightness = [52, 36, 66];
// Hues in HCL degrees, evenly spaced over the wheel less 20°–80° (vermillion and its neighbours,
// the alert colour), starting from blue; taken five steps (107°) apart, so that neighbouring
// connections differ most.
const hueStride = 5;
const hues = Array.from({ length: hueCount }, (_, i) => (((250 - 80 + (((i * hueStride) % hueCount) * 300) / hueCount) % 300) + 80) % 360);

export const connectionColors: string[] = lightness.flatMap((l) => hues.map((h) => hcl(h, l > 60 ? 45 : 60, l).formatHex()));

export function colorOf(index: number): string {
  return connectionColors[((index % connectionColors.length) + connectionColors.length) % connectionColors.length];
}

/**
 * One colour per sharing scheme, the same in every chart: the baseline in grey, RFC 9040's two in
 * blues, the 1999 schemes in purples, ambers and browns, today's reuse in teal, green and magenta.
 */
export const schemeColors: Readonly<Record<string, string>> = {
  independent: '#4D4D4D',
  'rfc9040-temporal': '#0072B2',
  'rfc9040-ensemble': '#4B9AD6',
  'mv-tcbi': '#7A5195',
  'fs-tcbi': '#B05FA7',
  etcp: '#C77C00',
  'tcp-int': '#A23B24',
  spand: '#6B6B00',
  'congestion-manager': '#3F007D',
  'careful-resume': '#00876C',
  'linux-tcp-metrics': '#4C8C2B',
  'bdp-resume': '#D1006F',
};

/** The scheme's colour, or undefined for a name that is not a scheme. */
export const schemeColor = (name: string): string | undefined => schemeColors[name];

/** Bars of series that are not schemes (a metric each): shades of grey, darkest first. */
export const neutralColors = ['#3A3A3A', '#8A8A8A', '#C2C2C2', '#5F5F5F', '#A6A6A6'];
