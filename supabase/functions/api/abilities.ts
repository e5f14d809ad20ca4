/** The token's scopes (migration 20261122002700's app.api_token_abilities). */
export const ABILITIES = [
  'links:read',
  'links:write',
  'analytics:read',
  'domains:read',
  'bulk',
] as const;
export type Ability = (typeof ABILITIES)[number];
