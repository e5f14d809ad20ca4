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

/** A click for app.record_clicks (its JSON form's field names; sent one array per field). */
export interface ClickRow {
  time: string;
  alias_id: string;
  country: string | null;
  device: 'desktop' | 'mobile' | 'tablet' | 'other';
  browser: string | null;
  os: string | null;
  referrer_host: string | null;
  is_bot: boolean;
  is_qr: boolean;
  ip_hash: string | null;
  route_id: string | null;
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

export class ClickRows {
  readonly #hasher: IpHasher;
  readonly #agents = new Memo<UserAgentInfo>(4_096);
  readonly #visitors = new Memo<Promise<Visitor>>(16_384);

  constructor(hasher: IpHasher) {
    this.#hasher = hasher;
  }

  /** Country and IP hash of the client the address headers name, once per distinct headers. */
  #visitor(click: CapturedClick): Promise<Visitor> {
    if (click.forwardedFor === null && click.realIp === null)
      return Promise.resolve({ country: null, ipHash: null });
    return this.#visitors.get(`${click.forwardedFor ?? ''}|${click.realIp ?? ''}`, async () => {
      const headers = new Headers();
      if (click.forwardedFor !== null) headers.set('x-forwarded-for', click.forwardedFor);
      if (click.realIp !== null) headers.set('x-real-ip', click.realIp);
      const ip = clientIp(headers);
      if (ip === null) return { country: null, ipHash: null };
      try {
        const [country, ipHash] = await Promise.all([countryOf(ip), this.#hasher.hash(ip)]);
        return { country, ipHash };
      } catch (error) {
        // A click without country or hash beats a batch that can never be written.
        console.error('Click rows: could not locate or hash an address:', error);
        return { country: null, ipHash: null };
      }
    });
  }

  async rows(batch: CapturedClick[]): Promise<ClickRow[]> {
    const visitors = await Promise.all(batch.map((click) => this.#visitor(click)));
    return batch.map((click, index) => {
      const agent = this.#agents.get(click.userAgent, parseUserAgent);
      const visitor = visitors[index] as Visitor;
      return {
        time: new Date(click.at).toISOString(),
        alias_id: click.aliasId,
        country: visitor.country,
        // The clicks table files robots under 'other' (is_bot says which they are).
        device: agent.device === 'bot' ? 'other' : agent.device,
        browser: agent.browser,
        os: agent.os,
        referrer_host: referrerHost(click.referer),
        is_bot: agent.isBot,
        is_qr: click.isQr,
        ip_hash: visitor.ipHash,
        route_id: click.routeId,
      };
    });
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
    const clicks = await rows.rows(batch);
    // One array per column: Postgres reads arrays several times faster than a JSON array of
    // objects, and reading was a good part of a batch's cost. Flags go as text[] ('true'),
    // cast after: postgres.js declares an array of booleans a single boolean.
    const column = <K extends keyof ClickRow>(key: K) => clicks.map((click) => click[key]);
    const flags = (key: 'is_bot' | 'is_qr') => clicks.map((click) => String(click[key]));
    const states = await sql<AccountState[]>`
      select account_id, redirects_blocked from app.record_clicks(
        ${column('time')}::timestamptz[], ${column('alias_id')}::uuid[],
        ${column('route_id')}::uuid[], ${column('country')}::text[], ${column('device')}::text[],
        ${column('browser')}::text[], ${column('os')}::text[], ${column('referrer_host')}::text[],
        ${flags('is_bot')}::text[]::boolean[], ${flags('is_qr')}::text[]::boolean[],
        ${column('ip_hash')}::text[])`;
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
