import type { FactorRow, IdentityRow, User } from './users.ts';

/**
 * The JSON GoTrue writes for users, identities and factors: its field names and order, empty
 * strings for absent e-mail and phone, and optional timestamps left out when unset.
 */

/** Go's zero time, which GoTrue prints for timestamps a hand-written row left NULL. */
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

const optional = (value: Date | null) => value?.toISOString();
const required = (value: Date | null) => value?.toISOString() ?? GO_ZERO_TIME;

/** Drops undefined fields (Go's omitempty) while keeping the declared order. */
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function identityJson(identity: IdentityRow) {
  return compact({
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data,
    provider: identity.provider,
    last_sign_in_at: optional(identity.last_sign_in_at),
    created_at: required(identity.created_at),
    updated_at: required(identity.updated_at),
    email: identity.email || undefined,
  });
}

export function factorJson(factor: FactorRow) {
  return compact({
    id: factor.id,
    created_at: required(factor.created_at),
    updated_at: required(factor.updated_at),
    status: factor.status,
    friendly_name: factor.friendly_name || undefined,
    factor_type: factor.factor_type,
    phone: factor.phone ?? '',
    last_challenged_at: factor.last_challenged_at?.toISOString() ?? null,
    web_authn_aaguid: factor.web_authn_aaguid ?? undefined,
  });
}

export function userJson(user: User) {
  return compact({
    id: user.id,
    aud: user.aud ?? '',
    role: user.role ?? '',
    email: user.email ?? '',
    email_confirmed_at: optional(user.email_confirmed_at),
    invited_at: optional(user.invited_at),
    phone: user.phone ?? '',
    phone_confirmed_at: optional(user.phone_confirmed_at),
    confirmation_sent_at: optional(user.confirmation_sent_at),
    confirmed_at: optional(user.confirmed_at),
    recovery_sent_at: optional(user.recovery_sent_at),
    new_email: user.email_change || undefined,
    email_change_sent_at: optional(user.email_change_sent_at),
    new_phone: user.phone_change || undefined,
    phone_change_sent_at: optional(user.phone_change_sent_at),
    reauthentication_sent_at: optional(user.reauthentication_sent_at),
    last_sign_in_at: optional(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    factors: user.factors.length > 0 ? user.factors.map(factorJson) : undefined,
    identities: user.identities.map(identityJson),
    created_at: required(user.created_at),
    updated_at: required(user.updated_at),
    banned_until: optional(user.banned_until),
    deleted_at: optional(user.deleted_at),
    is_anonymous: user.is_anonymous,
  });
}

export type UserJson = ReturnType<typeof userJson>;
