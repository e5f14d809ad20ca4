/**
 * Redirect routes: "if <value> <condition> [<operation> <operands>] then go to <url>". A link's
 * routes are tried in order and the first that holds sends the visitor to its URL; when none
 * does, the link's own destination answers. A route holds when all of its rules hold (or any,
 * per its url condition). One pure module for the redirector (`r`) and the builder's "test
 * against a sample visitor", so the two cannot disagree.
 *
 * The vocabulary is the database's reference data (public.route_values, route_conditions,
 * route_operations); the ids below must match its rows. The database validates each rule when
 * it is saved (app.check_route_rule); this module never throws on a rule it does not
 * understand: such a rule does not hold.
 */

export const ROUTE_VALUE_IDS = [
  'country',
  'device',
  'os',
  'browser',
  'language',
  'referrer',
  'query',
  'time_of_day',
  'day_of_week',
  'date',
  'clicks',
] as const;
export type RouteValueId = (typeof ROUTE_VALUE_IDS)[number];

export const ROUTE_CONDITION_IDS = ['if', 'unless', 'always'] as const;
export type RouteConditionId = (typeof ROUTE_CONDITION_IDS)[number];

export const ROUTE_OPERATION_IDS = [
  'equals',
  'not_equals',
  'in',
  'not_in',
  'contains',
  'greater_than',
  'less_than',
] as const;
export type RouteOperationId = (typeof ROUTE_OPERATION_IDS)[number];

export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;

/** Values that read the argument: the query parameter's name, or the IANA time zone. */
export const VALUE_ARGUMENT: Partial<Record<RouteValueId, 'parameter' | 'time_zone'>> = {
  query: 'parameter',
  time_of_day: 'time_zone',
  day_of_week: 'time_zone',
};

export interface RouteRule {
  value: string;
  condition: string;
  operation: string | null;
  operands: readonly string[];
  /** The query parameter's name, or the time zone (UTC when null) of time_of_day/day_of_week. */
  argument?: string | null;
}

export interface RedirectRoute {
  id: string;
  url: string;
  /** 'all': every rule must hold; 'any': one is enough. */
  match: string;
  rules: readonly RouteRule[];
}

/** What is known of a visitor; null where unknown (an unknown value holds no positive test). */
export interface RouteVisitor {
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  device: string | null;
  os: string | null;
  browser: string | null;
  /** Primary language subtag of the visitor's first preference (`de` for `de-AT,en;q=0.5`). */
  language: string | null;
  /** The referring site's host. */
  referrer: string | null;
  /** The visitor's query string (`?a=1` or empty). */
  search: string;
  /** Milliseconds since the epoch. */
  now: number;
  /** The link's clicks so far, when known. */
  clicks?: number | null;
}

type Fact = string | number | null;

/** The primary subtag of the first language of an Accept-Language header, lower case. */
export function preferredLanguage(header: string | null | undefined): string | null {
  if (!header) return null;
  let best: { tag: string; q: number } | null = null;
  for (const part of header.split(',')) {
    const [rawTag = '', ...params] = part.trim().split(';');
    const tag = rawTag.trim().toLowerCase().split('-')[0] ?? '';
    if (!/^[a-z]{2,3}$/.test(tag)) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { tag, q };
  }
  return best?.tag ?? null;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

/** Cached per zone: building a DateTimeFormat costs far more than using one. */
function zoneFormat(zone: string): Intl.DateTimeFormat | null {
  let format = zoneFormats.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        hour: '2-digit',
        minute: '2-digit',
        weekday: 'long',
      });
    } catch {
      format = null;
    }
    if (zoneFormats.size > 500) zoneFormats.clear();
    zoneFormats.set(zone, format);
  }
  return format;
}

/** The wall clock in a zone: `HH:MM` and the lower-case weekday; null for an unknown zone. */
export function wallClock(now: number, zone: string): { time: string; weekday: string } | null {
  const format = zoneFormat(zone);
  if (!format) return null;
  const parts = format.formatToParts(new Date(now));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { time: `${part('hour')}:${part('minute')}`, weekday: part('weekday').toLowerCase() };
}

