import { storageErrors } from './errors.ts';

/**
 * A streaming multipart/form-data reader (RFC 7578): parts are read one after another straight
 * from the request stream, so a file part can be written to disk as it arrives without the form
 * ever being held in memory.
 */

export interface PartHeaders {
  /** The form field name from Content-Disposition. */
  name: string;
  /** Present when the part is a file. */
  filename: string | undefined;
  contentType: string | undefined;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;

function malformed(): Error {
  return storageErrors.invalidRequest('Multipart form data is malformed');
}

/** The boundary parameter of a multipart/form-data Content-Type, if it is one. */
export function multipartBoundary(contentType: string | null): string | undefined {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return undefined;
  const match = contentType.match(/;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i);
  return match?.[1] ?? match?.[2];
}

function parseHeaders(raw: string): PartHeaders {
  const headers = new Map<string, string>();
  for (const line of raw.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition') ?? '';
  const param = (key: string) => {
    const match = disposition.match(new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, 'i'));
    return match?.[1]?.replace(/\\(.)/g, '$1');
  };
  return {
    name: param('name') ?? '',
    filename: param('filename'),
    contentType: headers.get('content-type'),
  };
}

export class MultipartReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly delimiter: Buffer;
  // A virtual CRLF in front lets the first boundary match the same delimiter as the others.
  private buffer: Buffer = Buffer.from(CRLF);
  private ended = false;
  private started = false;
  private finished = false;

  constructor(body: ReadableStream<Uint8Array>, boundary: string) {
    this.reader = body.getReader();
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  /** Reads one more chunk into the buffer; false once the stream is over. */
  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const { done, value } = await this.reader.read();
    if (done) {
      this.ended = true;
      return false;
    }
    this.buffer = Buffer.concat([this.buffer, value]);
    return true;
  }

  /** Yields bytes up to the next delimiter and consumes the delimiter. */
  private async *untilDelimiter(): AsyncGenerator<Buffer> {
    for (;;) {
      const at = this.buffer.indexOf(this.delimiter);
      if (at >= 0) {
        if (at > 0) yield this.buffer.subarray(0, at);
        this.buffer = this.buffer.subarray(at + this.delimiter.length);
        return;
      }
      // Keep a tail that may be the start of a delimiter split across chunks.
      const safe = this.buffer.length - (this.delimiter.length - 1);
      if (safe > 0) {
        yield this.buffer.subarray(0, safe);
        this.buffer = this.buffer.subarray(safe);
      }
      if (!(await this.fill())) throw malformed();
    }
  }

  private async ensure(bytes: number): Promise<void> {
    while (this.buffer.length < bytes) if (!(await this.fill())) throw malformed();
  }

  /**
   * Advances to the next part and returns its headers, or undefined after the closing boundary.
   * The previous part's body must have been read (or skipped) first.
   */
  async nextPart(): Promise<PartHeaders | undefined> {
    if (this.finished) return undefined;
    if (!this.started) {
      this.started = true;
      // Skip the preamble up to the first boundary.
      for await (const preamble of this.untilDelimiter()) void preamble;
    }
    await this.ensure(2);
    if (this.buffer[0] === 0x2d && this.buffer[1] === 0x2d) {
      this.finished = true;
      return undefined;
    }
    for (;;) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end >= 0) {
        const raw = this.buffer
          .subarray(0, end)
          .toString('utf8')
          .replace(/^[ \t]*\r\n/, '');
        this.buffer = this.buffer.subarray(end + HEADER_END.length);
        return parseHeaders(raw);
      }
      if (this.buffer.length > MAX_HEADER_BYTES || !(await this.fill())) throw malformed();
    }
  }

  /** The current part's bytes, streamed. */
  body(): AsyncGenerator<Buffer> {
    return this.untilDelimiter();
  }

  /** The current part's bytes as text, refusing more than `maxBytes`. */
  async text(maxBytes: number, tooLarge: () => Error): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.untilDelimiter()) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Reads and discards whatever is left, so the request ends cleanly. */
  async drain(): Promise<void> {
    this.buffer = Buffer.alloc(0);
    while (await this.fill()) this.buffer = Buffer.alloc(0);
  }
}
