/** The clicks chart's arithmetic (ClicksChart): its count ticks, its labels' spacing, its curve. */

/**
 * Whole-number ticks from 0 to at least `max`, some four steps of 1, 2 or 5 times a power of
 * ten: the lines and labels at the chart's left. `top` is the last, the plot's height.
 */
export function chartTicks(max: number): { ticks: number[]; top: number } {
  const rough = Math.max(1, max / 4);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * magnitude).find((size) => size >= rough)!;
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks: number[] = [];
  for (let tick = 0; tick <= top; tick += step) ticks.push(tick);
  return { ticks, top };
}

/** Roughly how wide a label is per character at the chart's 12 px, with the gap beside it. */
const LABEL_CHAR_PX = 6.5;
const LABEL_GAP_PX = 24;

/**
 * Every how many buckets a label fits under a plot `width` pixels wide, for labels up to
 * `longest` characters: at least one, and never two that would touch.
 */
export function labelStride(count: number, width: number, longest: number): number {
  const fit = Math.max(1, Math.floor(width / (longest * LABEL_CHAR_PX + LABEL_GAP_PX)));
  return Math.max(1, Math.ceil(count / fit));
}

type Point = readonly [x: number, y: number];

/**
 * An SVG path through the points (in x order) as a monotone cubic curve: smooth, and never above
 * or below the counts on either side of a bucket (Fritsch–Carlson/Steffen tangents, as the
 * "monotone" curve of charting libraries).
 */
export function monotonePath(points: readonly Point[]): string {
  const first = points[0];
  if (!first) return '';
  if (points.length < 3)
    return points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x},${y}`).join('');
  const slopes = points.slice(1).map(([x, y], i) => {
    const [x0, y0] = points[i]!;
    return x === x0 ? 0 : (y - y0) / (x - x0);
  });
  const widths = points.slice(1).map(([x], i) => x - points[i]![0]);
  const tangents = points.map((_, i) => {
    if (i === 0 || i === points.length - 1) return Number.NaN;
    const before = slopes[i - 1]!;
    const after = slopes[i]!;
    if (before * after <= 0) return 0;
    const blended = (before * widths[i]! + after * widths[i - 1]!) / (widths[i - 1]! + widths[i]!);
    return (
      (Math.sign(before) + Math.sign(after)) *
      Math.min(Math.abs(before), Math.abs(after), 0.5 * Math.abs(blended))
    );
  });
  // The ends: the slope the neighbouring tangent and the end segment imply.
  tangents[0] = (3 * slopes[0]! - tangents[1]!) / 2;
  tangents[points.length - 1] = (3 * slopes.at(-1)! - tangents.at(-2)!) / 2;
  let path = `M${first[0]},${first[1]}`;
  for (let i = 0; i < points.length - 1; i += 1) {
    const [x0, y0] = points[i]!;
    const [x1, y1] = points[i + 1]!;
    const third = (x1 - x0) / 3;
    path += `C${x0 + third},${y0 + third * tangents[i]!},${x1 - third},${y1 - third * tangents[i + 1]!},${x1},${y1}`;
  }
  return path;
}
