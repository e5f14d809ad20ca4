import net from 'node:net';
import { forwardHeaders, isHopByHop } from './proxy.ts';
import {
  BodyFraming,
  fieldValues,
  HEAD_END,
  HEAD_LIMIT,
  parseRequestHead,
  parseResponseHead,
  requestBody,
  responseBody,
  type RequestHead,
} from './http-framing.ts';

/**
 * REST at the byte level: a gateway connection whose requests are `/rest/v1/…` is relayed to
 * PostgREST over a kept-alive connection of its own, each request head rewritten by the gateway's
 * REST rules (gateway.ts) and each answer's head by its response rules, every body passed as it
 * came. Node's HTTP server and an HTTP client on the PostgREST leg cost the gateway about three
 * times the CPU of the REST request's bytes passing through (docs/scaling.md): this costs a head
 * parse each way.
 *
 * One request at a time: the next head is read only once the answer before it is complete, so a
 * head the relay does not take (another service, a preflight, a refused apikey, anything it is
 * unsure of) finds nothing in flight, and the connection is handed, with the bytes read and not
 * used, to the gateway's HTTP server, where it stays and is served exactly as before.
 */

export interface RestRules {
  /**
   * The head (CRLF CRLF included) to send PostgREST for a request from `peer`, or undefined when
   * the gateway's HTTP server is to answer it.
   */
  request(head: RequestHead, peer: string): string | undefined;
  /**
   * Whether a field of PostgREST's answer (`name` lower-cased) is withheld from the client,
   * beside the hop-by-hop ones no proxy passes on.
   */
  withholds(name: string): boolean;
  /** The fields every answer gets after PostgREST's own (flat [name, value, …] list). */
  answerFields: readonly string[];
  /** The answer for an upstream that failed before answering (as the gateway's 502). */
  badGateway(): { line: string; fields: string[]; body: Buffer };
}

export interface RestRelayOptions {
  rules: RestRules;
  /** PostgREST's port on 127.0.0.1. */
  port: number;
  /** A client connection idle this long between requests is closed (the server's keep-alive). */
  idleTimeoutMs: number;
  /**
   * A PostgREST connection idle this long is closed rather than reused, well before PostgREST's
   * own timeout would close it under a request just sent.
   */
  upstreamIdleMs?: number;
}

/** The HTTP server's way in: it takes the connection with the bytes the relay read and did not use. */
export type HandOver = (client: net.Socket, unread: Buffer) => void;

export interface RestRelay {
  /** Takes a client connection whose first bytes (one complete head at least) were `read`. */
  take(client: net.Socket, read: Buffer, handOver: HandOver): void;
  /**
   * Ends every relayed connection once its answer in flight is complete, cutting those still busy
   * at `deadline` (epoch ms), as the gateway's own drain does (drain.ts).
   */
  drain(deadline: number): Promise<void>;
}

const UPSTREAM_IDLE_MS = 4_000;
/** Most bytes one read of PostgREST's answers takes. */
const ANSWER_READ_SIZE = 16 * 1024;
/** A head and body this short go to the client as one copied buffer. */
const SMALL_ANSWER = 16 * 1024;
const EMPTY = Buffer.alloc(0);
const CLOSE_END = 'Connection: close\r\n\r\n';

/** How an answer's head ends, after PostgREST's fields: the gateway's, then the connection's. */
interface HeadEnds {
  /** The end of a head that keeps the connection open, as Node's server writes it. */
  keepAlive: string;
  /** The same after PostgREST's own head (its fields kept as they came), as bytes. */
  keptAnswerKeepAlive: Buffer;
  keptAnswerClose: Buffer;
}

function headEnds(options: RestRelayOptions): HeadEnds {
  const keepAlive = `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(options.idleTimeoutMs / 1000)}\r\n\r\n`;
  let added = '\r\n';
  const fields = options.rules.answerFields;
  for (let i = 0; i < fields.length; i += 2) added += `${fields[i]}: ${fields[i + 1]}\r\n`;
  return {
    keepAlive,
    keptAnswerKeepAlive: Buffer.from(`${added}${keepAlive}`, 'latin1'),
    keptAnswerClose: Buffer.from(`${added}${CLOSE_END}`, 'latin1'),
  };
}

