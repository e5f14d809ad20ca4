import { randomUUID } from 'node:crypto';
import { json } from '../http.ts';

/**
 * Paddle's error body: `{ error: { type, code, detail, documentation_url, errors? }, meta:
 * { request_id } }` with its HTTP status (developer.paddle.com/api-reference/about/errors).
 */
export type PaddleErrorType = 'request_error' | 'api_error';

export interface FieldError {
  field: string;
  message: string;
}

export class PaddleError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly type: PaddleErrorType = 'request_error',
    readonly area = 'shared',
  ) {
    super(detail);
  }

  toResponse(): Response {
    return json(
      {
        error: {
          type: this.type,
          code: this.code,
          detail: this.detail,
          documentation_url: `https://developer.paddle.com/v1/errors/${this.area}/${this.code}`,
          ...(this.errors ? { errors: this.errors } : {}),
        },
        meta: { request_id: randomUUID() },
      },
      this.status,
    );
  }
}

export const notFound = (id: string) => new PaddleError(404, 'not_found', `Entity ${id} not found`);

/** A request body that breaks the schema: Paddle's 400 `bad_request` with one entry per field. */
export const invalidFields = (errors: FieldError[]) =>
  new PaddleError(400, 'bad_request', 'Invalid request.', errors);

export const invalidField = (field: string, message: string) => invalidFields([{ field, message }]);
