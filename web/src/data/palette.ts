// Colours that stay distinguishable for the common colour-vision deficiencies: Okabe & Ito's eight
// (without vermillion, kept for retransmissions and drops) followed by Paul Tol's "muted" set.
export const connectionColors = [
  '#0072B2', // blue
  '#E69F00', // orange
  '#009E73', // bluish green
  '#CC79A7', // reddish purple
  '#56B4E9', // sky blue
  '#F0E442', // yellow
  '#000000', // black
  '#332288', // indigo (Tol)
  '#117733', // green (Tol)
  '#882255', // wine (Tol)
  '#44AA99', // teal (Tol)
  '#999933', // olive (Tol)
  '#AA4499', // purple (Tol)
  '#88CCEE', // cyan (Tol)
  '#DDCC77', // sand (Tol)
];

/** Retransmissions ("R") and drops ("×"): vermillion, never used for a connection. */
export const alertColor = '#D55E00';
export const ackColor = '#555555';

export function colorOf(index: number): string {
  return connectionColors[((index % connectionColors.length) + connectionColors.length) % connectionColors.length];
}
