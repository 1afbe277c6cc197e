import { useCallback, useEffect, useState } from 'react';
import { CHART_STRIP_BELOW } from './ChartLayer.js';

/**
 * Whether the sheet's area is narrow enough for the charts to go to the side strip (issue 20):
 * its width, measured on the element given to `ref` (one whose width the strip does not change),
 * again on every resize. An element not laid out yet (width 0) counts as wide.
 */
export function useChartStrip(): { ref: (el: HTMLElement | null) => void; narrow: boolean } {
  const [el, setEl] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    window.addEventListener('resize', measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [el]);
  const ref = useCallback((next: HTMLElement | null) => setEl(next), []);
  return { ref, narrow: width > 0 && width < CHART_STRIP_BELOW };
}
