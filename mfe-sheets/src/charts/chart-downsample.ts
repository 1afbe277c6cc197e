import type { ChartPoint } from './chart-data.js';

/**
 * The points of a line or area chart worth drawing at `columns` pixels wide: per pixel column the
 * first and last point and each series' lowest and highest (the M4 aggregation, Jugel et al.,
 * VLDB 2014), plus each series' first gap, so the line drawn covers the same pixels as the whole
 * series, spikes and breaks included. A 10,000-row line on a 600-pixel chart draws a few thousand
 * points instead: its render and its redraw after an edit cost that much less. A category axis
 * spaces points evenly, so every pixel column gets the same number of slots (the last point kept
 * repeats to fill them): each point stays over its own column.
 */
export function pointsForWidth(points: ChartPoint[], seriesKeys: readonly string[], columns: number): ChartPoint[] {
  const perColumn = 2 + 3 * seriesKeys.length;
  const width = Math.max(1, Math.floor(columns));
  if (points.length <= perColumn * width) return points;
  const kept: ChartPoint[] = [];
  const take = new Set<number>();
  for (let column = 0; column < width; column++) {
    const from = Math.floor((column * points.length) / width);
    const to = Math.floor(((column + 1) * points.length) / width);
    if (from >= to) continue;
    take.clear();
    take.add(from).add(to - 1);
    for (const key of seriesKeys) {
      let low = -1;
      let high = -1;
      let gap = -1;
      for (let i = from; i < to; i++) {
        const v = points[i]![key];
        if (typeof v !== 'number') {
          if (gap < 0) gap = i;
          continue;
        }
        if (low < 0 || v < (points[low]![key] as number)) low = i;
        if (high < 0 || v > (points[high]![key] as number)) high = i;
      }
      if (low >= 0) take.add(low).add(high);
      if (gap >= 0) take.add(gap);
    }
    const order = [...take].sort((a, b) => a - b);
    for (let slot = 0; slot < perColumn; slot++) kept.push(points[order[Math.min(slot, order.length - 1)]!]!);
  }
  return kept;
}
