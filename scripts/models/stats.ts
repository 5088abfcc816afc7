// Statistics of a tensor's values, for calibration, the generator's summary and the tests that
// check no activation is degenerate (saturated everywhere or collapsed to a few values).

export interface TensorStats {
  count: number;
  min: number;
  max: number;
  mean: number;
  std: number;
  /** Fraction of elements equal to 0. */
  zeros: number;
  /** Fraction of elements at the int8 clip bounds (-128 or 127). */
  clipped: number;
  /** Number of distinct values. */
  distinct: number;
  /** 16-bin histogram over [histLo, histHi] (int8 range for int8-valued tensors). */
  hist: number[];
  histLo: number;
  histHi: number;
}

const BINS = 16;

export function tensorStats(d: ArrayLike<number>): TensorStats {
  const n = d.length;
  let min = Infinity, max = -Infinity, sum = 0, zeros = 0, clipped = 0;
  for (let i = 0; i < n; i++) {
    const v = d[i];
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    if (v === 0) zeros++;
    if (v === -128 || v === 127) clipped++;
  }
  const mean = n ? sum / n : 0;
  let sq = 0;
  for (let i = 0; i < n; i++) sq += (d[i] - mean) ** 2;
  const distinct = countDistinct(d, min, max);
  const int8 = n > 0 && min >= -128 && max <= 127;
  const histLo = n === 0 ? 0 : int8 ? -128 : min;
  const histHi = n === 0 ? 0 : int8 ? 127 : max;
  const hist = new Array<number>(BINS).fill(0);
  const width = (histHi - histLo + 1) / BINS;
  for (let i = 0; i < n; i++) hist[Math.min(BINS - 1, Math.floor((d[i] - histLo) / width))]++;
  return {
    count: n, min: n ? min : 0, max: n ? max : 0, mean, std: n ? Math.sqrt(sq / n) : 0,
    zeros: n ? zeros / n : 0, clipped: n ? clipped / n : 0, distinct, hist, histLo, histHi,
  };
}

function countDistinct(d: ArrayLike<number>, min: number, max: number): number {
  if (d.length === 0) return 0;
  if (max - min < 1 << 16) {
    const seen = new Uint8Array(max - min + 1);
    let k = 0;
    for (let i = 0; i < d.length; i++) if (!seen[d[i] - min]) { seen[d[i] - min] = 1; k++; }
    return k;
  }
  const a = Float64Array.from(d).sort();
  let k = 1;
  for (let i = 1; i < a.length; i++) if (a[i] !== a[i - 1]) k++;
  return k;
}

/** The q-quantile (0..1) of |x|: what calibration maps to the top of the int8 range. */
export function absQuantile(d: ArrayLike<number>, q: number): number {
  const n = d.length;
  if (n === 0) return 0;
  const rank = Math.min(n - 1, Math.floor(q * (n - 1) + 0.5));
  let top = 0;
  for (let i = 0; i < n; i++) top = Math.max(top, Math.abs(d[i]));
  if (top < 1 << 22) {
    // Integers in a modest range: count them instead of sorting.
    const count = new Uint32Array(top + 1);
    for (let i = 0; i < n; i++) count[Math.abs(d[i])]++;
    for (let v = 0, seen = 0; v <= top; v++) if ((seen += count[v]) > rank) return v;
    return top;
  }
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = Math.abs(d[i]);
  return a.sort()[rank];
}

/** Standard deviation of the values that pass `keep`. */
export function stdOf(d: ArrayLike<number>, keep: (v: number) => boolean = () => true): number {
  let n = 0, s = 0, sq = 0;
  for (let i = 0; i < d.length; i++) {
    const v = d[i];
    if (!keep(v)) continue;
    n++;
    s += v;
    sq += v * v;
  }
  if (n === 0) return 0;
  const m = s / n;
  return Math.sqrt(Math.max(0, sq / n - m * m));
}

const BARS = ' ▁▂▃▄▅▆▇█';

/** The histogram as a one-line bar chart. */
export function sparkline(hist: number[]): string {
  const top = Math.max(...hist, 1);
  return hist.map((h) => BARS[h === 0 ? 0 : Math.max(1, Math.round((h / top) * (BARS.length - 1)))]).join('');
}
