// Whether a soak's memory kept growing, from RSS samples taken at even intervals: the first quarter
// is warm-up (the store filling to --max-pets, V8's heap finding its size); memory grows without
// bound when the last quarter sits well above the second.
const MB = 1024 * 1024;

export interface GrowthVerdict {
  /** Median RSS of the second quarter and of the last, in bytes. */
  readonly settled: number;
  readonly last: number;
  readonly growing: boolean;
}

export function growthVerdict(samples: readonly number[]): GrowthVerdict {
  const quarter = (n: number) =>
    median(samples.slice(Math.floor((samples.length * n) / 4), Math.floor((samples.length * (n + 1)) / 4)));
  const settled = quarter(1);
  const last = quarter(3);
  return { settled, last, growing: last - settled > Math.max(32 * MB, settled * 0.2) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
