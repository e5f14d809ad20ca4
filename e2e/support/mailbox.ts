/**
 * Reads the local mail catcher through its Mailpit-compatible API (the same API `supabase start`
 * offers), so specs can follow confirmation and recovery links the way a person would.
 */

export interface ReceivedMail {
  id: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link in the message, in order. */
  links: string[];
}

interface MessageSummary {
  ID: string;
  Subject: string;
  To: { Address: string }[];
  Created: string;
}

interface MessageDetail extends MessageSummary {
  Text: string;
  HTML: string;
}

export class MailboxReader {
  constructor(private readonly baseUrl: string) {}

  private async get<T>(path: string): Promise<T> {
    const response = await fetch(new URL(path, this.baseUrl));
    if (!response.ok) throw new Error(`Mailbox ${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  /** Messages to `address`, newest first. */
  async list(address: string): Promise<MessageSummary[]> {
    const query = new URLSearchParams({ query: `to:"${address}"` });
    const { messages } = await this.get<{ messages: MessageSummary[] }>(`/api/v1/search?${query}`);
    return messages;
  }

  async read(id: string): Promise<ReceivedMail> {
    const message = await this.get<MessageDetail>(`/api/v1/message/${encodeURIComponent(id)}`);
    return {
      id: message.ID,
      to: message.To.map((to) => to.Address),
      subject: message.Subject,
      text: message.Text,
      html: message.HTML,
      links: extractLinks(message.HTML || message.Text),
    };
  }

  /**
   * The newest message to `address` whose subject matches, waiting for it to arrive.
   * Mail is sent while the request that triggers it is answered, but a spec may look first.
   */
  async waitFor(
    address: string,
    { subject, timeoutMs = 10_000 }: { subject?: string | RegExp; timeoutMs?: number } = {},
  ): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    const matches = (candidate: string) =>
      subject === undefined ||
      (typeof subject === 'string' ? candidate === subject : subject.test(candidate));
    for (;;) {
      const found = (await this.list(address)).find((message) => matches(message.Subject));
      if (found) return this.read(found.ID);
      if (Date.now() > deadline) {
        throw new Error(
          `No mail to ${address}${subject ? ` with subject ${subject}` : ''} arrived.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const HTML_ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'" };

export function extractLinks(body: string): string[] {
  const links = body.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
  return links.map((link) =>
    link.replace(/&amp;|&quot;|&#39;/g, (entity) => HTML_ENTITIES[entity]!),
  );
}
