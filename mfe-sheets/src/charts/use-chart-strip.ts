import { useCallback, useEffect, useState } from 'react';
import { CHART_STRIP_BELOW, CHART_STRIP_MAX_WIDTH } from './ChartLayer.js';

/**
 * Whether the sheet's area is narrow enough for the charts to go to the side strip (issue 20):
 * its width, measured on the element given to `ref` (one whose width the strip does not change),
 * again on every resize. An element not laid out yet (width 0) counts as wide. The strip takes at
 * most half the area (the grid keeps the rest), and at most CHART_STRIP_MAX_WIDTH.
 */
export function useChartStrip(): { ref: (el: HTMLElement | null) => void; narrow: boolean; width: number } {
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
  return { ref, narrow: width > 0 && width < CHART_STRIP_BELOW, width: Math.min(CHART_STRIP_MAX_WIDTH, Math.round(width / 2)) };
}
