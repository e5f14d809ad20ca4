/**
 * What a token may do: the public API's scopes (app.api_token_abilities), in the order the form
 * lists them, with the words the screens use.
 */
export const API_TOKEN_ABILITIES = [
  { value: 'links:read', label: 'Links: read', description: 'List and read short links.' },
  {
    value: 'links:write',
    label: 'Links: write',
    description: 'Create, update, archive and delete short links.',
  },
  {
    value: 'analytics:read',
    label: 'Analytics: read',
    description: 'Read click statistics of links and of the account.',
  },
  { value: 'domains:read', label: 'Domains: read', description: 'List the usable domains.' },
  { value: 'bulk', label: 'Bulk', description: 'Create many links in one request.' },
] as const;

export type ApiTokenAbility = (typeof API_TOKEN_ABILITIES)[number]['value'];

const LABELS: ReadonlyMap<string, string> = new Map(
  API_TOKEN_ABILITIES.map((ability) => [ability.value, ability.label]),
);

/** The label of an ability; an unknown one (a newer server) shows as it is stored. */
export const abilityLabel = (value: string): string => LABELS.get(value) ?? value;
