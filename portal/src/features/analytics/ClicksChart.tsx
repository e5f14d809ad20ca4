import {
  Area,
  AreaChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { SeriesPoint } from './series.ts';

/**
 * The clicks-over-time chart (Recharts, loaded on first use so no first page carries it). Drawn
 * at once, without animation: the figure is the data, not a show. Its table alternative is
 * beside it in ClicksOverTime.
 */
export default function ClicksChart({ points }: { points: readonly SeriesPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <AreaChart data={[...points]} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" minTickGap={24} tick={{ fontSize: 12 }} />
        <YAxis allowDecimals={false} width={48} tick={{ fontSize: 12 }} />
        <Tooltip />
        <Area
          type="monotone"
          dataKey="clicks"
          name="Clicks"
          stroke="var(--mantine-color-indigo-7)"
          fill="var(--mantine-color-indigo-2)"
          isAnimationActive={false}
        />
      </AreaChart>
    </ResponsiveContainer>
  );
}
