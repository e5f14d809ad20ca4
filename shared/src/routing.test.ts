import { describe, expect, it } from 'vitest';
import {
  applyOperation,
  matchRoute,
  normaliseTime,
  preferredLanguage,
  type RedirectRoute,
  type RouteRule,
  ruleHolds,
  type RouteVisitor,
  routesRead,
  wallClock,
} from './routing.ts';

// Wednesday 2026-11-25 14:30 UTC (15:30 in Berlin, 09:30 in New York).
const NOW = Date.UTC(2026, 10, 25, 14, 30);

const visitor: RouteVisitor = {
  country: 'DE',
  device: 'mobile',
  os: 'iOS',
  browser: 'Safari',
  language: 'de',
  referrer: 'news.example.org',
  search: '?ref=mail&lang=fr',
  now: NOW,
  clicks: 42,
};

function rule(
  value: string,
  operation: string | null,
  operands: string[],
  extra: Partial<RouteRule> = {},
): RouteRule {
  return { value, condition: 'if', operation, operands, argument: null, ...extra };
}

const holds = (r: RouteRule, v: RouteVisitor = visitor) => ruleHolds(r, v);

describe('values', () => {
  it('country, device, OS, browser, language and referrer read the visitor, without case', () => {
    expect(holds(rule('country', 'equals', ['de']))).toBe(true);
    expect(holds(rule('country', 'equals', ['AT']))).toBe(false);
    expect(holds(rule('device', 'equals', ['mobile']))).toBe(true);
    expect(holds(rule('device', 'equals', ['desktop']))).toBe(false);
    expect(holds(rule('os', 'equals', ['ios']))).toBe(true);
    expect(holds(rule('os', 'equals', ['Android']))).toBe(false);
    expect(holds(rule('browser', 'equals', ['Safari']))).toBe(true);
    expect(holds(rule('browser', 'equals', ['Chrome']))).toBe(false);
    expect(holds(rule('language', 'equals', ['DE']))).toBe(true);
    expect(holds(rule('language', 'equals', ['en']))).toBe(false);
    expect(holds(rule('referrer', 'contains', ['example.org']))).toBe(true);
    expect(holds(rule('referrer', 'contains', ['example.com']))).toBe(false);
  });

  it('query reads the parameter its argument names; a missing one is unknown', () => {
    expect(holds(rule('query', 'equals', ['mail'], { argument: 'ref' }))).toBe(true);
    expect(holds(rule('query', 'equals', ['fr'], { argument: 'ref' }))).toBe(false);
    expect(holds(rule('query', 'equals', ['x'], { argument: 'missing' }))).toBe(false);
    expect(holds(rule('query', 'not_equals', ['x'], { argument: 'missing' }))).toBe(true);
    expect(holds(rule('query', 'equals', ['mail'], { argument: null }))).toBe(false);
  });

  it('time of day is the wall clock of the argument’s zone (UTC by default)', () => {
    expect(holds(rule('time_of_day', 'equals', ['14:30']))).toBe(true);
    expect(holds(rule('time_of_day', 'equals', ['15:30'], { argument: 'Europe/Berlin' }))).toBe(
      true,
    );
    expect(
      holds(rule('time_of_day', 'less_than', ['12:00'], { argument: 'America/New_York' })),
    ).toBe(true);
    expect(holds(rule('time_of_day', 'greater_than', ['9:00']))).toBe(true);
    expect(holds(rule('time_of_day', 'greater_than', ['15:00']))).toBe(false);
    expect(holds(rule('time_of_day', 'equals', ['14:30'], { argument: 'Not/AZone' }))).toBe(false);
  });

  it('day of week is the weekday in the argument’s zone', () => {
    expect(holds(rule('day_of_week', 'equals', ['wednesday']))).toBe(true);
    expect(holds(rule('day_of_week', 'in', ['saturday', 'sunday']))).toBe(false);
    // 23:30 UTC on Wednesday is already Thursday in Tokyo.
    const late = { ...visitor, now: Date.UTC(2026, 10, 25, 23, 30) };
    expect(
      holds(rule('day_of_week', 'equals', ['thursday'], { argument: 'Asia/Tokyo' }), late),
    ).toBe(true);
  });

  it('date compares the visit’s instant (equals within the minute)', () => {
    expect(holds(rule('date', 'greater_than', ['2026-11-01T00:00:00Z']))).toBe(true);
    expect(holds(rule('date', 'less_than', ['2026-11-01T00:00:00Z']))).toBe(false);
    expect(holds(rule('date', 'equals', ['2026-11-25T14:30:59Z']))).toBe(true);
    expect(holds(rule('date', 'equals', ['not a date']))).toBe(false);
  });

  it('clicks compares numbers, and holds nothing positive when unknown', () => {
    expect(holds(rule('clicks', 'greater_than', ['10']))).toBe(true);
    expect(holds(rule('clicks', 'less_than', ['10']))).toBe(false);
    expect(holds(rule('clicks', 'greater_than', ['10']), { ...visitor, clicks: null })).toBe(false);
  });

  it('an unknown value or condition never holds', () => {
    expect(holds(rule('weather', 'equals', ['rain']))).toBe(false);
    expect(holds({ ...rule('country', 'equals', ['DE']), condition: 'maybe' })).toBe(false);
  });
});

