/**
 * What a stack started for tests sets beyond its ports (scripts/test.ts, test/global-setup.ts).
 * The suites sign in and send mail hundreds of times from loopback within minutes, so Auth's
 * and the guest links' abuse limits are raised out of reach; their real numbers are tested by
 * dedicated tests with limits of their own (test/auth-rate-limits.test.ts, links' handler tests).
 * Tests present clients elsewhere (a country, the bot-check whitelist) as a proxy on loopback
 * would, so loopback is a trusted proxy here; a caller from any other address cannot do that.
 */
/**
 * A sale calendar whose Black Friday phase holds the whole day (UTC) the tests run on, so the
 * promotion specs find the sale on: pre-sale from a week before, post-Black Friday from the next
 * day. Built from the day, not the instant, so the stack and the portal (separate processes
 * reading it at different moments) agree.
 */
export function testSaleCalendar(now: Date = new Date()): string {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const at = (days: number) => new Date(day + days * 86_400_000).toISOString();
  return JSON.stringify({
    preSaleStartsAt: at(-7),
    blackFridayStartsAt: at(0),
    postBlackFridayStartsAt: at(1),
    cyberMondayStartsAt: at(3),
    saleEndsAt: at(4),
  });
}

export const TEST_STACK_ENV: Readonly<Record<string, string>> = {
  STACK_AUTH_RATE_LIMIT_BURST: '1000000',
  STACK_AUTH_RATE_LIMIT_EMAIL_SENT: '1000000',
  GUEST_LINK_RATE_LIMIT: '1000000/1h',
  API_RATE_LIMIT: '1000000/1m',
  STACK_TRUSTED_PROXIES: '127.0.0.1',
  // The Stripe sandbox retries a refused webhook within a second or two, not minutes.
  STACK_STRIPE_WEBHOOK_RETRY_MS: '200,400,800,1600',
  STACK_PADDLE_WEBHOOK_RETRY_MS: '200,400,800,1600',
  // Paddle refunds stay pending_approval until a test approves or rejects them through the
  // sandbox's control (as Paddle's sandbox, which takes up to ten minutes), never on a timer
  // racing the test's own steps.
  STACK_PADDLE_REFUND_APPROVAL_MS: '600000',
  // The billing function's sale dates; the e2e portal gets the same as VITE_SALE_CALENDAR.
  SALE_CALENDAR: testSaleCalendar(),
};
