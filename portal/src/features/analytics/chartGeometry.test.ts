import { describe, expect, it } from 'vitest';
import { chartTicks, labelStride, monotonePath } from './chartGeometry.ts';

describe('chartTicks', () => {
  it('steps in whole numbers of 1, 2 or 5 times a power of ten up to at least the peak', () => {
    expect(chartTicks(0)).toEqual({ ticks: [0, 1], top: 1 });
    expect(chartTicks(3)).toEqual({ ticks: [0, 1, 2, 3], top: 3 });
    expect(chartTicks(7)).toEqual({ ticks: [0, 2, 4, 6, 8], top: 8 });
    expect(chartTicks(2027)).toEqual({ ticks: [0, 1000, 2000, 3000], top: 3000 });
    expect(chartTicks(180)).toEqual({ ticks: [0, 50, 100, 150, 200], top: 200 });
  });
});

describe('labelStride', () => {
  it('labels fewer buckets as the plot narrows, never less than every one', () => {
    // 13-character labels take about 108 px with their gap.
    expect(labelStride(24, 280, 13)).toBe(12);
    expect(labelStride(24, 1000, 13)).toBe(3);
    expect(labelStride(7, 1000, 6)).toBe(1);
    expect(labelStride(60, 10, 13)).toBe(60);
  });
});

describe('monotonePath', () => {
  it('draws nothing for no points and straight lines for one or two', () => {
    expect(monotonePath([])).toBe('');
    expect(monotonePath([[0, 5]])).toBe('M0,5');
    expect(
      monotonePath([
        [0, 5],
        [10, 0],
      ]),
    ).toBe('M0,5L10,0');
  });

  it('never overshoots a flat stretch: the curve between equal counts stays level', () => {
    const path = monotonePath([
      [0, 10],
      [10, 0],
      [20, 0],
      [30, 10],
    ]);
    // The segment from (10,0) to (20,0): both control points at y 0 (tangents 0 at both ends).
    const segments = path.split('C').slice(1);
    expect(segments[1]!.split(',').map(Number)).toEqual([10 + 10 / 3, 0, 20 - 10 / 3, 0, 20, 0]);
    expect(segments).toHaveLength(3);
  });
});