/** `9:05` → `09:05`; null when not a time of day. */
export function normaliseTime(text: string): string | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, '0')}:${match[2]}`;
}

function decodeQueryPart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/** The first value of a query parameter (form-decoded), or null when absent. */
export function queryValue(search: string, name: string | null | undefined): string | null {
  if (!name) return null;
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const key = decodeQueryPart(at >= 0 ? pair.slice(0, at) : pair);
    if (key === name) return decodeQueryPart(at >= 0 ? pair.slice(at + 1) : '');
  }
  return null;
}

function fact(rule: RouteRule, visitor: RouteVisitor): Fact {
  switch (rule.value as RouteValueId) {
    case 'country':
    case 'device':
    case 'os':
    case 'browser':
    case 'language':
    case 'referrer':
      return visitor[rule.value as 'country'];
    case 'query':
      return queryValue(visitor.search, rule.argument);
    case 'time_of_day':
      return wallClock(visitor.now, rule.argument || 'UTC')?.time ?? null;
    case 'day_of_week':
      return wallClock(visitor.now, rule.argument || 'UTC')?.weekday ?? null;
    case 'date':
      return visitor.now;
    case 'clicks':
      return visitor.clicks ?? null;
    default:
      return null;
  }
}

/** An operand in the fact's terms, or null when it cannot be one. */
function operandFor(value: string, operand: string): string | number | null {
  switch (value) {
    case 'date': {
      const time = Date.parse(operand);
      return Number.isNaN(time) ? null : time;
    }
    case 'clicks': {
      const number = Number(operand);
      return operand.trim() !== '' && Number.isFinite(number) ? number : null;
    }
    case 'time_of_day':
      return normaliseTime(operand);
    default:
      return operand.trim().toLowerCase();
  }
}

const MINUTE_MS = 60_000;

function same(value: string, fact: string | number, operand: string | number): boolean {
  // A date "equals" within its minute: nobody means the millisecond.
  if (value === 'date' && typeof fact === 'number' && typeof operand === 'number')
    return Math.floor(fact / MINUTE_MS) === Math.floor(operand / MINUTE_MS);
  return typeof fact === 'string' ? fact.toLowerCase() === operand : fact === operand;
}

function compare(fact: string | number, operand: string | number): number {
  if (typeof fact === 'number' && typeof operand === 'number') return fact - operand;
  // `HH:MM` (zero-padded) orders as text.
  const [a, b] = [String(fact), String(operand)];
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether `fact <operation> operands` holds; an unknown fact holds only the negative tests. */
export function applyOperation(
  value: string,
  operation: string,
  fact: Fact,
  operands: readonly string[],
): boolean {
  const wanted = operands
    .map((operand) => operandFor(value, operand))
    .filter((operand): operand is string | number => operand !== null);
  const isSame = (operand: string | number) => fact !== null && same(value, fact, operand);
  switch (operation as RouteOperationId) {
    case 'equals':
      return wanted.length > 0 && isSame(wanted[0] as string | number);
    case 'not_equals':
      return !(wanted.length > 0 && isSame(wanted[0] as string | number));
    case 'in':
      return wanted.some(isSame);
    case 'not_in':
      return !wanted.some(isSame);
    case 'contains': {
      const needle = wanted[0];
      return typeof fact === 'string' && typeof needle === 'string'
        ? fact.toLowerCase().includes(needle)
        : false;
    }
    case 'greater_than':
    case 'less_than': {
      const bound = wanted[0];
      if (fact === null || bound === undefined || typeof fact !== typeof bound) return false;
      const order = compare(fact, bound);
      return operation === 'greater_than' ? order > 0 : order < 0;
    }
    default:
      return false;
  }
}

export function ruleHolds(rule: RouteRule, visitor: RouteVisitor): boolean {
  switch (rule.condition as RouteConditionId) {
    case 'always':
      return true;
    case 'if':
    case 'unless': {
      if (!rule.operation) return false;
      const holds = applyOperation(rule.value, rule.operation, fact(rule, visitor), rule.operands);
      return rule.condition === 'if' ? holds : !holds;
    }
    default:
      return false;
  }
}

export function routeHolds(route: RedirectRoute, visitor: RouteVisitor): boolean {
  if (route.rules.length === 0) return true;
  return route.match === 'any'
    ? route.rules.some((rule) => ruleHolds(rule, visitor))
    : route.rules.every((rule) => ruleHolds(rule, visitor));
}

/** The first route that holds for the visitor, or null (the link's own destination then). */
export function matchRoute<R extends RedirectRoute>(
  routes: readonly R[],
  visitor: RouteVisitor,
): R | null {
  for (const route of routes) if (routeHolds(route, visitor)) return route;
  return null;
}

/** Whether any rule reads the value (the redirector looks a country up only when one does). */
export function routesRead(routes: readonly RedirectRoute[], value: RouteValueId): boolean {
  return routes.some((route) => route.rules.some((rule) => rule.value === value));
}
