/**
 * HTTP/1.1 message heads and body framing read off raw bytes, for the gateway's byte-level REST
 * relay (rest-relay.ts): only what a relay needs to know where each message ends and to rewrite a
 * head's fields. Anything this module is unsure of (a field Node's parser would refuse, framing
 * that is ambiguous) reads as undefined, so that the caller leaves the message to Node's HTTP
 * server, which answers it exactly as it always has.
 */

export const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
/** As Node's default --max-http-header-size. */
export const HEAD_LIMIT = 16 * 1024;
/** A chunk-size or trailer line longer than this is not one. */
const LINE_LIMIT = 1024;
const LF = 0x0a;

/**
 * A field line as Node's strict parser accepts it: a token, a colon, and a value of visible
 * characters, spaces, tabs or obs-text (no obs-fold, no control characters).
 */
const FIELD_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[\t\x20-\x7e\x80-\xff]*$/;
/** A request line with an origin-form target, HTTP/1.1 only (1.0's keep-alive rules differ). */
const REQUEST_LINE = /^([A-Z]+) (\/[\x21-\x7e]*) HTTP\/1\.1$/;
const STATUS_LINE = /^HTTP\/1\.1 (\d{3})(?: [\t\x20-\x7e\x80-\xff]*)?$/;

export interface RequestHead {
  method: string;
  /** The request target as sent (origin-form, starting with `/`). */
  target: string;
  /** Flat [name, value, …] list, names as sent, values without surrounding spaces. */
  fields: string[];
}

export interface ResponseHead {
  status: number;
  /** The status line as sent, without its CRLF. */
  line: string;
  fields: string[];
}

/** The fields of `lines` from index 1 on; undefined if one is not a valid field line. */
function fieldsOf(lines: string[]): string[] | undefined {
  const fields: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!FIELD_LINE.test(line)) return undefined;
    const colon = line.indexOf(':');
    fields.push(line.slice(0, colon), trimSpaces(line.slice(colon + 1)));
  }
  return fields;
}

/** `value` without leading or trailing spaces and tabs (HTTP's OWS, nothing else). */
function trimSpaces(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && (value[start] === ' ' || value[start] === '\t')) start++;
  while (end > start && (value[end - 1] === ' ' || value[end - 1] === '\t')) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/** A request head (text up to, not including, its blank line). */
export function parseRequestHead(head: string): RequestHead | undefined {
  const lines = head.split('\r\n');
  const start = REQUEST_LINE.exec(lines[0]!);
  if (!start) return undefined;
  const fields = fieldsOf(lines);
  return fields && { method: start[1]!, target: start[2]!, fields };
}

/** A response head (text up to, not including, its blank line). */
export function parseResponseHead(head: string): ResponseHead | undefined {
  const lines = head.split('\r\n');
  const start = STATUS_LINE.exec(lines[0]!);
  if (!start) return undefined;
  const fields = fieldsOf(lines);
  return fields && { status: Number(start[1]), line: lines[0]!, fields };
}

/** The values of every field named `name` (lower-case), in order. */
export function fieldValues(fields: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < fields.length; i += 2)
    if (fields[i]!.length === name.length && fields[i]!.toLowerCase() === name)
      values.push(fields[i + 1]!);
  return values;
}

/** The one Content-Length of `fields`: null if none, undefined if bad or several that differ. */
function contentLength(fields: readonly string[]): number | null | undefined {
  let length: number | null = null;
  for (const value of fieldValues(fields, 'content-length')) {
    if (!/^\d{1,15}$/.test(value)) return undefined;
    if (length !== null && length !== Number(value)) return undefined;
    length = Number(value);
  }
  return length;
}

/**
 * How a request's body is framed; undefined when Node's parser would refuse it or it is not
 * plainly framed (a coding other than chunked, or both a length and chunked).
 */
export function requestBody(fields: readonly string[]): BodyFraming | undefined {
  const length = contentLength(fields);
  const codings = fieldValues(fields, 'transfer-encoding');
  if (codings.length === 0)
    return length === undefined ? undefined : BodyFraming.length(length ?? 0);
  if (length !== null || codings.length > 1 || codings[0]!.toLowerCase() !== 'chunked')
    return undefined;
  return BodyFraming.chunked();
}

