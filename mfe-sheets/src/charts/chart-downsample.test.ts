import type { ChartPoint } from './chart-data.js';
import { pointsForWidth } from './chart-downsample.js';

const series = (values: (number | null)[][]): ChartPoint[] =>
  values[0]!.map((_, i) => {
    const p: ChartPoint = { category: String(i + 1), x: i + 1 };
    values.forEach((column, s) => (p[`s${s}`] = column[i]!));
    return p;
  });

/** A deterministic walk with gaps, so every run checks the same sheet. */
function walk(length: number, seed: number, gapsEvery = 0): (number | null)[] {
  let x = seed;
  let v = 0;
  return Array.from({ length }, (_, i) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    v += (x % 200) - 100;
    return gapsEvery && i % gapsEvery === 7 ? null : v;
  });
}

const column = (points: ChartPoint[], width: number, c: number) =>
  points.slice(Math.floor((c * points.length) / width), Math.floor(((c + 1) * points.length) / width));
const numbers = (points: readonly ChartPoint[], key: string) => points.map((p) => p[key]).filter((v): v is number => typeof v === 'number');

describe('a long line drawn at the chart’s width', () => {
  test('a series that fits is drawn whole', () => {
    const points = series([walk(500, 1)]);
    expect(pointsForWidth(points, ['s0'], 600)).toBe(points);
  });

  test('per pixel column the lowest, highest, first and last points and the first gap of every series stay, in order, each over its own column', () => {
    const points = series([walk(10_000, 3, 1_000), walk(10_000, 11)]);
    const width = 480;
    const shown = pointsForWidth(points, ['s0', 's1'], width);
    // The same number of slots per pixel column (2 + 3 per series): a category axis spaces them evenly.
    expect(shown).toHaveLength(width * 8);
    const index = new Map(points.map((p, i) => [p, i]));
    const order = shown.map((p) => index.get(p)!);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    for (let c = 0; c < width; c++) {
      const all = column(points, width, c);
      const kept = shown.slice(c * 8, (c + 1) * 8);
      const own = new Set(all);
      expect(kept.every((p) => own.has(p))).toBe(true);
      expect(kept[0]).toBe(all[0]);
      expect(kept).toContain(all.at(-1));
      for (const key of ['s0', 's1']) {
        expect(Math.min(...numbers(kept, key))).toBe(Math.min(...numbers(all, key)));
        expect(Math.max(...numbers(kept, key))).toBe(Math.max(...numbers(all, key)));
        expect(kept.some((p) => p[key] === null)).toBe(all.some((p) => p[key] === null));
      }
    }
  });

  test('one edited cell, a spike or a dip, is drawn', () => {
    const values = walk(10_000, 5);
    const spiked = series([values.map((v, i) => (i === 4321 ? 1e9 : i === 8765 ? -1e9 : v))]);
    const shown = pointsForWidth(spiked, ['s0'], 600);
    expect(shown).toContain(spiked[4321]);
    expect(shown).toContain(spiked[8765]);
  });
});
