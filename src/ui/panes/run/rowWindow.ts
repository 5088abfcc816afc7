// Windowing for the profile's long lists (a row per layer: hundreds): only the rows in the
// scroll box's view, plus some on either side, are rendered; spacers keep the scroll height.
// Rows have a fixed height (the CSS sets it), so the window follows from the scroll offset.
import { useCallback, useEffect, useState, type RefObject } from 'react';

export interface RowWindow {
  first: number;
  /** One past the last rendered row. */
  end: number;
  padTop: number;
  padBottom: number;
}

/** The rows of [0, count) to render for a box scrolled to `top` showing `height` pixels. */
export function rowWindow(count: number, rowH: number, top: number, height: number, overscan: number): RowWindow {
  const first = Math.max(0, Math.min(count, Math.floor(top / rowH) - overscan));
  const end = Math.max(first, Math.min(count, Math.ceil((top + height) / rowH) + overscan));
  return { first, end, padTop: first * rowH, padBottom: (count - end) * rowH };
}

/**
 * The window of a box's rows, following its scrolling and size; `reveal(i)` scrolls row i into
 * view inside the box only (`header`: pixels of sticky header above the rows).
 */
export function useRowWindow(box: RefObject<HTMLElement | null>, count: number, rowH: number, header = 0, overscan = 20):
  RowWindow & { reveal: (i: number) => void } {
  const [view, setView] = useState({ top: 0, height: 600 });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const update = () => setView((v) => (v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight || 600 }));
    update();
    el.addEventListener('scroll', update, { passive: true });
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(update) : undefined;
    ro?.observe(el);
    return () => { el.removeEventListener('scroll', update); ro?.disconnect(); };
  }, [box]);
  const reveal = useCallback((i: number) => {
    const el = box.current;
    if (!el || i < 0) return;
    const top = i * rowH;
    if (top < el.scrollTop || top + rowH > el.scrollTop + el.clientHeight - header) el.scrollTop = Math.max(0, top - (el.clientHeight - header) / 3);
  }, [box, rowH, header]);
  return { ...rowWindow(count, rowH, Math.max(0, view.top - header), view.height, overscan), reveal };
}
