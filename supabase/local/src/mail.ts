import { randomUUID } from 'node:crypto';
import { json, type WebHandler } from './http.ts';

/**
 * A local mail catcher. Auth hands it every e-mail instead of sending it; its HTTP API follows
 * Mailpit's (what `supabase start` runs on the same port) so tests read mail the same way there.
 */

export interface OutgoingMail {
  to: string;
  /** The sender when it is not the mailbox's own (product mail sent through /api/v1/send). */
  from?: string;
  subject: string;
  html: string;
  text: string;
  /** Extra headers (Mailpit's send API `Headers`), e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

interface StoredMessage extends OutgoingMail {
  id: string;
  from: string;
  created: string;
}

const address = (email: string) => ({ Name: '', Address: email });

function summary(message: StoredMessage) {
  return {
    ID: message.id,
    MessageID: message.id,
    From: address(message.from),
    To: [address(message.to)],
    Subject: message.subject,
    Created: message.created,
    Snippet: message.text.slice(0, 250),
    Read: false,
  };
}

export class Mailbox implements Mailer {
  private readonly messages: StoredMessage[] = [];

  constructor(
    private readonly from = 'noreply@shortlane.localhost',
    private readonly capacity = 10_000,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    this.messages.unshift({
      ...mail,
      to: mail.to.toLowerCase(),
      id: randomUUID(),
      from: mail.from ?? this.from,
      created: new Date().toISOString(),
    });
    this.messages.length = Math.min(this.messages.length, this.capacity);
  }

  /** Newest first; `to` filters by recipient. */
  list(to?: string): StoredMessage[] {
    const wanted = to?.toLowerCase();
    return wanted ? this.messages.filter((m) => m.to === wanted) : [...this.messages];
  }

  /**
   * Mailpit's send API (POST /api/v1/send): what the functions' mail sender calls in
   * development. One recipient per message here, as the product sends them; answers { ID }.
   */
  private async accept(request: Request): Promise<Response> {
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return json({ error: 'Invalid JSON' }, 400);
    }
    const message = parseSendRequest(body);
    if (typeof message === 'string') return json({ error: message }, 400);
    await this.send(message);
    return json({ ID: this.messages[0]!.id });
  }

  readonly handler: WebHandler = async (request) => {
    const url = new URL(request.url);
    const parts = url.pathname.split('/').filter(Boolean);
    // GET /api/v1/messages, GET /api/v1/search?query=to:x, GET /api/v1/message/{id}, DELETE /api/v1/messages
    if (parts[0] !== 'api' || parts[1] !== 'v1') return json({ error: 'Not found' }, 404);
    if (parts[2] === 'send' && request.method === 'POST') return this.accept(request);
    if (parts[2] === 'messages' && request.method === 'DELETE') {
      this.messages.length = 0;
      return new Response('ok');
    }
    if ((parts[2] === 'messages' || parts[2] === 'search') && request.method === 'GET') {
      const query = url.searchParams.get('query') ?? '';
      const to = query.match(/to:"?([^"\s]+)"?/)?.[1] ?? url.searchParams.get('to') ?? undefined;
      const found = this.list(to);
      return json({
        total: this.messages.length,
        count: found.length,
        messages_count: found.length,
        messages: found.map(summary),
      });
    }
    // GET /api/v1/message/{id}/headers: Mailpit's shape, each header's values as a list.
    if (parts[2] === 'message' && parts[3] && parts[4] === 'headers' && request.method === 'GET') {
      const message = this.messages.find((m) => m.id === parts[3]);
      if (!message) return json({ error: 'Message not found' }, 404);
      const headers: Record<string, string[]> = {
        From: [message.from],
        To: [message.to],
        Subject: [message.subject],
        Date: [new Date(message.created).toUTCString()],
        'Message-Id': [`<${message.id}@mailpit>`],
      };
      for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = [value];
      return json(headers);
    }
    if (parts[2] === 'message' && parts[3] && request.method === 'GET') {
      const message = this.messages.find((m) => m.id === parts[3]);
      if (!message) return json({ error: 'Message not found' }, 404);
      return json({ ...summary(message), Text: message.text, HTML: message.html });
    }
    return json({ error: 'Not found' }, 404);
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const emailOf = (value: unknown): string | null =>
  isRecord(value) && typeof value.Email === 'string' && /^[^@\s]+@[^@\s]+$/.test(value.Email)
    ? value.Email
    : null;

/** A Mailpit send request as one outgoing mail, or what is wrong with it. */
export function parseSendRequest(body: unknown): OutgoingMail | string {
  if (!isRecord(body)) return 'The body must be a JSON object';
  const from = emailOf(body.From);
  if (from === null) return 'From.Email is required';
  const recipients = Array.isArray(body.To) ? body.To.map(emailOf) : [];
  const to = recipients.length === 1 ? recipients[0] : null;
  if (to == null) return 'To must hold one recipient with an Email';
  const text = typeof body.Text === 'string' ? body.Text : '';
  const html = typeof body.HTML === 'string' ? body.HTML : '';
  if (typeof body.Subject !== 'string' || (text === '' && html === '')) {
    return 'Subject and Text or HTML are required';
  }
  let headers: Record<string, string> | undefined;
  if (body.Headers !== undefined) {
    if (!isRecord(body.Headers) || !Object.values(body.Headers).every((v) => typeof v === 'string'))
      return 'Headers must map header names to strings';
    headers = body.Headers as Record<string, string>;
  }
  return { from, to, subject: body.Subject, text, html, ...(headers ? { headers } : {}) };
}
