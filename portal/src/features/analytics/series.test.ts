import { describe, expect, it } from 'vitest';
import { breakdownRows, dimensionLabel, peakPoint, routeItems, seriesPoints } from './series.ts';

describe('seriesPoints', () => {
  it('orders buckets by time and labels hours in the given time zone', () => {
    const points = seriesPoints(
      {
        unit: 'hour',
        series: [
          { time: '2026-11-22T15:00:00+00:00', clicks: 4 },
          { time: '2026-11-22T14:00:00+00:00', clicks: 1 },
        ],
      },
      { timeZone: 'Europe/Berlin' },
    );
    expect(points).toEqual([
      { time: Date.parse('2026-11-22T14:00:00Z'), clicks: 1, label: 'Nov 22, 15:00' },
      { time: Date.parse('2026-11-22T15:00:00Z'), clicks: 4, label: 'Nov 22, 16:00' },
    ]);
  });

  it('labels day buckets as the UTC days the server counted, whatever the local zone', () => {
    const [point] = seriesPoints(
      { unit: 'day', series: [{ time: '2026-11-22T00:00:00+00:00', clicks: 2 }] },
      { timeZone: 'America/Los_Angeles' },
    );
    expect(point?.label).toBe('Nov 22');
  });

  it('drops buckets whose time cannot be read', () => {
    expect(seriesPoints({ unit: 'minute', series: [{ time: 'yesterday', clicks: 3 }] })).toEqual(
      [],
    );
  });

  it('finds the busiest bucket, none when nobody clicked', () => {
    const points = seriesPoints(
      {
        unit: 'hour',
        series: [
          { time: '2026-11-22T10:00:00Z', clicks: 2 },
          { time: '2026-11-22T11:00:00Z', clicks: 5 },
          { time: '2026-11-22T12:00:00Z', clicks: 5 },
        ],
      },
      { timeZone: 'UTC' },
    );
    expect(peakPoint(points)?.label).toBe('Nov 22, 11:00');
    expect(peakPoint(points.map((point) => ({ ...point, clicks: 0 })))).toBeNull();
  });
});

describe('breakdowns', () => {
  it('names countries and devices, and says what a missing value means', () => {
    expect(dimensionLabel('countries', 'DE')).toBe('Germany');
    expect(dimensionLabel('countries', null)).toBe('Unknown country');
    expect(dimensionLabel('devices', 'mobile')).toBe('Mobile');
    expect(dimensionLabel('referrers', null)).toBe('Direct, QR or unknown');
    expect(dimensionLabel('browsers', 'Firefox')).toBe('Firefox');
  });

  it('shows shares of the total, most clicks first', () => {
    expect(
      breakdownRows('devices', [
        { value: 'mobile', clicks: 1 },
        { value: 'desktop', clicks: 3 },
      ]),
    ).toEqual([
      { key: 'desktop', label: 'Desktop', clicks: 3, percent: 75 },
      { key: 'mobile', label: 'Mobile', clicks: 1, percent: 25 },
    ]);
  });

  it('sums what does not fit into Other', () => {
    const items = ['a', 'b', 'c', 'd', 'e'].map((value, index) => ({ value, clicks: 10 - index }));
    const rows = breakdownRows('browsers', items, 3);
    expect(rows.map((row) => [row.label, row.clicks])).toEqual([
      ['a', 10],
      ['b', 9],
      ['Other (3)', 8 + 7 + 6],
    ]);
    expect(rows.reduce((sum, row) => sum + row.clicks, 0)).toBe(40);
  });

  it('is empty without clicks', () => {
    expect(breakdownRows('countries', [])).toEqual([]);
  });
});

describe('routeItems', () => {
  it('names each rule by its place and URL, the destination as no rule, a removed rule by id', () => {
    expect(
      routeItems([
        { route_id: 'a1b2c3d4-0000', url: 'https://example.de/', position: 0, clicks: 5 },
        { route_id: null, url: null, position: null, clicks: 3 },
        { route_id: 'ffeeddcc-0000', url: null, position: null, clicks: 1 },
      ]),
    ).toEqual([
      { value: 'Rule 1: https://example.de/', clicks: 5 },
      { value: null, clicks: 3 },
      { value: 'Removed rule (ffeeddcc)', clicks: 1 },
    ]);
    expect(dimensionLabel('routes', null)).toBe('The link’s destination (no rule matched)');
  });

  it('is empty when no rule sent anyone (or the report has no routes)', () => {
    expect(routeItems([{ route_id: null, url: null, position: null, clicks: 3 }])).toEqual([]);
    expect(routeItems(undefined)).toEqual([]);
  });
});
