// Statistics of a metric over a grid point's replications: n, mean, sample standard deviation and
// the 95% Student-t confidence interval of the mean (mean ± t(0.975, n-1) · sd/√n), as sim-core's
// experiment reports give them.
import tQuantile from '@stdlib/stats-base-dists-t-quantile';

export interface MetricStats {
  n: number;
  mean: number | null;
  sd: number | null;
  ci95: [number, number] | null;
}

/** From the count, mean and sample sd PostgreSQL computed (null sd below two values). */
export function metricStats(n: number, mean: number | null, sd: number | null): MetricStats {
  if (n === 0 || mean === null) return { n, mean: null, sd: null, ci95: null };
  if (n < 2 || sd === null) return { n, mean, sd: null, ci95: null };
  const half = tQuantile(0.975, n - 1) * (sd / Math.sqrt(n));
  return { n, mean, sd, ci95: [mean - half, mean + half] };
}