/**
 * How a response's body is framed (RFC 9112 §6.3): none for HEAD, 1xx, 204 and 304; chunked when
 * that is the last coding, up to the connection's end for any other coding or when no length is
 * given; undefined for a bad length.
 */
export function responseBody(
  fields: readonly string[],
  status: number,
  method: string,
): BodyFraming | undefined {
  if (method === 'HEAD' || status < 200 || status === 204 || status === 304)
    return BodyFraming.length(0);
  const codings = fieldValues(fields, 'transfer-encoding');
  if (codings.length > 0)
    return /(?:^|,)[ \t]*chunked[ \t]*$/i.test(codings.join(','))
      ? BodyFraming.chunked()
      : BodyFraming.untilClose();
  const length = contentLength(fields);
  if (length === undefined) return undefined;
  return length === null ? BodyFraming.untilClose() : BodyFraming.length(length);
}

type BodyState =
  | { kind: 'data'; left: number; chunked: boolean }
  | { kind: 'size'; line: string }
  | { kind: 'trailers'; line: string }
  | { kind: 'close' }
  | { kind: 'done' }
  | { kind: 'bad' };

/**
 * Where a message's body ends in the bytes that follow its head, read as they come. Only the
 * framing is checked (lengths, chunk-size lines, trailers); the bytes themselves pass untouched.
 */
export class BodyFraming {
  #state: BodyState;

  private constructor(state: BodyState) {
    this.#state = state;
  }

  static length(length: number): BodyFraming {
    return new BodyFraming(
      length === 0 ? { kind: 'done' } : { kind: 'data', left: length, chunked: false },
    );
  }

  static chunked(): BodyFraming {
    return new BodyFraming({ kind: 'size', line: '' });
  }

  /** A body that ends with the connection (a response without a length). */
  static untilClose(): BodyFraming {
    return new BodyFraming({ kind: 'close' });
  }

  get done(): boolean {
    return this.#state.kind === 'done';
  }

  /** The body ends only with the connection. */
  get untilClose(): boolean {
    return this.#state.kind === 'close';
  }

  /**
   * How many of `data`'s bytes from `start` on belong to the body (all of them until it is
   * done); -1 once the framing is broken (a bad chunk-size line, a trailer line too long).
   */
  take(data: Buffer, start = 0): number {
    let at = start;
    while (at < data.length) {
      const state = this.#state;
      switch (state.kind) {
        case 'done':
          return at - start;
        case 'bad':
          return -1;
        case 'close':
          return data.length - start;
        case 'data': {
          const take = Math.min(state.left, data.length - at);
          at += take;
          state.left -= take;
          if (state.left === 0)
            this.#state = state.chunked ? { kind: 'size', line: '' } : { kind: 'done' };
          break;
        }
        case 'size':
        case 'trailers': {
          const lf = data.indexOf(LF, at);
          const end = lf < 0 ? data.length : lf + 1;
          state.line += data.toString('latin1', at, end);
          at = end;
          if (lf < 0) {
            if (state.line.length > LINE_LIMIT) this.#state = { kind: 'bad' };
            break;
          }
          this.#state = this.#line(state.kind, state.line);
          break;
        }
      }
    }
    return this.#state.kind === 'bad' ? -1 : at - start;
  }

  /** The state after a complete chunk-size or trailer line (with its CRLF). */
  #line(kind: 'size' | 'trailers', line: string): BodyState {
    if (line.length > LINE_LIMIT || !line.endsWith('\r\n')) return { kind: 'bad' };
    const text = line.slice(0, -2);
    if (kind === 'trailers') {
      // The empty line ends the trailers, and the message.
      if (text === '') return { kind: 'done' };
      return FIELD_LINE.test(text) ? { kind: 'trailers', line: '' } : { kind: 'bad' };
    }
    const size = /^([0-9a-fA-F]{1,12})[ \t]*(?:;[\t\x20-\x7e\x80-\xff]*)?$/.exec(text);
    if (!size) return { kind: 'bad' };
    const left = parseInt(size[1]!, 16);
    // Each chunk's data ends with its own CRLF, counted with it.
    return left === 0
      ? { kind: 'trailers', line: '' }
      : { kind: 'data', left: left + 2, chunked: true };
  }
}
