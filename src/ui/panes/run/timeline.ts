// The timeline's arithmetic, apart from the canvas: which spans a view shows (binary search per
// lane), how spans narrower than a pixel merge into one rectangle (coloured by the phase holding
// most of its cycles), which span is under the pointer, and the view's zoom, pan and clamping.
// Pure and allocation-free per frame: the canvas component calls it once per lane per frame.
import type { RunProfile, Spans } from '../../../sim/profile/types';
import { PHASES } from '../../../sim/profile/types';

/** A time window in cycles, [t0, t1). */
export interface View { t0: number; t1: number }

/**
 * Where each lane's spans are: spans are sorted by lane then start, so a lane is one index range
 * [from, to). maxEnd[i] is the largest end among the lane's spans up to i: non-decreasing within
 * a lane, so the first span that can reach into a view is a binary search even if spans overlapped.
 */
export interface SpanIndex {
  /** Per row (profile.lanes order): the lane's first span and one past its last. */
  from: Int32Array;
  to: Int32Array;
  maxEnd: Float64Array;
  /** First cycle and last end over all spans (the profile's run when there are none). */
  extent: View;
}

export function indexSpans(profile: Pick<RunProfile, 'lanes' | 'spans' | 'start' | 'end'>): SpanIndex {
  const { spans, lanes } = profile;
  const rows = lanes.length;
  const from = new Int32Array(rows), to = new Int32Array(rows);
  const rowOf = new Map(lanes.map((l, i) => [l.id, i]));
  const maxEnd = new Float64Array(spans.count);
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < spans.count;) {
    const lane = spans.lane[i]!;
    let j = i;
    let m = -Infinity;
    for (; j < spans.count && spans.lane[j] === lane; j++) {
      m = Math.max(m, spans.end[j]!);
      maxEnd[j] = m;
      lo = Math.min(lo, spans.start[j]!);
    }
    hi = Math.max(hi, m);
    const row = rowOf.get(lane);
    // Spans on a lane the profile does not list are not drawn.
    if (row !== undefined) { from[row] = i; to[row] = j; }
    i = j;
  }
  const extent = spans.count > 0 ? { t0: lo, t1: hi } : { t0: profile.start, t1: Math.max(profile.end, profile.start + 1) };
  return { from, to, maxEnd, extent };
}

