/**
 * The visitor-to-function direction of a relayed connection (relay.ts), cut at request heads: the
 * relay's announcement line goes after each request line, and every other byte passes as it came.
 * Only the framing is read (where a head ends, and its body's Content-Length or chunked coding),
 * so a request costs a couple of byte scans, not an HTTP parse.
 *
 * Announcing every request, not only a connection's first, frees the function's side from telling
 * connections apart, which a Unix socket cannot do (Deno.serve names no peer there).
 *
 * A stream that cannot be framed (a head longer than the limit, a malformed chunk size) is passed
 * on untouched from there: its requests carry no announcement, which the function's side refuses
 * (relay-shim.js), and the function's HTTP server ends the connection on the malformed bytes anyway.
 */

const CRLF = Buffer.from('\r\n', 'latin1');
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
/** The framing headers of a head (from its request line's end), any case. */
const FRAMING = /\r\n(content-length|transfer-encoding)[ \t]*:[ \t]*([^\r]*)/gi;
/** As Node's --max-http-header-size and the gateway front's limit. */
const HEAD_LIMIT = 16 * 1024;
/** A chunk-size line (hex size, extensions) longer than this is not one. */
const CHUNK_LINE_LIMIT = 1024;

type State =
  | { kind: 'head' }
  | { kind: 'body'; left: number }
  | { kind: 'chunk-size' }
  | { kind: 'chunk-data'; left: number }
  | { kind: 'trailers' }
  | { kind: 'opaque' };

export class RequestFraming {
  #state: State = { kind: 'head' };
  /** Bytes of a head, chunk-size line or trailer line not complete yet. */
  #pending: Buffer | undefined;
  readonly #announcement: Buffer;
  readonly #headLimit: number;

  /** `announcement`: the whole line put after each request line, CRLF included. */
  constructor(announcement: Buffer, headLimit = HEAD_LIMIT) {
    this.#announcement = announcement;
    this.#headLimit = headLimit;
  }

  /** The bytes to send on for `chunk` (possibly none yet: an unfinished head is held back). */
  push(chunk: Buffer): Buffer {
    // Nearly every chunk of a redirect's connection is exactly one head: no copies but the one.
    if (this.#state.kind === 'head' && this.#pending === undefined) {
      const end = chunk.indexOf(HEAD_END);
      if (end >= 0 && end + 4 === chunk.length) {
        const head = this.#head(chunk, end);
        if (head) return head;
      }
    }
    const out: Buffer[] = [];
    let data = this.#pending ? Buffer.concat([this.#pending, chunk]) : chunk;
    this.#pending = undefined;
    while (data.length > 0) {
      const state = this.#state;
      switch (state.kind) {
        case 'opaque':
          out.push(data);
          data = data.subarray(data.length);
          break;
        case 'body':
        case 'chunk-data': {
          const take = Math.min(state.left, data.length);
          out.push(data.subarray(0, take));
          data = data.subarray(take);
          state.left -= take;
          if (state.left === 0)
            this.#state = state.kind === 'body' ? { kind: 'head' } : { kind: 'chunk-size' };
          break;
        }
        case 'head': {
          const end = data.indexOf(HEAD_END);
          if (end < 0) {
            if (data.length > this.#headLimit) {
              this.#state = { kind: 'opaque' };
              continue;
            }
            this.#pending = data;
            data = data.subarray(data.length);
            break;
          }
          const head = this.#head(data.subarray(0, end + 4), end);
          if (!head) {
            this.#state = { kind: 'opaque' };
            continue;
          }
          out.push(head);
          data = data.subarray(end + 4);
          break;
        }
        case 'chunk-size':
        case 'trailers': {
          const end = data.indexOf(CRLF);
          if (end < 0) {
            if (data.length > CHUNK_LINE_LIMIT) this.#state = { kind: 'opaque' };
            else {
              this.#pending = data;
              data = data.subarray(data.length);
            }
            continue;
          }
          const line = data.toString('latin1', 0, end);
          out.push(data.subarray(0, end + 2));
          data = data.subarray(end + 2);
          if (state.kind === 'trailers') {
            // The empty line ends the trailers, and the request.
            if (line === '') this.#state = { kind: 'head' };
            break;
          }
          const size = /^([0-9a-fA-F]{1,12})[ \t]*(;.*)?$/.exec(line);
          if (!size) {
            this.#state = { kind: 'opaque' };
            break;
          }
          const left = parseInt(size[1]!, 16);
          // Each chunk's data ends with its own CRLF, passed with it.
          this.#state = left === 0 ? { kind: 'trailers' } : { kind: 'chunk-data', left: left + 2 };
          break;
        }
      }
    }
    return out.length === 1 ? out[0]! : Buffer.concat(out);
  }

  /**
   * `head` (up to and including its blank line at `end`) with the announcement after its request
   * line; the state set for what follows it. Undefined when it is no HTTP/1 request head.
   */
  #head(head: Buffer, end: number): Buffer | undefined {
    const lineEnd = head.indexOf(CRLF);
    if (lineEnd <= 0) return undefined;
    let length: number | undefined;
    let chunked = false;
    if (lineEnd < end) {
      const fields = head.toString('latin1', lineEnd, end);
      FRAMING.lastIndex = 0;
      for (let match = FRAMING.exec(fields); match; match = FRAMING.exec(fields)) {
        if (match[1]!.length === 17) chunked = true;
        else {
          // Several lengths that differ, or a bad one, make the request one the function's server
          // refuses, ending the connection: nothing after it is read.
          const value = /^\d{1,15}$/.test(match[2]!.trim()) ? Number(match[2]!.trim()) : NaN;
          if (Number.isNaN(value) || (length !== undefined && length !== value)) return undefined;
          length = value;
        }
      }
    }
    // Transfer-Encoding takes over Content-Length (RFC 9112, 6.3).
    if (chunked) this.#state = { kind: 'chunk-size' };
    else if (length) this.#state = { kind: 'body', left: length };
    else this.#state = { kind: 'head' };
    return Buffer.concat([
      head.subarray(0, lineEnd + 2),
      this.#announcement,
      head.subarray(lineEnd + 2),
    ]);
  }
}
