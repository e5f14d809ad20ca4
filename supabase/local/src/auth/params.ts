import { badRequest } from './errors.ts';

/**
 * Request bodies decoded the way GoTrue decodes them into Go structs: unknown fields are ignored,
 * `null` leaves a field unset, and a value of the wrong type is a 400 bad_json.
 */

type FieldType = 'string' | 'boolean' | 'object' | 'number';
type Schema = Record<string, FieldType>;

type ValueOf<T extends FieldType> = T extends 'string'
  ? string
  : T extends 'boolean'
    ? boolean
    : T extends 'number'
      ? number
      : Record<string, unknown>;

export type Params<S extends Schema> = { [K in keyof S]?: ValueOf<S[K]> };

const GO_TYPE: Record<FieldType, string> = {
  string: 'string',
  boolean: 'bool',
  number: 'int',
  object: 'map[string]interface {}',
};

function typeOfJson(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  return typeof value;
}

/** Parses a body as JSON; an empty or malformed body is GoTrue's bad_json. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = text.trim() === '' ? 'unexpected end of JSON input' : (error as Error).message;
    throw badRequest('bad_json', `Could not parse request body as JSON: ${reason}`);
  }
}

export async function readJsonBody(request: Request): Promise<unknown> {
  return parseJson(await request.text());
}

export function decodeParams<S extends Schema>(body: unknown, schema: S): Params<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: json: cannot unmarshal ${typeOfJson(body)} into Go value of type struct`,
    );
  }
  const source = body as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(schema)) {
    const value = source[key];
    if (value === undefined || value === null) continue;
    const actual = typeOfJson(value);
    const matches =
      type === 'number' ? typeof value === 'number' && Number.isFinite(value) : actual === type;
    if (!matches) {
      throw badRequest(
        'bad_json',
        `Could not parse request body as JSON: json: cannot unmarshal ${actual} into Go struct field .${key} of type ${GO_TYPE[type]}`,
      );
    }
    result[key] = value;
  }
  return result as Params<S>;
}

export async function readParams<S extends Schema>(
  request: Request,
  schema: S,
): Promise<Params<S>> {
  return decodeParams(await readJsonBody(request), schema);
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string) => UUID_PATTERN.test(value);
