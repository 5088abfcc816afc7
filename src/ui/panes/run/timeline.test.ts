import { describe, expect, it } from 'vitest';
import type { Lane, Spans } from '../../../sim/profile/types';
import { PHASES, type Phase } from '../../../sim/profile/types';
import { makeProfile } from '../../../sim/profile/fixture';
import {
  brushView, clampView, endVisible, firstVisible, indexSpans, MIN_SPAN, paintRow, panView, pixel, Rects, rowRects, shortCycles, spanAt, ticks, zoomView,
} from './timeline';

type Row = [lane: number, phase: Phase, start: number, end: number];

function spansOf(rows: Row[]): Spans {
  const n = rows.length;
  return {
    count: n,
    lane: Uint8Array.from(rows.map((r) => r[0])),
    phase: Uint8Array.from(rows.map((r) => PHASES.indexOf(r[1]))),
    layer: new Int32Array(n).fill(-1),
    tile: new Int32Array(n).fill(-1),
    start: Float64Array.from(rows.map((r) => r[2])),
    end: Float64Array.from(rows.map((r) => r[3])),
  };
}

const LANES: Lane[] = [{ id: 2, name: 'a', kind: 'worker' }, { id: 0, name: 'ctl', kind: 'controller' }, { id: 5, name: 'dma', kind: 'dma' }];

function setup(rows: Row[]) {
  const spans = spansOf(rows);
  return { spans, idx: indexSpans({ lanes: LANES, spans, start: 0, end: 100 }) };
}

/** The spans a view holds on a row, by brute force. */
function brute(spans: Spans, lane: number, t0: number, t1: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < spans.count; i++) if (spans.lane[i] === lane && spans.end[i]! > t0 && spans.start[i]! < t1) out.push(i);
  return out;
}

describe('span index and visible spans', () => {
  it('finds each lane\'s range in the profile\'s lane order, and the extent of all spans', () => {
    const { idx } = setup([[0, 'control', 5, 10], [0, 'kernel', 10, 40], [2, 'busy', 12, 30], [5, 'transfer', 8, 90]]);
    expect([...idx.from]).toEqual([2, 0, 3]);
    expect([...idx.to]).toEqual([3, 2, 4]);
    expect(idx.extent).toEqual({ t0: 5, t1: 90 });
  });

  it('an empty lane has an empty range; no spans at all falls back to the run', () => {
    const { idx } = setup([[0, 'control', 5, 10]]);
    expect(idx.to[0]! - idx.from[0]!).toBe(0);
    const empty = indexSpans({ lanes: LANES, spans: spansOf([]), start: 40, end: 70 });
    expect(empty.extent).toEqual({ t0: 40, t1: 70 });
  });

  it('selects exactly the spans overlapping the view, on a large lane, for many views', () => {
    const p = makeProfile({ layers: 6, tilesPerLayer: 20 });
    const idx = indexSpans(p);
    const row = p.lanes.findIndex((l) => l.id === 0);
    for (const [t0, t1] of [[0, 50], [333, 1234], [5000, 5001], [p.end - 10, p.total + 100], [-50, 1e9]] as const) {
      const a = firstVisible(idx, row, t0), b = endVisible(p.spans, idx, row, t1);
      const got: number[] = [];
      for (let i = a; i < b; i++) if (p.spans.end[i]! > t0) got.push(i);
      expect(got).toEqual(brute(p.spans, 0, t0, t1));
    }
  });

  it('keeps a long span that started before the view even when shorter ones follow it (overlapping lane)', () => {
    // The contract says lanes do not overlap; the index must not lose spans if one ever does.
    const { spans, idx } = setup([[0, 'kernel', 0, 100], [0, 'control', 10, 20], [0, 'control', 30, 40]]);
    const a = firstVisible(idx, 1, 50);
    expect(a).toBe(0);
    const r = new Rects();
    expect(rowRects(spans, idx, 1, { t0: 50, t1: 60 }, 100, r)).toBe(1);
    expect(r.count).toBe(1);
    expect(r.x[0]).toBe(0);
    expect(r.w[0]).toBe(100);
  });
});

describe('rowRects', () => {
  it('draws wide spans as they are, clipped to the plot', () => {
    const { spans, idx } = setup([[0, 'control', 0, 10], [0, 'kernel', 10, 60], [0, 'dma-out', 60, 100]]);
    const r = new Rects();
    expect(rowRects(spans, idx, 1, { t0: 5, t1: 85 }, 160, r)).toBe(3);
    expect(r.count).toBe(3);
    expect([...r.x.slice(0, 3)]).toEqual([0, 10, 110]);
    expect([...r.w.slice(0, 3)]).toEqual([10, 100, 50]);
    expect([...r.phase.slice(0, 3)].map((p) => PHASES[p])).toEqual(['control', 'kernel', 'dma-out']);
  });

  it('merges sub-pixel spans into pixel-wide rectangles coloured by the phase with most cycles', () => {
    // 1000 spans of 1 cycle in 10 pixels (100 cycles a pixel): 2 of 3 cycles busy, 1 barrier.
    const rows: Row[] = [];
    for (let i = 0; i < 1000; i++) rows.push([2, i % 3 === 2 ? 'barrier' : 'busy', i, i + 1]);
    const { spans, idx } = setup(rows);
    const r = new Rects();
    expect(rowRects(spans, idx, 0, { t0: 0, t1: 1000 }, 10, r)).toBe(1000);
    expect(r.count).toBeGreaterThanOrEqual(9);
    expect(r.count).toBeLessThanOrEqual(11);
    for (let k = 0; k < r.count; k++) expect(PHASES[r.phase[k]!]).toBe('busy');
    // They tile the row: no pixel lost, none drawn twice over.
    let covered = 0;
    for (let k = 0; k < r.count; k++) covered += r.w[k]!;
    expect(covered).toBeGreaterThanOrEqual(9.9);
    expect(covered).toBeLessThanOrEqual(11);
  });

  it('keeps a wide span its own colour among narrow ones, and leaves gaps of a pixel or more', () => {
    const { spans, idx } = setup([
      [2, 'barrier', 0, 1], [2, 'barrier', 1, 2], // sub-pixel (10 cycles a pixel)
      [2, 'busy', 2, 200], // wide
      [2, 'barrier', 200, 201],
      [2, 'barrier', 500, 501], // far away: its own rectangle
    ]);
    const r = new Rects();
    rowRects(spans, idx, 0, { t0: 0, t1: 1000 }, 100, r);
    const got = Array.from({ length: r.count }, (_, k) => [PHASES[r.phase[k]!], Math.round(r.x[k]! * 10) / 10, Math.round(r.w[k]! * 10) / 10]);
    expect(got).toEqual([['barrier', 0, 1], ['busy', 0.2, 19.8], ['barrier', 20, 1], ['barrier', 50, 1]]);
  });

  it('bounds the rectangles by the pixels however many spans there are', () => {
    const p = makeProfile({ layers: 20, tilesPerLayer: 100 });
    const idx = indexSpans(p);
    const r = new Rects();
    let visible = 0;
    for (let row = 0; row < p.lanes.length; row++) visible += rowRects(p.spans, idx, row, idx.extent, 800, r);
    expect(visible).toBe(p.spans.count);
    expect(r.count).toBeLessThanOrEqual(p.lanes.length * 2 * 800);
    expect(r.count).toBeLessThan(p.spans.count / 5);
  });
});

