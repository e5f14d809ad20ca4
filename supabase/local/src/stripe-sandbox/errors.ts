import { json } from '../http.ts';

/** Stripe's error body: `{ error: { type, code, message, param, doc_url } }` with its status. */
export type StripeErrorType =
  'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';

export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: StripeErrorType,
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly declineCode?: string,
  ) {
    super(message);
  }

  toResponse(): Response {
    return json(
      {
        error: {
          type: this.type,
          message: this.message,
          ...(this.code
            ? {
                code: this.code,
                doc_url: `https://stripe.com/docs/error-codes/${this.code.replaceAll('_', '-')}`,
              }
            : {}),
          ...(this.param ? { param: this.param } : {}),
          ...(this.declineCode ? { decline_code: this.declineCode } : {}),
        },
      },
      this.status,
      { 'request-id': `req_${crypto.randomUUID().replaceAll('-', '').slice(0, 14)}` },
    );
  }
}

export const missingParam = (param: string) =>
  new StripeError(
    400,
    'invalid_request_error',
    `Missing required param: ${param}.`,
    'parameter_missing',
    param,
  );

export const invalidParam = (param: string, message: string) =>
  new StripeError(400, 'invalid_request_error', message, 'parameter_invalid_empty', param);

export const noSuchObject = (kind: string, id: string, param = 'id') =>
  new StripeError(
    404,
    'invalid_request_error',
    `No such ${kind}: '${id}'`,
    'resource_missing',
    param,
  );
