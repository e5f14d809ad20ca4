import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SALE_CALENDAR,
  isSaleBannerVisible,
  saleCalendar,
  saleCouponFor,
  salePhaseAt,
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