describe('painting pixels', () => {
  it('packs colours as ImageData bytes R, G, B, A read little-endian', () => {
    const px = new Uint32Array([pixel('#102030'), pixel('#ffffff', 0)]);
    expect([...new Uint8Array(px.buffer)]).toEqual([0x10, 0x20, 0x30, 255, 255, 255, 255, 0]);
  });

  it('paints each rectangle over at least one device pixel, clipped to the row, later over earlier', () => {
    const r = new Rects();
    r.push(0, 2.4, 0); // pixels 0..4 at dpr 2 (4.8 rounds to 5)
    r.push(2.4, 0.1, 1); // narrow: still one pixel (4)
    r.push(9, 5, 2); // clipped at the row's end
    const row = new Uint32Array(20);
    paintRow(row, r, 2, Uint32Array.from([1, 2, 3]));
    expect([...row]).toEqual([1, 1, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3]);
  });
});

describe('spanAt', () => {
  const { spans, idx } = setup([[0, 'control', 0, 10], [0, 'kernel', 20, 60], [2, 'busy', 5, 6]]);
  it('finds the span under a time, or the nearest within the tolerance', () => {
    expect(spanAt(spans, idx, 1, 30, 0)).toBe(1);
    expect(spanAt(spans, idx, 1, 0, 0)).toBe(0);
    expect(spanAt(spans, idx, 1, 10, 0)).toBe(-1); // ends are exclusive
    expect(spanAt(spans, idx, 1, 14, 5)).toBe(0);
    expect(spanAt(spans, idx, 1, 16, 5)).toBe(1);
    expect(spanAt(spans, idx, 1, 80, 5)).toBe(-1);
    expect(spanAt(spans, idx, 0, 7, 2)).toBe(2);
    expect(spanAt(spans, idx, 2, 7, 100)).toBe(-1); // a lane without spans
  });
});

describe('view arithmetic', () => {
  const ext = { t0: 0, t1: 1000 };
  it('zooms about the pointer and stays in the extent', () => {
    expect(zoomView(ext, ext, 0.5, 0.5)).toEqual({ t0: 250, t1: 750 });
    expect(zoomView({ t0: 0, t1: 100 }, ext, 0.5, 0)).toEqual({ t0: 0, t1: 50 });
    expect(zoomView({ t0: 100, t1: 200 }, ext, 100, 0.5)).toEqual(ext);
    const tiny = zoomView({ t0: 500, t1: 510 }, ext, 0.01, 0.5);
    expect(tiny.t1 - tiny.t0).toBe(MIN_SPAN);
    expect((tiny.t0 + tiny.t1) / 2).toBeCloseTo(505);
  });
  it('pans by pixels and stops at the ends', () => {
    expect(panView({ t0: 100, t1: 200 }, ext, 50, 100)).toEqual({ t0: 50, t1: 150 });
    expect(panView({ t0: 100, t1: 200 }, ext, 500, 100)).toEqual({ t0: 0, t1: 100 });
    expect(panView({ t0: 100, t1: 200 }, ext, -5000, 100)).toEqual({ t0: 900, t1: 1000 });
  });
  it('brushes in either direction, clipped to the plot', () => {
    expect(brushView({ t0: 0, t1: 1000 }, ext, 60, 20, 100)).toEqual({ t0: 200, t1: 600 });
    expect(brushView({ t0: 0, t1: 1000 }, ext, -10, 30, 100)).toEqual({ t0: 0, t1: 300 });
  });
  it('clamps a view outside the extent back into it', () => {
    expect(clampView({ t0: -500, t1: -400 }, ext)).toEqual({ t0: 0, t1: 100 });
  });
  it('places round ticks', () => {
    expect(ticks({ t0: 0, t1: 1000 }, 5)).toEqual([0, 200, 400, 600, 800]);
    expect(ticks({ t0: 1234, t1: 1300 }, 3)).toEqual([1240, 1260, 1280]);
    expect(shortCycles(950)).toBe('950');
    expect(shortCycles(12_345)).toBe('12.3k');
    expect(shortCycles(4_560_000)).toBe('4.56M');
  });
});
