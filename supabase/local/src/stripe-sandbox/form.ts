/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with nested keys in brackets
 * (`metadata[account_id]=…`, `line_items[0][price]=…`, `expand[]=…`), as stripe-node's qs-style
 * encoder writes them. Decoded into plain objects; an all-numeric key set becomes an array.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

function keyPath(name: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  if (!match) return null;
  const rest = [...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? '');
  return [match[1]!, ...rest];
}

function arraysFromIndexes(value: FormValue): FormValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(arraysFromIndexes);
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((key) => [key, arraysFromIndexes(value[key]!)]));
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => converted[key]!);
  }
  return converted;
}

/** Decodes a form body; null when a key is malformed (Stripe answers 400 then). */
export function decodeForm(body: string): FormObject | null {
  const root: FormObject = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const path = keyPath(name);
    if (!path) return null;
    let node: FormObject = root;
    for (let i = 0; i < path.length; i++) {
      const key = path[i]!;
      const last = i === path.length - 1;
      if (key === '') {
        // `expand[]=a&expand[]=b`: append under the parent, kept as numbered keys for now.
        const index = String(Object.keys(node).length);
        if (last) node[index] = value;
        else node = (node[index] = {}) as FormObject;
        continue;
      }
      if (last) {
        node[key] = value;
      } else {
        const next = node[key];
        if (typeof next === 'string' || Array.isArray(next)) return null;
        node = (next ?? (node[key] = {})) as FormObject;
      }
    }
  }
  return arraysFromIndexes(root) as FormObject;
}

export const str = (value: FormValue | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

export const obj = (value: FormValue | undefined): FormObject | undefined =>
  value !== undefined && typeof value === 'object' && !Array.isArray(value) ? value : undefined;

export const list = (value: FormValue | undefined): FormValue[] | undefined =>
  Array.isArray(value) ? value : undefined;
