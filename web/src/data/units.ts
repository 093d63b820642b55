// Numbers with their units as a reader reads them: sizes in B, kB, MB, GB (decimal prefixes, as
// the scenario's sizes are written), rates and other quantities with SI prefixes.

/** A size in bytes with a decimal prefix: 5.3 MB, 100 kB, 512 B. */
export function bytesLabel(bytes: number): string {
  if (bytes >= 1e9) return `${+(bytes / 1e9).toPrecision(3)} GB`;
  if (bytes >= 1e6) return `${+(bytes / 1e6).toPrecision(3)} MB`;
  if (bytes >= 1e3) return `${+(bytes / 1e3).toPrecision(3)} kB`;
  return `${bytes} B`;
}

/** A duration in seconds, with minutes beside from two minutes up: "10 s", "10 min (600 s)". */
export function secondsLabel(v: number): string {
  return v >= 120 ? `${+(v / 60).toPrecision(3)} min (${v} s)` : `${v} s`;
}
