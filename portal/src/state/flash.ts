/**
 * Flash messages: what the previous page or a redirect wants said once on arrival (the spec's
 * flashMessages). Auth redirects put their failures in the address (`error_description`, as
 * GoTrue does for an expired e-mail link); the home layout shows errors in a modal.
 */
export type FlashType = 'error' | 'success' | 'info';

export interface FlashMessage {
  type: FlashType;
  message: string;
}

export class FlashStore {
  private messages: readonly FlashMessage[] = [];
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): readonly FlashMessage[] => this.messages;

  push(message: FlashMessage): void {
    this.messages = [...this.messages, message];
    this.emit();
  }

  /** Removes the messages of one type (or all), once they have been shown. */
  clear(type?: FlashType): void {
    const kept = type ? this.messages.filter((message) => message.type !== type) : [];
    if (kept.length === this.messages.length) return;
    this.messages = kept;
    this.emit();
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }
}

/**
 * The error an auth redirect left in the address (query or fragment), if any, and the address
 * without it — so a reload does not say it again.
 */
export function takeFlashFromUrl(url: URL): { flash: FlashMessage | null; cleanUrl: URL } {
  const cleanUrl = new URL(url);
  const hash = new URLSearchParams(cleanUrl.hash.replace(/^#/, ''));
  const description =
    cleanUrl.searchParams.get('error_description') ?? hash.get('error_description');
  if (description == null) return { flash: null, cleanUrl };
  for (const key of ['error', 'error_code', 'error_description']) {
    cleanUrl.searchParams.delete(key);
    hash.delete(key);
  }
  const rest = hash.toString();
  cleanUrl.hash = rest ? `#${rest}` : '';
  return { flash: { type: 'error', message: description }, cleanUrl };
}