export function createRestRelay(options: RestRelayOptions): RestRelay {
  const connections = new Set<RestConnection>();
  const ends = headEnds(options);
  let draining = false;
  return {
    take(client, read, handOver) {
      const connection = new RestConnection(client, options, ends, handOver, () =>
        connections.delete(connection),
      );
      connections.add(connection);
      if (draining) connection.closeAfterAnswer();
      connection.start(read);
    },
    async drain(deadline) {
      draining = true;
      for (const connection of connections) connection.closeAfterAnswer();
      while (connections.size > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      for (const connection of connections) connection.destroy();
    },
  };
}

function totalLength(buffers: readonly Buffer[]): number {
  let length = 0;
  for (const buffer of buffers) length += buffer.length;
  return length;
}

class RestConnection {
  readonly #client: net.Socket;
  readonly #options: RestRelayOptions;
  readonly #handOver: HandOver;
  readonly #forget: () => void;
  readonly #peer: string;
  readonly #ends: HeadEnds;
  /** Client bytes read and not yet sent on. */
  #inbox: Buffer = EMPTY;
  /** The body of the request being sent on, until it is all sent. */
  #requestBody: BodyFraming | undefined;
  /** The method of the request whose answer is awaited. */
  #awaiting: string | undefined;
  #upstream: net.Socket | undefined;
  /** Bytes of an answer's head not complete yet. */
  #answerHead: Buffer | undefined;
  /** The body of the answer being relayed, once its head is sent. */
  #answerBody: BodyFraming | undefined;
  /** PostgREST said it closes its connection after this answer. */
  #upstreamCloses = false;
  /** When the PostgREST connection last completed an answer (performance.now()). */
  #upstreamUsed = 0;
  /** The client connection ends after the answer in flight. */
  #closeAfter = false;
  /** Reading is paused: a head waits for the answer before it, or PostgREST's buffer is full. */
  #waiting = false;
  #upstreamFull = false;
  #attached = true;

  constructor(
    client: net.Socket,
    options: RestRelayOptions,
    ends: HeadEnds,
    handOver: HandOver,
    forget: () => void,
  ) {
    this.#client = client;
    this.#options = options;
    this.#ends = ends;
    this.#handOver = handOver;
    this.#forget = forget;
    this.#peer = client.remoteAddress ?? '';
  }

  start(read: Buffer): void {
    const client = this.#client;
    client.on('data', this.#onClientData);
    client.on('end', this.#onClientEnd);
    client.on('close', this.#onClientClose);
    client.on('timeout', this.#onClientTimeout);
    client.setTimeout(this.#options.idleTimeoutMs);
    this.#onClientData(read);
    if (this.#attached) this.#resumeClient();
  }

  closeAfterAnswer(): void {
    this.#closeAfter = true;
    if (this.#idle()) this.#end();
  }

  destroy(): void {
    this.#client.destroy();
    this.#upstream?.destroy();
  }

  #idle(): boolean {
    return this.#awaiting === undefined && this.#requestBody === undefined;
  }

  #resumeClient(): void {
    if (this.#attached && !this.#waiting && !this.#upstreamFull) this.#client.resume();
  }

  readonly #onClientData = (chunk: Buffer) => {
    this.#inbox = this.#inbox.length === 0 ? chunk : Buffer.concat([this.#inbox, chunk]);
    const out: Buffer[] = [];
    this.#pump(out);
    if (out.length > 0) this.#toUpstream(out);
  };

  /** Takes what it can of the inbox: a request head, body bytes; `out` gets the bytes to send. */
  #pump(out: Buffer[]): void {
    while (this.#attached) {
      const body = this.#requestBody;
      if (body) {
        if (this.#inbox.length === 0) return;
        const taken = body.take(this.#inbox);
        if (taken < 0) {
          // A chunked body it cannot frame: passed on as it is (PostgREST refuses it), and the
          // connection ends after the answer, as Node's server ends one it cannot parse.
          this.#requestBody = BodyFraming.untilClose();
          this.#closeAfter = true;
          out.push(this.#inbox);
          this.#inbox = EMPTY;
          return;
        }
        out.push(taken === this.#inbox.length ? this.#inbox : this.#inbox.subarray(0, taken));
        this.#inbox = this.#inbox.subarray(taken);
        if (!body.done) return;
        this.#requestBody = undefined;
        continue;
      }
      if (this.#inbox.length === 0) return;
      if (this.#awaiting !== undefined || this.#closeAfter) {
        // The next request waits for the answer before it (one request at a time).
        this.#waiting = true;
        this.#client.pause();
        return;
      }
      const end = this.#inbox.indexOf(HEAD_END);
      if (end < 0) {
        if (this.#inbox.length > HEAD_LIMIT) this.#leave(out);
        return;
      }
      const head =
        end < HEAD_LIMIT ? parseRequestHead(this.#inbox.toString('latin1', 0, end)) : undefined;
      const framing = head && requestBody(head.fields);
      const upstreamHead = framing && head && this.#options.rules.request(head, this.#peer);
      if (upstreamHead === undefined) return this.#leave(out);
      this.#ensureUpstream(out);
      out.push(Buffer.from(upstreamHead, 'latin1'));
      this.#awaiting = head!.method;
      this.#requestBody = framing!.done ? undefined : framing;
      this.#inbox = this.#inbox.subarray(end + HEAD_END.length);
    }
  }

  /** A PostgREST connection for the next request: the one kept, or a new one. */
  #ensureUpstream(out: Buffer[]): void {
    const kept = this.#upstream;
    // Idle too long, it may be closing: a timestamp, not a timer that every read and write of the
    // connection would have to push back (the client's own idle timeout ends both anyway).
    const fresh =
      performance.now() - this.#upstreamUsed < (this.#options.upstreamIdleMs ?? UPSTREAM_IDLE_MS);
    if (kept && !kept.destroyed && fresh) return;
    kept?.destroy();
    // Bytes meant for a connection that is gone go nowhere.
    out.length = 0;
    let buffer = Buffer.allocUnsafeSlow(ANSWER_READ_SIZE);
    const upstream = net.connect({
      port: this.#options.port,
      host: '127.0.0.1',
      noDelay: true,
      // Answers read into this connection's buffer, without a Readable's buffering and events.
      onread: {
        buffer: () => buffer,
        callback: (length: number) => {
          const flowing = this.#onAnswer(buffer.subarray(0, length));
          // Bytes the kernel did not take at once are still referred to: read elsewhere next.
          if (this.#client.writableLength > 0) buffer = Buffer.allocUnsafeSlow(ANSWER_READ_SIZE);
          return flowing;
        },
      },
    });
    this.#upstream = upstream;
    this.#upstreamCloses = false;
    upstream.on('drain', () => {
      this.#upstreamFull = false;
      this.#resumeClient();
    });
    upstream.on('error', () => {});
    upstream.on('close', () => this.#upstreamGone(upstream));
  }

  #toUpstream(out: Buffer[]): void {
    const upstream = this.#upstream;
    if (!upstream || upstream.destroyed) return;
    let written: boolean;
    if (out.length === 1) written = upstream.write(out[0]!);
    else {
      // One writev for a head and its body's first bytes.
      upstream.cork();
      for (const bytes of out) upstream.write(bytes);
      upstream.uncork();
      written = upstream.writableLength === 0;
    }
    if (!written && upstream.writableNeedDrain) {
      this.#upstreamFull = true;
      this.#client.pause();
    }
  }

  /**
   * PostgREST's bytes (in a buffer reused for the next read): answer heads rewritten, bodies
   * passed as they are. False while the client's buffer is full (reading resumes on its drain).
   */
  #onAnswer(chunk: Buffer): boolean {
    const out: Buffer[] = [];
    let data = chunk;
    let at = 0;
    while (at < data.length) {
      if (this.#awaiting === undefined) {
        // Bytes no request asked for: this connection cannot be trusted any more.
        this.#upstream?.destroy();
        this.#upstream = undefined;
        break;
      }
      if (!this.#answerBody) {
        if (this.#answerHead) {
          data = Buffer.concat([this.#answerHead, data.subarray(at)]);
          at = 0;
          this.#answerHead = undefined;
        }
        const end = data.indexOf(HEAD_END, at);
        if (end < 0) {
          if (data.length - at > HEAD_LIMIT) return this.#answerFailed(out);
          // A copy: the read buffer is reused.
          this.#answerHead = Buffer.from(data.subarray(at));
          break;
        }
        const headStart = at;
        const head = parseResponseHead(data.toString('latin1', at, end));
        const framing = head && responseBody(head.fields, head.status, this.#awaiting);
        at = end + HEAD_END.length;
        if (!head || !framing || head.status === 101) return this.#answerFailed(out);
        // Interim answers are not passed on (nor were they by the HTTP proxy).
        if (head.status < 200) continue;
        this.#upstreamCloses = fieldValues(head.fields, 'connection').some((value) =>
          /(?:^|,)[ \t]*close[ \t]*(?:,|$)/i.test(value),
        );
        if (framing.untilClose) this.#closeAfter = true;
        this.#putAnswerHead(out, head.line, head.fields, data.subarray(headStart, end));
        this.#answerBody = framing;
      }
      const taken = this.#answerBody.take(data, at);
      if (taken < 0) {
        this.#flush(out);
        this.#destroyBoth();
        return false;
      }
      if (taken > 0) out.push(data.subarray(at, at + taken));
      at += taken;
      if (!this.#answerBody.done) break;
      if (at < data.length) {
        // Bytes after the answer, which no request asked for: the connection is not reused.
        this.#upstream?.destroy();
        this.#upstream = undefined;
      }
      const flowing = this.#flush(out);
      this.#answered();
      return flowing;
    }
    return this.#flush(out);
  }

  /**
   * The answer's head for the client: PostgREST's bytes as they came (`raw`, without the blank
   * line) and the gateway's fields after them when it keeps every field of PostgREST's, as it
   * does on almost every answer; else the head rebuilt without the fields it withholds.
   */
  #putAnswerHead(out: Buffer[], line: string, fields: string[], raw: Buffer): void {
    const rules = this.#options.rules;
    for (let i = 0; i < fields.length; i += 2) {
      const name = fields[i]!.toLowerCase();
      if (isHopByHop(name) || rules.withholds(name)) {
        const kept = forwardHeaders(fields, (lower) => rules.withholds(lower), rules.answerFields);
        out.push(this.#headBytes(line, kept));
        return;
      }
    }
    out.push(raw, this.#closeAfter ? this.#ends.keptAnswerClose : this.#ends.keptAnswerKeepAlive);
  }

  /** An answer's head for the client, saying whether the connection stays open after it. */
  #headBytes(line: string, fields: string[]): Buffer {
    let text = `${line}\r\n`;
    for (let i = 0; i < fields.length; i += 2) text += `${fields[i]}: ${fields[i + 1]}\r\n`;
    return Buffer.from(`${text}${this.#closeAfter ? CLOSE_END : this.#ends.keepAlive}`, 'latin1');
  }

  /**
   * Writes to the client; false when its buffer is full, PostgREST's side then paused until it
   * drains.
   */
  #flush(out: Buffer[]): boolean {
    if (out.length === 0) return true;
    const client = this.#client;
    if (out.length === 1) client.write(out[0]!);
    else if (totalLength(out) <= SMALL_ANSWER)
      // A head and a short body in one write: a copy costs less than writev's machinery.
      client.write(Buffer.concat(out));
    else {
      client.cork();
      for (const bytes of out) client.write(bytes);
      client.uncork();
    }
    if (!client.writableNeedDrain) return true;
    const upstream = this.#upstream;
    if (upstream) client.once('drain', () => upstream.resume());
    return false;
  }

  /** An answer is complete: the next request may go. */
  #answered(): void {
    this.#upstreamUsed = performance.now();
    this.#awaiting = undefined;
    this.#answerBody = undefined;
    if (this.#upstreamCloses) {
      this.#upstream?.destroy();
      this.#upstream = undefined;
    }
    // A body still coming is not waited for: the client is told the connection closes.
    if (this.#closeAfter) return this.#end();
    this.#waiting = false;
    const out: Buffer[] = [];
    this.#pump(out);
    if (out.length > 0) this.#toUpstream(out);
    this.#resumeClient();
  }

  /** PostgREST's answer cannot be read: a 502 if nothing of it was sent, else the client is cut. */
  #answerFailed(out: Buffer[]): boolean {
    this.#upstream?.destroy();
    this.#upstream = undefined;
    if (this.#answerBody || out.length > 0) this.#destroyBoth();
    else this.#badGateway();
    // Nothing more is read from that connection.
    return false;
  }

  #upstreamGone(upstream: net.Socket): void {
    if (this.#upstream !== upstream || !this.#attached) return;
    this.#upstream = undefined;
    if (this.#awaiting === undefined) return;
    if (this.#answerBody?.untilClose) {
      this.#answerBody = BodyFraming.length(0);
      return this.#answered();
    }
    if (this.#answerBody) return this.#destroyBoth();
    this.#badGateway();
  }

  /** Answers the request in flight for PostgREST, which failed before answering it. */
  #badGateway(): void {
    this.#answerHead = undefined;
    // A body still coming cannot be sent anywhere: the connection ends after the answer.
    if (this.#requestBody) this.#closeAfter = true;
    const { line, fields, body } = this.#options.rules.badGateway();
    this.#flush([this.#headBytes(line, fields), body]);
    this.#requestBody = undefined;
    this.#answerBody = BodyFraming.length(0);
    this.#answered();
  }

  /** The HTTP server takes the connection from here (nothing is in flight). */
  #leave(out: Buffer[]): void {
    if (out.length > 0) this.#toUpstream(out);
    this.#detach();
    this.#upstream?.destroy();
    this.#upstream = undefined;
    const unread = this.#inbox;
    this.#inbox = EMPTY;
    this.#handOver(this.#client, unread);
  }

  #detach(): void {
    if (!this.#attached) return;
    this.#attached = false;
    const client = this.#client;
    client.pause();
    client.setTimeout(0);
    client.removeListener('data', this.#onClientData);
    client.removeListener('end', this.#onClientEnd);
    client.removeListener('close', this.#onClientClose);
    client.removeListener('timeout', this.#onClientTimeout);
    this.#forget();
  }

  /** Ends the client connection gracefully (its written answers are still delivered). */
  #end(): void {
    this.#detach();
    this.#upstream?.destroy();
    this.#client.end();
  }

  #destroyBoth(): void {
    this.#detach();
    this.destroy();
  }

  readonly #onClientEnd = () => {
    // The client sends nothing more: its answer in flight, if any, still goes to it.
    if (this.#requestBody) return this.#destroyBoth();
    this.#closeAfter = true;
    if (this.#awaiting === undefined) this.#end();
  };

  readonly #onClientClose = () => {
    this.#detach();
    // The client went away: its request need not go on.
    this.#upstream?.destroy();
    this.#upstream = undefined;
  };

  readonly #onClientTimeout = () => {
    if (!this.#idle()) return;
    // A head begun and not finished: the HTTP server applies its own timeouts to it.
    if (this.#inbox.length > 0) return this.#leave([]);
    this.#destroyBoth();
  };
}
