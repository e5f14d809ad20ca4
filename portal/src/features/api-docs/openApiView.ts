/**
 * Pure reading of an OpenAPI 3.1 document for the reference page: operations in document order,
 * schemas' fields with their $refs followed, types as short text. Only what the page shows.
 */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  maxLength?: number;
  anyOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
};

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface MediaTypes {
  content?: Record<string, { schema?: JsonSchema }>;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: MediaTypes;
  responses?: Record<string, MediaTypes & { description?: string }>;
  'x-ability'?: string;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, JsonSchema> };
  'x-error-codes'?: { code: string; status: number; meaning: string }[];
}

export interface OperationView {
  id: string;
  method: string;
  path: string;
  operation: OperationObject;
}

export function operationsOf(document: OpenApiDocument): OperationView[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      id: operation.operationId ?? `${method}-${path}`,
      method: method.toUpperCase(),
      path,
      operation,
    })),
  );
}

/** The component a `#/components/schemas/Name` reference names. */
export const refName = (ref: string) => ref.split('/').at(-1) ?? ref;

export function resolve(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  return document.components?.schemas?.[refName(schema.$ref)] ?? {};
}

/** A schema as a short type: `string (uuid)`, `Link[]`, `"active" | "archived"`, `integer ≤ 100`. */
export function typeText(schema: JsonSchema): string {
  if (schema.$ref) return refName(schema.$ref);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (schema.anyOf) return schema.anyOf.map(typeText).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const named = types.map((type) =>
    type === 'array' ? `${schema.items ? typeText(schema.items) : 'unknown'}[]` : type,
  );
  const base = named.length > 0 ? named.join(' | ') : 'any';
  const limits = [
    schema.format,
    schema.minimum !== undefined ? `≥ ${schema.minimum}` : null,
    schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER
      ? `≤ ${schema.maximum}`
      : null,
    schema.maxItems !== undefined ? `at most ${schema.maxItems}` : null,
    schema.maxLength !== undefined ? `at most ${schema.maxLength} characters` : null,
  ].filter((part): part is string => Boolean(part));
  return limits.length > 0 ? `${base} (${limits.join(', ')})` : base;
}

export interface Field {
  name: string;
  type: string;
  required: boolean;
  description?: string;
  defaultValue?: string;
}

/** The fields of an object schema (after its $ref), in declaration order. */
export function fieldsOf(document: OpenApiDocument, schema: JsonSchema): Field[] {
  const resolved = resolve(document, schema);
  return Object.entries(resolved.properties ?? {}).map(([name, property]) => ({
    name,
    type: typeText(property),
    required: resolved.required?.includes(name) ?? false,
    description: property.description,
    defaultValue: property.default === undefined ? undefined : JSON.stringify(property.default),
  }));
}

export const jsonSchemaOf = (media: MediaTypes | undefined): JsonSchema | undefined =>
  media?.content?.['application/json']?.schema;
