/** The UTM builder (link-creation 4 and 5). */
import type { UtmField } from '../constants.ts';
import { UTM_FIELD_RULES, UTM_FIELDS } from '../constants.ts';
import { characterCount } from './text.ts';

export type UtmValues = Partial<Record<UtmField, string | null>>;
export type UtmErrors = Partial<Record<UtmField, string>>;

/** "utm_source" is called "utm source" in messages. */
function fieldLabel(field: UtmField): string {
  return field.replace('_', ' ');
}

export function utmRequiredMessage(field: UtmField): string {
  return `The ${fieldLabel(field)} field is required.`;
}

export function utmTooLongMessage(field: UtmField): string {
  return `The ${fieldLabel(field)} must not be greater than ${UTM_FIELD_RULES[field].maxLength}.`;
}

/** Surrounding blanks are not part of a value. */
function cleanValue(value: string | null | undefined): string {
  return (value ?? '').trim();
}

export function utmFieldError(field: UtmField, value: string | null | undefined): string | null {
  const cleaned = cleanValue(value);
  const rule = UTM_FIELD_RULES[field];
  if (cleaned === '') return rule.required ? utmRequiredMessage(field) : null;
  return characterCount(cleaned) > rule.maxLength ? utmTooLongMessage(field) : null;
}

export function validateUtm(values: UtmValues): UtmErrors {
  const errors: UtmErrors = {};
  for (const field of UTM_FIELDS) {
    const error = utmFieldError(field, values[field]);
    if (error != null) errors[field] = error;
  }
  return errors;
}

interface UrlParts {
  base: string;
  query: string[];
  hash: string;
}

/** Splits without parsing, so the rest of the address keeps its exact spelling. */
function splitUrl(url: string): UrlParts {
  const hashAt = url.indexOf('#');
  const hash = hashAt < 0 ? '' : url.slice(hashAt);
  const withoutHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const queryAt = withoutHash.indexOf('?');
  const base = queryAt < 0 ? withoutHash : withoutHash.slice(0, queryAt);
  const query = queryAt < 0 ? '' : withoutHash.slice(queryAt + 1);
  return { base, query: query === '' ? [] : query.split('&'), hash };
}

function joinUrl({ base, query, hash }: UrlParts): string {
  return `${base}${query.length > 0 ? `?${query.join('&')}` : ''}${hash}`;
}

function parameterName(pair: string): string {
  const raw = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

function isUtmParameter(pair: string): boolean {
  return (UTM_FIELDS as readonly string[]).includes(parameterName(pair));
}

/** Removes the five utm_ parameters (source, medium, campaign, term, content). */
export function stripUtm(url: string): string {
  const parts = splitUrl(url);
  return joinUrl({ ...parts, query: parts.query.filter((pair) => !isUtmParameter(pair)) });
}

/**
 * Rebuilds the destination: existing utm parameters are replaced and only non-empty values
 * are added, URL-encoded, in the builder's field order.
 */
export function applyUtm(url: string, values: UtmValues): string {
  const parts = splitUrl(url);
  const added = UTM_FIELDS.flatMap((field) => {
    const value = cleanValue(values[field]);
    return value === '' ? [] : [`${field}=${encodeURIComponent(value)}`];
  });
  const kept = parts.query.filter((pair) => pair !== '' && !isUtmParameter(pair));
  return joinUrl({ ...parts, query: [...kept, ...added] });
}

/** The utm values already in a destination, to prefill the builder. */
export function readUtm(url: string): UtmValues {
  const values: UtmValues = {};
  for (const pair of splitUrl(url).query) {
    const name = parameterName(pair);
    if (!(UTM_FIELDS as readonly string[]).includes(name)) continue;
    const raw = pair.slice(pair.indexOf('=') + 1);
    let value: string;
    try {
      value = decodeURIComponent(raw.replace(/\+/g, ' '));
    } catch {
      value = raw;
    }
    values[name as UtmField] = pair.includes('=') ? value : '';
  }
  return values;
}
