import { Paper, Text } from '@mantine/core';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import classes from './ClicksChart.module.css';
import { chartTicks, labelStride, monotonePath } from './chartGeometry.ts';
import { formatCount, type SeriesPoint } from './series.ts';

/** The plot's own coordinates: the SVG stretches them to its box, text stays HTML. */
const SIZE = 1000;

/**
 * The clicks-over-time chart: an area under a smooth line, dashed lines at the counts on the
 * left, some bucket labels below and a tooltip under the pointer. Plain SVG and HTML laid out
 * by the browser: nothing is measured while it draws (a charting library measured every label
 * and took the longest task of the dashboard's and the analytics page's loads on a phone). Its
 * table alternative and summary are beside it in ClicksOverTime (the frame is an image to
 * assistive technology).
 */
export function ClicksChart({ points }: { points: readonly SeriesPoint[] }) {
  const { ticks, top } = chartTicks(Math.max(0, ...points.map((point) => point.clicks)));
  const x = (index: number) =>
    points.length > 1 ? (index / (points.length - 1)) * SIZE : SIZE / 2;
  const y = (clicks: number) => SIZE - (clicks / top) * SIZE;
  const coordinates = points.map((point, index) => [x(index), y(point.clicks)] as const);
  const line = monotonePath(coordinates);
  const area =
    coordinates.length > 0
      ? `${line}L${coordinates.at(-1)![0]},${SIZE}L${coordinates[0]![0]},${SIZE}Z`
      : '';

  // How many labels fit below depends on the plot's width, which a ResizeObserver reports after
  // layout (no forced layout); until then the row stays empty, at its height.
  const plotRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const plot = plotRef.current;
    if (!plot || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(plot);
    return () => observer.disconnect();
  }, []);
  const longest = Math.max(0, ...points.map((point) => point.label.length));
  const stride = width == null ? null : labelStride(points.length, width, longest);

  const [hovered, setHovered] = useState<number | null>(null);
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (points.length === 0) return;
    const box = event.currentTarget.getBoundingClientRect();
    const share = box.width > 0 ? (event.clientX - box.left) / box.width : 0;
    const index = Math.round(Math.min(1, Math.max(0, share)) * (points.length - 1));
    setHovered(index);
  };
  const hoveredPoint = hovered == null ? undefined : points[hovered];
  const percentX = (index: number) => `${(x(index) / SIZE) * 100}%`;

  return (
    <div className={classes.chart}>
      <div className={classes.yAxis} aria-hidden="true">
        {ticks.map((tick) => (
          <span key={tick} className={classes.yLabel} style={{ bottom: `${(tick / top) * 100}%` }}>
            {formatCount(tick)}
          </span>
        ))}
      </div>
      <div
        ref={plotRef}
        className={classes.plot}
        onPointerMove={onPointerMove}
        onPointerLeave={() => setHovered(null)}
      >
        <svg
          className={classes.surface}
          data-chart="clicks"
          viewBox={`0 0 ${SIZE} ${SIZE}`}
          preserveAspectRatio="none"
          aria-hidden="true"
          focusable="false"
        >
          {ticks.map((tick) => (
            <line
              key={tick}
              x1={0}
              x2={SIZE}
              y1={y(tick)}
              y2={y(tick)}
              className={tick === 0 ? classes.axis : classes.grid}
              vectorEffect="non-scaling-stroke"
            />
          ))}
          <path d={area} className={classes.area} />
          <path d={line} className={classes.line} vectorEffect="non-scaling-stroke" />
          {hoveredPoint && (
            <line
              x1={x(hovered!)}
              x2={x(hovered!)}
              y1={0}
              y2={SIZE}
              className={classes.cursor}
              vectorEffect="non-scaling-stroke"
            />
          )}
        </svg>
        {hoveredPoint && (
          <span
            className={classes.dot}
            style={{ left: percentX(hovered!), top: `${(y(hoveredPoint.clicks) / SIZE) * 100}%` }}
          />
        )}
        {hoveredPoint && (
          <Paper
            className={classes.tooltip}
            data-side={hovered! > (points.length - 1) / 2 ? 'left' : 'right'}
            style={{ left: percentX(hovered!) }}
            shadow="sm"
            withBorder
            p="xs"
          >
            <Text size="xs">{hoveredPoint.label}</Text>
            <Text size="sm" c="indigo.7">
              Clicks: {formatCount(hoveredPoint.clicks)}
            </Text>
          </Paper>
        )}
        <div className={classes.xAxis} aria-hidden="true">
          {stride != null &&
            points.map((point, index) =>
              // The last bucket is always labelled, the others every `stride` back from it.
              (points.length - 1 - index) % stride === 0 ? (
                <span
                  key={point.time}
                  className={classes.xLabel}
                  data-edge={
                    index === 0 ? 'start' : index === points.length - 1 ? 'end' : undefined
                  }
                  style={{ left: percentX(index) }}
                >
                  {point.label}
                </span>
              ) : null,
            )}
        </div>
      </div>
    </div>
  );
}
