import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SALE_CALENDAR,
  isSaleBannerVisible,
  saleCalendar,
  saleCalendarFromConfig,
  saleCouponFor,
  salePhaseAt,
  saleSpan,
} from './sale-calendar.ts';

describe('sale calendar phases (app-shell 4 and 9)', () => {
  it('starts pre-sale 18 Nov, Black Friday 25 Nov, post-Black Friday 30 Nov, Cyber Monday 2 Dec 2024 for one day', () => {
    expect(
      DEFAULT_SALE_CALENDAR.map(({ phase, startsAt, endsAt }) => [
        phase,
        startsAt.toISOString(),
        endsAt.toISOString(),
      ]),
    ).toEqual([
      ['pre_sale', '2024-11-18T00:00:00.000Z', '2024-11-24T23:59:59.000Z'],
      ['black_friday', '2024-11-25T00:00:00.000Z', '2024-11-29T23:59:59.000Z'],
      ['post_black_friday', '2024-11-30T00:00:00.000Z', '2024-12-01T23:59:59.000Z'],
      ['cyber_monday', '2024-12-02T00:00:00.000Z', '2024-12-02T23:59:59.000Z'],
    ]);
  });

  it('switches phases at the exact second', () => {
    const cases: [string, string | null][] = [
      ['2024-11-17T23:59:59Z', null],
      ['2024-11-18T00:00:00Z', 'pre_sale'],
      ['2024-11-24T23:59:59Z', 'pre_sale'],
      ['2024-11-24T23:59:59.999Z', 'pre_sale'],
      ['2024-11-25T00:00:00Z', 'black_friday'],
      ['2024-11-29T23:59:59Z', 'black_friday'],
      ['2024-11-30T00:00:00Z', 'post_black_friday'],
      ['2024-12-01T23:59:59Z', 'post_black_friday'],
      ['2024-12-02T00:00:00Z', 'cyber_monday'],
      ['2024-12-02T23:59:59Z', 'cyber_monday'],
      ['2024-12-03T00:00:00Z', null],
    ];
    for (const [now, phase] of cases) {
      expect(salePhaseAt(now), now).toBe(phase);
    }
  });

  it('takes configured dates instead of the defaults', () => {
    const calendar = saleCalendar({
      preSaleStartsAt: '2025-11-17T05:00:00Z',
      blackFridayStartsAt: '2025-11-28T05:00:00Z',
      postBlackFridayStartsAt: '2025-11-29T05:00:00Z',
      cyberMondayStartsAt: '2025-12-01T05:00:00Z',
      saleEndsAt: '2025-12-02T05:00:00Z',
    });
    expect(salePhaseAt('2025-11-28T04:59:59Z', calendar)).toBe('pre_sale');
    expect(salePhaseAt('2025-11-28T05:00:00Z', calendar)).toBe('black_friday');
    expect(salePhaseAt('2025-12-02T04:59:59Z', calendar)).toBe('cyber_monday');
    expect(salePhaseAt('2025-12-02T05:00:00Z', calendar)).toBeNull();
    expect(salePhaseAt('2024-11-25T00:00:00Z', calendar)).toBeNull();
  });

  it('refuses configured dates that do not increase', () => {
    expect(() => saleCalendar({ blackFridayStartsAt: '2024-11-18T00:00:00Z' })).toThrow(
      'Sale calendar dates must increase strictly',
    );
    expect(() => saleCalendar({ saleEndsAt: 'whenever' })).toThrow(RangeError);
  });
});

describe('Black Friday coupon and banner', () => {
  it('applies the coupon to yearly intervals during the sale only', () => {
    expect(saleCouponFor('yearly', '2024-11-25T12:00:00Z')).toBe('BLACKFRIDAY2024');
    expect(saleCouponFor('yearly', '2024-12-02T23:59:59Z')).toBe('BLACKFRIDAY2024');
    expect(saleCouponFor('monthly', '2024-11-25T12:00:00Z')).toBeNull();
    expect(saleCouponFor('yearly', '2024-12-03T00:00:00Z')).toBeNull();
  });

  it('shows the banner during the sale to unsubscribed users who have not closed it', () => {
    const during = '2024-11-30T10:00:00Z';
    expect(isSaleBannerVisible({ subscribed: false, promotionClosed: false, now: during })).toBe(
      true,
    );
    expect(isSaleBannerVisible({ subscribed: true, promotionClosed: false, now: during })).toBe(
      false,
    );
    expect(isSaleBannerVisible({ subscribed: false, promotionClosed: true, now: during })).toBe(
      false,
    );
    expect(
      isSaleBannerVisible({
        subscribed: false,
        promotionClosed: false,
        now: '2024-11-17T10:00:00Z',
      }),
    ).toBe(false);
  });
});

describe('sale calendar from configuration', () => {
  it('reads any subset of the dates as JSON, over the spec defaults', () => {
    expect(saleCalendarFromConfig(undefined)).toBe(DEFAULT_SALE_CALENDAR);
    expect(saleCalendarFromConfig('  ')).toBe(DEFAULT_SALE_CALENDAR);
    const calendar = saleCalendarFromConfig(
      JSON.stringify({
        preSaleStartsAt: '2026-11-20T00:00:00Z',
        blackFridayStartsAt: '2026-11-27T00:00:00Z',
        postBlackFridayStartsAt: '2026-11-28T00:00:00Z',
        cyberMondayStartsAt: '2026-11-30T00:00:00Z',
        saleEndsAt: '2026-12-01T00:00:00Z',
      }),
    );
    // Each phase at its last second, and the first second after the sale.
    expect(salePhaseAt('2026-11-26T23:59:59Z', calendar)).toBe('pre_sale');
    expect(salePhaseAt('2026-11-27T23:59:59Z', calendar)).toBe('black_friday');
    expect(salePhaseAt('2026-11-29T23:59:59Z', calendar)).toBe('post_black_friday');
    expect(salePhaseAt('2026-11-30T23:59:59Z', calendar)).toBe('cyber_monday');
    expect(salePhaseAt('2026-12-01T00:00:00Z', calendar)).toBeNull();
    expect(saleSpan(calendar)).toEqual({
      startsAt: new Date('2026-11-20T00:00:00Z'),
      endsAt: new Date('2026-11-30T23:59:59Z'),
    });
  });

  it('refuses malformed settings, naming the variable', () => {
    expect(() => saleCalendarFromConfig('nope', 'VITE_SALE_CALENDAR')).toThrow(
      'VITE_SALE_CALENDAR must be a JSON object of sale dates, got "nope".',
    );
    expect(() => saleCalendarFromConfig('[]')).toThrow('SALE_CALENDAR must be a JSON object');
    expect(() => saleCalendarFromConfig('{"blackFriday":"2026-11-27T00:00:00Z"}')).toThrow(
      'SALE_CALENDAR has an unknown field "blackFriday"',
    );
    expect(() => saleCalendarFromConfig('{"saleEndsAt":"soon"}')).toThrow(
      'SALE_CALENDAR.saleEndsAt must be an ISO date and time, got "soon".',
    );
    expect(() => saleCalendarFromConfig('{"saleEndsAt":"2024-12-01T00:00:00Z"}')).toThrow(
      'SALE_CALENDAR: Sale calendar dates must increase strictly.',
    );
  });
});