describe('conditions', () => {
  it('if holds with the operation, unless against it, always without one', () => {
    expect(holds(rule('country', 'equals', ['DE']))).toBe(true);
    expect(holds({ ...rule('country', 'equals', ['DE']), condition: 'unless' })).toBe(false);
    expect(holds({ ...rule('country', 'equals', ['FR']), condition: 'unless' })).toBe(true);
    expect(holds({ ...rule('country', null, []), condition: 'always' })).toBe(true);
    expect(holds(rule('country', null, []))).toBe(false);
  });
});

describe('operations', () => {
  it('equals and not_equals take the first operand', () => {
    expect(applyOperation('country', 'equals', 'DE', ['de'])).toBe(true);
    expect(applyOperation('country', 'not_equals', 'DE', ['de'])).toBe(false);
    expect(applyOperation('country', 'not_equals', 'DE', ['FR'])).toBe(true);
    expect(applyOperation('country', 'equals', null, ['DE'])).toBe(false);
    expect(applyOperation('country', 'not_equals', null, ['DE'])).toBe(true);
  });

  it('in and not_in test the list', () => {
    expect(applyOperation('country', 'in', 'AT', ['DE', 'AT', 'CH'])).toBe(true);
    expect(applyOperation('country', 'in', 'FR', ['DE', 'AT', 'CH'])).toBe(false);
    expect(applyOperation('country', 'not_in', 'FR', ['DE', 'AT'])).toBe(true);
    expect(applyOperation('country', 'not_in', 'AT', ['DE', 'AT'])).toBe(false);
    expect(applyOperation('country', 'not_in', null, ['DE'])).toBe(true);
  });

  it('contains looks inside text without case', () => {
    expect(applyOperation('referrer', 'contains', 'm.Facebook.com', ['facebook'])).toBe(true);
    expect(applyOperation('referrer', 'contains', 'twitter.com', ['facebook'])).toBe(false);
    expect(applyOperation('referrer', 'contains', null, ['facebook'])).toBe(false);
  });

  it('greater_than and less_than order numbers, instants and times', () => {
    expect(applyOperation('clicks', 'greater_than', 5, ['4'])).toBe(true);
    expect(applyOperation('clicks', 'greater_than', 5, ['5'])).toBe(false);
    expect(applyOperation('clicks', 'less_than', 5, ['6'])).toBe(true);
    expect(applyOperation('clicks', 'less_than', 5, ['abc'])).toBe(false);
    expect(applyOperation('time_of_day', 'less_than', '08:59', ['9:00'])).toBe(true);
    expect(applyOperation('time_of_day', 'greater_than', '08:59', ['09:00'])).toBe(false);
  });

  it('an unknown operation never holds', () => {
    expect(applyOperation('country', 'resembles', 'DE', ['DE'])).toBe(false);
  });
});

describe('routes', () => {
  const de: RedirectRoute = {
    id: 'de',
    url: 'https://example.de/',
    match: 'all',
    rules: [rule('country', 'equals', ['DE'])],
  };
  const mobileDe: RedirectRoute = {
    id: 'mobile-de',
    url: 'https://m.example.de/',
    match: 'all',
    rules: [rule('country', 'equals', ['DE']), rule('device', 'equals', ['mobile'])],
  };
  const frOrEs: RedirectRoute = {
    id: 'fr-es',
    url: 'https://example.fr/',
    match: 'any',
    rules: [rule('country', 'equals', ['FR']), rule('language', 'equals', ['es'])],
  };

  it('the first route that holds wins, in order', () => {
    expect(matchRoute([mobileDe, de], visitor)?.id).toBe('mobile-de');
    expect(matchRoute([de, mobileDe], visitor)?.id).toBe('de');
    expect(matchRoute([mobileDe, de], { ...visitor, device: 'desktop' })?.id).toBe('de');
  });

  it('all needs every rule, any one of them; none holding leaves the default', () => {
    expect(matchRoute([frOrEs], { ...visitor, language: 'es' })?.id).toBe('fr-es');
    expect(matchRoute([frOrEs], visitor)).toBeNull();
    expect(matchRoute([de, frOrEs], { ...visitor, country: 'US' })).toBeNull();
    expect(matchRoute([], visitor)).toBeNull();
  });

  it('routesRead says which values the routes need', () => {
    expect(routesRead([de], 'country')).toBe(true);
    expect(routesRead([de], 'language')).toBe(false);
  });
});

describe('helpers', () => {
  it('preferredLanguage takes the highest quality, primary subtag', () => {
    expect(preferredLanguage('de-AT,de;q=0.9,en;q=0.5')).toBe('de');
    expect(preferredLanguage('en;q=0.2, fr;q=0.8')).toBe('fr');
    expect(preferredLanguage('*')).toBeNull();
    expect(preferredLanguage(null)).toBeNull();
  });

  it('normaliseTime pads and refuses what is not a time', () => {
    expect(normaliseTime('9:05')).toBe('09:05');
    expect(normaliseTime('24:00')).toBeNull();
    expect(normaliseTime('noon')).toBeNull();
  });

  it('wallClock reads a zone, null for an unknown one', () => {
    expect(wallClock(NOW, 'Europe/Berlin')).toEqual({ time: '15:30', weekday: 'wednesday' });
    expect(wallClock(NOW, 'Mars/Olympus')).toBeNull();
  });
});
