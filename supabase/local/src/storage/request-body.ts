import { storageErrors } from './errors.ts';

/** JSON request bodies (list, sign, move…) are small; Fastify's default limit is 1 MiB. */
const MAX_JSON_BYTES = 1024 * 1024;

/** The chunks of a web stream, for `for await`. */
export async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Reads a JSON object body; an empty body reads as `{}` (Storage accepts those). */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_JSON_BYTES) throw storageErrors.entityTooLarge('request body');
  const parts: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const chunk of chunksOf(request.body)) {
      size += chunk.byteLength;
      if (size > MAX_JSON_BYTES) throw storageErrors.entityTooLarge('request body');
      parts.push(chunk);
    }
  }
  const text = Buffer.concat(parts).toString('utf8').trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw storageErrors.invalidRequest(
      "Body is not valid JSON but content-type is set to 'application/json'",
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw storageErrors.invalidRequest('body must be object');
  }
  return parsed as Record<string, unknown>;
}

/** Field checks in the words of Storage's schema validation ("body must have required property 'x'"). */
export const field = {
  requiredString(body: Record<string, unknown>, name: string): string {
    const value = body[name];
    if (value === undefined) {
      throw storageErrors.invalidRequest(`body must have required property '${name}'`);
    }
    if (typeof value !== 'string')
      throw storageErrors.invalidRequest(`body/${name} must be string`);
    return value;
  },
  optionalString(body: Record<string, unknown>, name: string): string | undefined {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string')
      throw storageErrors.invalidRequest(`body/${name} must be string`);
    return value;
  },
  optionalBoolean(body: Record<string, unknown>, name: string): boolean | undefined {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') {
      throw storageErrors.invalidRequest(`body/${name} must be boolean`);
    }
    return value;
  },
  optionalInteger(
    body: Record<string, unknown>,
    name: string,
    minimum: number,
  ): number | undefined {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      throw storageErrors.invalidRequest(`body/${name} must be integer`);
    }
    if (value < minimum) throw storageErrors.invalidRequest(`body/${name} must be >= ${minimum}`);
    return value;
  },
  /** A `{ column, order }` object: the column one of `columns`, the order asc or desc. */
  optionalSortBy<Column extends string>(
    body: Record<string, unknown>,
    columns: readonly Column[],
    options: { columnRequired: boolean },
  ): { column?: Column; order?: 'asc' | 'desc' } | undefined {
    const value = body.sortBy;
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw storageErrors.invalidRequest('body/sortBy must be object');
    }
    const { column, order } = value as { column?: unknown; order?: unknown };
    if (column === undefined && options.columnRequired) {
      throw storageErrors.invalidRequest("body/sortBy must have required property 'column'");
    }
    if (column !== undefined && !(columns as readonly unknown[]).includes(column)) {
      throw storageErrors.invalidRequest(
        'body/sortBy/column must be equal to one of the allowed values',
      );
    }
    if (order !== undefined && order !== 'asc' && order !== 'desc') {
      throw storageErrors.invalidRequest(
        'body/sortBy/order must be equal to one of the allowed values',
      );
    }
    return { column: column as Column | undefined, order };
  },
  requiredStringArray(body: Record<string, unknown>, name: string): string[] {
    const value = body[name];
    if (value === undefined) {
      throw storageErrors.invalidRequest(`body must have required property '${name}'`);
    }
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
      throw storageErrors.invalidRequest(`body/${name} must be array of strings`);
    }
    return value as string[];
  },
};