/** The first span of the row that may reach into [t0, ...): the first whose maxEnd > t0. */
export function firstVisible(idx: SpanIndex, row: number, t0: number): number {
  let lo = idx.from[row]!, hi = idx.to[row]!;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (idx.maxEnd[mid]! > t0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** One past the last span of the row starting before t1 (at or before it when `inclusive`). */
export function endVisible(spans: Spans, idx: SpanIndex, row: number, t1: number, inclusive = false): number {
  let lo = idx.from[row]!, hi = idx.to[row]!;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const s = spans.start[mid]!;
    if (s < t1 || (inclusive && s === t1)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Rectangles to draw, in CSS pixels from the plot's left edge; grows as needed, reused across frames. */
export class Rects {
  count = 0;
  x = new Float64Array(1024);
  w = new Float64Array(1024);
  phase = new Uint8Array(1024);
  push(x: number, w: number, phase: number): void {
    if (this.count === this.x.length) {
      const n = this.count * 2;
      const grow = <A extends Float64Array | Uint8Array>(a: A, make: (n: number) => A) => { const b = make(n); b.set(a); return b; };
      this.x = grow(this.x, (k) => new Float64Array(k));
      this.w = grow(this.w, (k) => new Float64Array(k));
      this.phase = grow(this.phase, (k) => new Uint8Array(k));
    }
    this.x[this.count] = x;
    this.w[this.count] = w;
    this.phase[this.count] = phase;
    this.count++;
  }
}

const tally = new Float64Array(PHASES.length);

/**
 * The rectangles of one row for a view `width` pixels wide, appended to `out`; returns how many
 * spans the view holds on the row. A span a pixel wide or more is its own rectangle; runs of
 * narrower spans with less than a pixel between them merge until the merged rectangle is a pixel
 * wide, coloured by the phase with most cycles in it, and drawn at least a pixel wide. So a row
 * never has many more rectangles than pixels, however many spans it holds.
 */
export function rowRects(spans: Spans, idx: SpanIndex, row: number, view: View, width: number, out: Rects): number {
  const a = firstVisible(idx, row, view.t0);
  const b = endVisible(spans, idx, row, view.t1);
  const scale = width / (view.t1 - view.t0);
  let visible = 0;
  let open = false;
  let gx0 = 0, gx1 = 0;
  const flush = () => {
    let best = 0;
    for (let p = 1; p < tally.length; p++) if (tally[p]! > tally[best]!) best = p;
    out.push(gx0, Math.max(1, gx1 - gx0), best);
    tally.fill(0);
    open = false;
  };
  for (let i = a; i < b; i++) {
    const s = spans.start[i]!, e = spans.end[i]!;
    if (e <= view.t0) continue; // an earlier, longer span keeps maxEnd above t0
    visible++;
    const x0 = Math.max(0, (s - view.t0) * scale);
    const x1 = Math.min(width, (e - view.t0) * scale);
    if (x1 - x0 >= 1) {
      if (open) flush();
      out.push(x0, x1 - x0, spans.phase[i]!);
      continue;
    }
    if (open && (gx1 - gx0 >= 1 || x0 - gx1 >= 1)) flush();
    if (!open) { gx0 = x0; gx1 = x1; open = true; }
    else gx1 = Math.max(gx1, x1);
    tally[spans.phase[i]!]! += e - s;
  }
  if (open) flush();
  return visible;
}

/**
 * A '#rrggbb' colour as one pixel of an ImageData seen as a Uint32Array: the bytes are R, G, B, A
 * in memory, so on a little-endian machine (every browser's) the number is 0xAABBGGRR.
 */
export function pixel(hex: string, alpha = 255): number {
  const n = parseInt(hex.slice(1), 16);
  return (((alpha & 255) << 24) | ((n & 255) << 16) | (n & 0xff00) | ((n >> 16) & 255)) >>> 0;
}

/**
 * Paints rectangles (CSS pixels) into one row of device pixels, `dpr` of them per CSS pixel:
 * each covers from the pixel its left edge falls in to its right edge rounded, at least one pixel;
 * later rectangles paint over earlier ones.
 */
export function paintRow(row: Uint32Array, r: Rects, dpr: number, colours: Uint32Array): void {
  for (let k = 0; k < r.count; k++) {
    const x0 = Math.max(0, Math.floor(r.x[k]! * dpr));
    const x1 = Math.min(row.length, Math.max(x0 + 1, Math.round((r.x[k]! + r.w[k]!) * dpr)));
    if (x1 > x0) row.fill(colours[r.phase[k]!]!, x0, x1);
  }
}

/**
 * The span of the row under time t, or the nearest one within `tol` cycles (a span narrower than
 * a pixel is hard to hit exactly); -1 when none.
 */
export function spanAt(spans: Spans, idx: SpanIndex, row: number, t: number, tol: number): number {
  const from = idx.from[row]!;
  // The last span starting at or before t + tol; earlier ones may still hold t while maxEnd > t - tol.
  let j = endVisible(spans, idx, row, t + tol, true) - 1;
  let best = -1, bestDist = Infinity;
  for (; j >= from && idx.maxEnd[j]! > t - tol; j--) {
    const s = spans.start[j]!, e = spans.end[j]!;
    const d = t < s ? s - t : t >= e ? t - e : 0;
    // Ties go to the later span (met first), the one drawn on top.
    if (d < bestDist) { best = j; bestDist = d; }
  }
  return bestDist <= tol ? best : -1;
}

/** The narrowest view: a few cycles across the plot. */
export const MIN_SPAN = 8;

/** The view kept inside `extent` and at least MIN_SPAN cycles wide, its width kept when it can be. */
export function clampView(v: View, extent: View): View {
  const full = extent.t1 - extent.t0;
  const w = Math.min(full, Math.max(MIN_SPAN, v.t1 - v.t0));
  let t0 = v.t0;
  if (v.t1 - v.t0 < MIN_SPAN) t0 = (v.t0 + v.t1) / 2 - w / 2;
  t0 = Math.min(Math.max(t0, extent.t0), extent.t1 - w);
  return { t0, t1: t0 + w };
}

/** Zooms by `factor` (< 1 zooms in) keeping the time at `frac` of the width where it is. */
export function zoomView(v: View, extent: View, factor: number, frac: number): View {
  const at = v.t0 + frac * (v.t1 - v.t0);
  const w = (v.t1 - v.t0) * factor;
  return clampView({ t0: at - frac * w, t1: at - frac * w + w }, extent);
}

/** Moves the view by `dx` pixels of a `width`-pixel plot (dragging right shows earlier times). */
export function panView(v: View, extent: View, dx: number, width: number): View {
  const dt = (dx / width) * (v.t1 - v.t0);
  return clampView({ t0: v.t0 - dt, t1: v.t1 - dt }, extent);
}

/** The view spanning two pixel positions of a brush (in either order). */
export function brushView(v: View, extent: View, xa: number, xb: number, width: number): View {
  const t = (x: number) => v.t0 + (Math.min(Math.max(x, 0), width) / width) * (v.t1 - v.t0);
  return clampView({ t0: t(Math.min(xa, xb)), t1: t(Math.max(xa, xb)) }, extent);
}

/** Axis ticks: a round step (1, 2 or 5 times a power of ten) giving about `count` ticks. */
export function ticks(v: View, count: number): number[] {
  const raw = (v.t1 - v.t0) / Math.max(1, count);
  if (!(raw > 0)) return [];
  const p = 10 ** Math.floor(Math.log10(raw));
  // The candidate nearest the raw step (on a log scale).
  let step = p;
  for (const m of [2, 5, 10]) if (Math.abs(Math.log(m * p / raw)) < Math.abs(Math.log(step / raw))) step = m * p;
  const out: number[] = [];
  for (let t = Math.ceil(v.t0 / step) * step; t < v.t1; t += step) out.push(t);
  return out;
}

/** Cycles, short: 950, 12.3k, 4.56M. */
export function shortCycles(n: number): string {
  const a = Math.abs(n);
  if (a >= 1e9) return `${+(n / 1e9).toPrecision(3)}G`;
  if (a >= 1e6) return `${+(n / 1e6).toPrecision(3)}M`;
  if (a >= 1e4) return `${+(n / 1e3).toPrecision(3)}k`;
  return `${Math.round(n)}`;
}
