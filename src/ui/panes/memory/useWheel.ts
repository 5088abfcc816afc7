import type { RefObject } from 'react';
import { useEffect, useRef } from 'react';

/**
 * Calls `onWheel` for wheel events over the element and keeps them from scrolling the page.
 * React's onWheel listens passively, so it cannot preventDefault; this listener is not passive.
 */
export function useWheel<E extends Element>(target: RefObject<E | null>, onWheel: (e: WheelEvent, el: E) => void): void {
  const latest = useRef(onWheel);
  latest.current = onWheel;
  useEffect(() => {
    const el = target.current;
    if (!el) return;
    const listener = (e: Event) => {
      e.preventDefault();
      latest.current(e as WheelEvent, el);
    };
    el.addEventListener('wheel', listener, { passive: false });
    return () => el.removeEventListener('wheel', listener);
  }, [target]);
}
