/**
 * Click capture for the redirect: the request path only copies a few header values into a
 * CapturedClick and pushes it into the bounded ClickBuffer; the writer turns each batch into
 * click rows (device, browser, OS and bot flag from the User-Agent, country from the IP, keyed IP
 * hash, referrer host) and stores them with one call of app.record_clicks, which also counts
 * the plan's redirects and trackable clicks. The per-value work is memoised: visitors repeat
 * their User-Agent and address, and parsing a User-Agent costs tens of microseconds.
 */
import { clientIp, referrerHost } from '../_shared/clicks/click.ts';
import { countryOf } from '../_shared/clicks/geo.ts';
import type { IpHasher } from '../_shared/clicks/ip-hash.ts';
import {
  MAX_USER_AGENT_LENGTH,
  parseUserAgent,
  type UserAgentInfo,
} from '../_shared/clicks/user-agent.ts';
import type { Sql } from '../_shared/sql.ts';
import type { AccountState } from './allowance.ts';
import { plainArray, textArray } from './array-literal.ts';
import { Memo } from './memo.ts';

export interface CapturedClick {
  /** Milliseconds since the epoch. */
  at: number;
  aliasId: string;
  /** The redirect route that sent the visitor, or null for the link's own destination. */
  routeId: string | null;
  userAgent: string;
  referer: string | null;
  isQr: boolean;
  /** The address headers as received; the writer finds the client in them (never stored). */
  forwardedFor: string | null;
  realIp: string | null;
}

/**
 * The request's part of a click: header values copied as they are, nothing parsed (the
 * User-Agent and the client address are read by the writer, off the request's path).
 */
export function captureClick(
  request: Request,
  url: URL,
  aliasId: string,
  at: number,
  routeId: string | null = null,
): CapturedClick {
  const headers = request.headers;
  // The QR code's URL carries ?qr=1; most visits have no query at all.
  const isQr = url.search.includes('qr=') && url.searchParams.get('qr') === '1';
  return {
    at,
    aliasId,
    routeId,
    userAgent: (headers.get('user-agent') ?? '').slice(0, MAX_USER_AGENT_LENGTH),
    referer: headers.get('referer'),
    isQr,
    forwardedFor: headers.get('x-forwarded-for'),
    realIp: headers.get('x-real-ip'),
  };
}

interface Visitor {
  country: string | null;
  ipHash: string | null;
}

const NO_VISITOR: Visitor = { country: null, ipHash: null };

/**
 * app.record_clicks's arguments for a batch: one Postgres array literal per column (`{a,b,NULL}`),
 * built here in one pass. Postgres reads arrays several times faster than a JSON array of
 * objects; and joining values known to need no quotes (uuids, ISO times, hex hashes, the device
 * and flag words) costs the writer a fraction of what quoting and escaping every element did.
 */
export interface ClickColumns {
  times: string;
  aliasIds: string;
  routeIds: string;
  countries: string;
  devices: string;
  browsers: string;
  oses: string;
  referrerHosts: string;
  isBot: string;
  isQr: string;
  ipHashes: string;
}

export class ClickRows {
  readonly #hasher: IpHasher;
  readonly #agents = new Memo<UserAgentInfo>(4_096);
  /** A located visitor, or the promise of one while it is being located. */
  readonly #visitors = new Memo<Visitor | Promise<Visitor>>(16_384);
  /** The last click time turned to text: the clicks of one millisecond share it. */
  #lastAt = Number.NaN;
  #lastTime = '';

  constructor(hasher: IpHasher) {
    this.#hasher = hasher;
  }

