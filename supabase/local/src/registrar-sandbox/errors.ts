import { json } from '../http.ts';

/**
 * Name.com's error body on every non-200 answer: `{ message, details? }`
 * (www.name.com/api-docs, "ErrorMessage"), with the statuses its Core API documents.
 */
export class NameComError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: string,
  ) {
    super(message);
  }

  toResponse(): Response {
    return json(
      { message: this.message, ...(this.details ? { details: this.details } : {}) },
      this.status,
    );
  }
}

export const invalidArgument = (details: string) =>
  new NameComError(400, 'Invalid Argument', details);

export const notFound = (details = 'Domain not found') =>
  new NameComError(404, 'Not Found', details);

/** What CreateDomain answers for a name that cannot be registered (taken, reserved, not offered). */
export const domainNotAvailable = (domainName: string) =>
  invalidArgument(`Domain is not available: ${domainName}`);

export const paymentFailed = () => new NameComError(402, 'Payment failed', 'Insufficient Funds');

export const registryUnavailable = () => new NameComError(502, 'Registry Connection Unavailable');