  /** Country and IP hash of the client the address headers name, once per distinct headers. */
  #visitor(click: CapturedClick): Visitor | Promise<Visitor> {
    if (click.forwardedFor === null && click.realIp === null) return NO_VISITOR;
    const key = `${click.forwardedFor ?? ''}|${click.realIp ?? ''}`;
    return this.#visitors.get(key, () => {
      const located = this.#locate(click).then((visitor) => {
        // Known from now on without waiting (unless the memo let it go meanwhile).
        if (this.#visitors.peek(key) === located) this.#visitors.replace(key, visitor);
        return visitor;
      });
      return located;
    });
  }

  async #locate(click: CapturedClick): Promise<Visitor> {
    const headers = new Headers();
    if (click.forwardedFor !== null) headers.set('x-forwarded-for', click.forwardedFor);
    if (click.realIp !== null) headers.set('x-real-ip', click.realIp);
    const ip = clientIp(headers);
    if (ip === null) return NO_VISITOR;
    try {
      const [country, ipHash] = await Promise.all([countryOf(ip), this.#hasher.hash(ip)]);
      return { country, ipHash };
    } catch (error) {
      // A click without country or hash beats a batch that can never be written.
      console.error('Click rows: could not locate or hash an address:', error);
      return NO_VISITOR;
    }
  }

  #time(at: number): string {
    if (at !== this.#lastAt) {
      this.#lastAt = at;
      this.#lastTime = new Date(at).toISOString();
    }
    return this.#lastTime;
  }

  /** The batch's columns, as app.record_clicks takes them. */
  async columns(batch: readonly CapturedClick[]): Promise<ClickColumns> {
    const pending = batch.map((click) => this.#visitor(click));
    // Only a batch with visitors not located yet waits, once for all of them.
    const visitors = pending.some((visitor) => visitor instanceof Promise)
      ? await Promise.all(pending)
      : (pending as Visitor[]);
    const n = batch.length;
    const times = new Array<string>(n);
    const aliasIds = new Array<string>(n);
    const routeIds = new Array<string | null>(n);
    const countries = new Array<string | null>(n);
    const devices = new Array<string>(n);
    const browsers = new Array<string | null>(n);
    const oses = new Array<string | null>(n);
    const referrerHosts = new Array<string | null>(n);
    const isBot = new Array<string>(n);
    const isQr = new Array<string>(n);
    const ipHashes = new Array<string | null>(n);
    for (let index = 0; index < n; index++) {
      const click = batch[index] as CapturedClick;
      const agent = this.#agents.get(click.userAgent, parseUserAgent);
      const visitor = visitors[index] as Visitor;
      times[index] = this.#time(click.at);
      aliasIds[index] = click.aliasId;
      routeIds[index] = click.routeId;
      countries[index] = visitor.country;
      // The clicks table files robots under 'other' (is_bot says which they are).
      devices[index] = agent.device === 'bot' ? 'other' : agent.device;
      browsers[index] = agent.browser;
      oses[index] = agent.os;
      referrerHosts[index] = click.referer === null ? null : referrerHost(click.referer);
      isBot[index] = agent.isBot ? 't' : 'f';
      isQr[index] = click.isQr ? 't' : 'f';
      ipHashes[index] = visitor.ipHash;
    }
    return {
      // Made by this code or the database in formats without quotes, commas or spaces.
      times: plainArray(times),
      aliasIds: plainArray(aliasIds),
      routeIds: plainArray(routeIds),
      devices: plainArray(devices),
      isBot: plainArray(isBot),
      isQr: plainArray(isQr),
      ipHashes: plainArray(ipHashes),
      // Read from outside (GeoIP, the User-Agent, the Referer): any text.
      countries: textArray(countries),
      browsers: textArray(browsers),
      oses: textArray(oses),
      referrerHosts: textArray(referrerHosts),
    };
  }
}

export interface ClickWriterOptions {
  sql: Sql;
  hasher: IpHasher;
  /** Told each account's redirect state after every stored batch. */
  onAccounts?: (states: AccountState[]) => void;
  /** When the rollup mark moves (app.click_rollup_schedule, read by readRollupSchedule). */
  rollups: RollupSchedule;
  now?: () => number;
}

/** The rollup mark moves to the last step boundary at least graceMs before now. */
export interface RollupSchedule {
  stepMs: number;
  graceMs: number;
}

/** The database's rollup schedule, the one place its step and grace are set. */
export async function readRollupSchedule(sql: Sql): Promise<RollupSchedule> {
  const [row] = await sql<{ step_ms: number; grace_ms: number }[]>`
    select (extract(epoch from step) * 1000)::float8 as step_ms,
      (extract(epoch from grace) * 1000)::float8 as grace_ms
    from app.click_rollup_schedule()`;
  if (!row || !(row.step_ms > 0) || !(row.grace_ms >= 0))
    throw new Error('app.click_rollup_schedule() answered no usable step');
  return { stepMs: row.step_ms, graceMs: row.grace_ms };
}

/**
 * The ClickBuffer's writer: one app.record_clicks call per batch (a rejection makes the buffer
 * retry the batch). When a rollup step has passed since the last batch, the clicks up to it are
 * rolled up (app.advance_click_rollups) after the write; a failure there is logged, not retried:
 * the analytics read clicks after the mark raw, and the next step's batch tries again.
 */
export function clickWriter({
  sql,
  hasher,
  onAccounts,
  rollups,
  now = Date.now,
}: ClickWriterOptions) {
  const rows = new ClickRows(hasher);
  const step = () => Math.floor((now() - rollups.graceMs) / rollups.stepMs);
  let rolledStep = step();
  return async (batch: CapturedClick[]): Promise<void> => {
    const c = await rows.columns(batch);
    const states = await sql<AccountState[]>`
      select account_id, redirects_blocked from app.record_clicks(
        ${c.times}::timestamptz[], ${c.aliasIds}::uuid[], ${c.routeIds}::uuid[],
        ${c.countries}::text[], ${c.devices}::text[], ${c.browsers}::text[], ${c.oses}::text[],
        ${c.referrerHosts}::text[], ${c.isBot}::boolean[], ${c.isQr}::boolean[],
        ${c.ipHashes}::text[])`;
    onAccounts?.(states);
    const current = step();
    if (current !== rolledStep) {
      rolledStep = current;
      await sql`select app.advance_click_rollups()`.catch((error: unknown) =>
        console.error('Click rollups: could not advance:', error),
      );
    }
  };
}
