import type pg from 'pg';
import { expect } from 'vitest';

/**
 * The coded errors RPCs raise (the data-model contract's table): PostgREST turns errcode PTxxx
 * into HTTP status xxx with body { code, message, details, hint }. Tests assert all four parts.
 * Add a row here when a rule needs a new code.
 */
export const ERROR_CODES = {
  url_required: { status: 422, detail: 'The URL field is required.', hint: 'url' },
  url_invalid: { status: 422, detail: 'The url must be a valid URL.', hint: 'url' },
  url_not_allowed: { status: 422, detail: 'This URL is not allowed.', hint: 'url' },
  webhook_endpoint_not_found: { status: 404, detail: 'Webhook endpoint not found.' },
  webhook_delivery_not_found: { status: 404, detail: 'Delivery not found.' },
  webhook_endpoint_disabled: { status: 409, detail: 'Enable the endpoint first.' },
  url_banned: { status: 422, detail: 'This domain is banned.', hint: 'url' },
  domain_not_found: { status: 422, detail: 'Domain not found.', hint: 'domain' },
  domain_banned: { status: 422, detail: 'This domain is banned.', hint: 'domain' },
  domain_ours: {
    status: 422,
    detail: 'This domain is one of ours and cannot be added.',
    hint: 'domain',
  },
  domain_taken: { status: 422, detail: 'This domain has already been taken.', hint: 'domain' },
  domain_guests_only_logged_in: {
    status: 422,
    detail: 'This domain is not available to guest users.',
    hint: 'domain',
  },
  email_verification: {
    status: 403,
    detail: 'Please verify your e-mail address first.',
    hint: undefined,
  },
  not_subscribed: { status: 402, detail: 'billing.not_subscribed', hint: 'domain' },
  custom_alias_not_allowed: { status: 403, detail: 'custom_alias_not_allowed', hint: 'alias' },
  alias_invalid: {
    status: 422,
    detail: 'The alias may only contain letters, numbers, dashes and underscores.',
    hint: 'alias',
  },
  alias_reserved: { status: 422, detail: 'This alias is reserved.', hint: 'alias' },
  alias_taken: { status: 422, detail: 'The new alias is not unique', hint: 'alias' },
  alias_not_found: { status: 404, detail: 'Alias not found', hint: 'alias' },
  tag_not_found: { status: 404, detail: 'Tag not found', hint: 'tags' },
  tag_duplicate: { status: 422, detail: 'The tag has already been taken.', hint: undefined },
  tag_too_short: { status: 422, detail: 'The tag must be at least 2 characters.', hint: undefined },
  tag_too_long: {
    status: 422,
    detail: 'The tag must not be greater than 45 characters.',
    hint: undefined,
  },
  tags_not_allowed: { status: 403, detail: 'Your plan does not allow tags.', hint: 'tags' },
  description_not_allowed: {
    status: 422,
    detail: 'A description is only available in organizations.',
    hint: 'description',
  },
  expiry_too_soon: {
    status: 422,
    detail: 'The expiry must be at least 5 minutes from now.',
    hint: 'expires_at',
  },
  expiry_too_far: { status: 422, detail: 'The expiry must be within 5 years.', hint: 'expires_at' },
  expiry_not_allowed: {
    status: 403,
    detail: 'Your plan does not allow link expiry.',
    hint: 'expires_at',
  },
  plan_limit_reached: {
    status: 402,
    detail: "You've hit your plan's limit for creating links",
    hint: 'form',
  },
  not_enough_credits: {
    status: 402,
    detail: 'Not enough credits for this operation',
    hint: 'form',
  },
  paid_only: { status: 402, detail: 'Editing a destination needs a paid account.', hint: 'url' },
  permission_denied: { status: 403, detail: 'Permission denied', hint: 'form' },
  team_required: { status: 422, detail: 'Team required.', hint: 'team' },
  unknown_team: { status: 404, detail: 'Unknown team.', hint: 'team' },
  viewer_cannot_create: {
    status: 403,
    detail: 'You are not a selected team member',
    hint: 'team',
  },
  invitation_not_found: { status: 404, detail: 'Invitation not found.', hint: 'invitation' },
  already_member: {
    status: 409,
    detail: 'That user is already on the team or invited',
    hint: 'invitation',
  },
  team_limit_reached: {
    status: 402,
    detail: "Your current plan doesn't allow you to create more teams or invite more members",
    hint: 'form',
  },
  // The detail names the column ("status cannot be changed."), as does the hint.
  protected_column: { status: 403, detail: undefined, hint: undefined },
  // Added by data-core.
  organization_not_found: {
    status: 404,
    detail: 'Organization not found.',
    hint: 'organization',
  },
  notification_not_found: {
    status: 404,
    detail: 'Notification not found.',
    hint: 'notifications',
  },
  notifications_required: {
    status: 422,
    detail: 'The notifications field is required.',
    hint: 'notifications',
  },
  archive_invalid: {
    status: 422,
    detail: 'The archive field must be true or false.',
    hint: 'archive',
  },
  coupon_not_found: { status: 404, detail: 'Coupon not found.', hint: 'coupon' },
  role_invalid: { status: 422, detail: 'The selected role is invalid.', hint: 'role' },
  name_required: { status: 422, detail: 'The name field is required.', hint: 'name' },
  slug_invalid: {
    status: 422,
    detail: 'The slug may only contain lower-case letters, numbers and dashes.',
    hint: 'slug',
  },
  slug_taken: { status: 422, detail: 'The slug has already been taken.', hint: 'slug' },
  tld_not_available: {
    status: 422,
    detail: 'This domain extension is not available.',
    hint: 'domain',
  },
  // Two-factor (20261122001400_two_factor.sql).
  aal2_required: {
    status: 403,
    detail: 'Enter a code from your authenticator app to make this change.',
    hint: 'form',
  },
  two_factor_not_enabled: {
    status: 422,
    detail: 'Two-factor authentication is not enabled.',
    hint: 'form',
  },
  impersonation_not_allowed: {
    status: 403,
    detail: "An impersonation session cannot change the account's sign-in protection.",
    hint: 'form',
  },
  too_many_attempts: {
    status: 429,
    detail: 'Too many wrong codes. Try again in 15 minutes.',
    hint: 'code',
  },
  // Team administration (20261122003700_team_administration.sql).
  user_not_in_team: {
    status: 404,
    detail: 'The user does not belong to the given team',
    hint: 'user',
  },
  not_team_member: { status: 403, detail: 'You are not a selected team member', hint: 'team' },
  team_owner_fixed: {
    status: 422,
    detail: "The team owner's membership cannot be changed.",
    hint: 'user',
  },
  // Organization users, invitation links and the helpdesk (20261122004300).
  user_not_in_organization: {
    status: 404,
    detail: 'The user does not belong to the given organization.',
    hint: 'user',
  },
  own_organization_membership: {
    status: 422,
    detail: 'You cannot change your own role or remove yourself here.',
    hint: 'user',
  },
  invitation_expired: {
    status: 422,
    detail: 'This invitation has expired. Ask for a new one.',
    hint: 'invitation',
  },
  invitation_used: {
    status: 409,
    detail: 'This invitation has already been answered.',
    hint: 'invitation',
  },
  invitation_other_email: {
    status: 403,
    detail: 'This invitation was sent to another e-mail address.',
    hint: 'invitation',
  },
  own_membership: {
    status: 422,
    detail: 'You cannot change your own membership here; leave the team instead.',
    hint: 'user',
  },
  // Organization team settings (20261122004400_organization_team_settings.sql).
  not_organization_user: {
    status: 422,
    detail: 'The user does not belong to the organization.',
    hint: 'user',
  },
  // The UTM builder's preset save: the detail is the field's message, the hint the field.
  utm_preset_invalid: { status: 422, detail: undefined, hint: undefined },
  // Branded domains and vanity subdomains (migration 20261122004500).
  feature_not_allowed: {
    status: 403,
    detail: 'Your plan does not allow this feature.',
    hint: 'form',
  },
  domain_limit_reached: {
    status: 402,
    detail: "You've reached your plan's limit of domains.",
    hint: 'domain',
  },
  subdomain_limit_reached: {
    status: 402,
    detail: "You've reached your plan's limit of subdomains.",
    hint: 'domain',
  },
  domains_subdomains_limit_reached: {
    status: 402,
    detail: "You've reached your plan's limit of domains and subdomains.",
    hint: 'domain',
  },
  vanity_subdomain_limit_reached: {
    status: 402,
    detail: "You've reached your plan's limit of vanity subdomains.",
    hint: 'subdomain',
  },
  subdomain_required: { status: 422, detail: 'Subdomain required.', hint: 'subdomain' },
  subdomain_invalid: { status: 422, detail: undefined, hint: 'subdomain' },
  subdomain_reserved: { status: 422, detail: 'This subdomain is reserved.', hint: 'subdomain' },
  subdomain_taken: {
    status: 422,
    detail: 'This subdomain has already been taken.',
    hint: 'subdomain',
  },
  base_domain_invalid: {
    status: 422,
    detail: 'Vanity subdomains are not offered on this domain.',
    hint: 'base_domain',
  },
  vanity_through_rpc: {
    status: 403,
    detail: 'Vanity subdomains are claimed with create_vanity_subdomain.',
    hint: 'domain',
  },
  domain_deleted_for_good: {
    status: 422,
    detail: 'A deleted domain cannot be restored; add it again.',
    hint: 'is_deleted',
  },
  // Organization single sign-on (20261122005000_organization_sso.sql).
  sso_forbidden: {
    status: 403,
    detail: 'You may not manage single sign-on of this organization.',
    hint: 'organization',
  },
  sso_plan_required: {
    status: 402,
    detail: 'Single sign-on is part of the Enterprise plan.',
    hint: 'sso',
  },
  sso_domain_invalid: {
    status: 422,
    detail: 'Enter a domain such as example.com.',
    hint: 'domain',
  },
  sso_domain_taken: { status: 422, detail: 'This domain is already claimed.', hint: 'domain' },
  sso_domain_not_found: { status: 404, detail: 'Domain not found.', hint: 'domain' },
  sso_not_configured: { status: 422, detail: 'Add your identity provider first.', hint: 'sso' },
  // Added by onboarding (issue 13, item 4). survey_answer_* name the question in the hint.
  survey_not_found: { status: 404, detail: 'Survey not found.', hint: 'survey' },
  survey_already_answered: {
    status: 409,
    detail: 'You have already answered this survey.',
    hint: 'survey',
  },
  survey_answers_invalid: { status: 422, hint: 'answers' },
  survey_answer_required: { status: 422, detail: 'This question needs an answer.' },
  survey_answer_invalid: { status: 422 },
  // Added by metering (issue 13, item 2).
  overage_needs_subscription: {
    status: 422,
    detail: 'Overages need a paid plan. Upgrade your plan to turn them on.',
    hint: 'form',
  },
} as const satisfies Record<string, { status: number; detail?: string; hint?: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

function asDatabaseError(error: unknown): pg.DatabaseError {
  if (error instanceof Error && 'code' in error) return error as pg.DatabaseError;
  throw new Error(`Expected a database error, got: ${String(error)}`);
}

function describeOutcome(outcome: unknown): string {
  if (outcome && typeof outcome === 'object' && 'rowCount' in outcome && 'rows' in outcome) {
    const result = outcome as pg.QueryResult;
    return `rowCount ${result.rowCount}, rows ${JSON.stringify(result.rows)}`;
  }
  return JSON.stringify(outcome);
}

/** Awaits a promise that must reject with a database error, and returns that error. */
export async function expectDatabaseError(promise: Promise<unknown>): Promise<pg.DatabaseError> {
  let outcome: unknown;
  try {
    outcome = await promise;
  } catch (error) {
    return asDatabaseError(error);
  }
  throw new Error(
    `Expected the statement to fail, but it succeeded with ${describeOutcome(outcome)}`,
  );
}

/**
 * A refusal by grants or row-level security: 42501 ("permission denied for …" or "new row
 * violates row-level security policy …").
 */
export async function expectRefused(promise: Promise<unknown>): Promise<pg.DatabaseError> {
  const error = await expectDatabaseError(promise);
  expect(error.code, error.message).toBe('42501');
  return error;
}

/** A coded RPC error: errcode PT<status>, message = code, detail and hint from the catalogue. */
export async function expectCoded(
  promise: Promise<unknown>,
  code: ErrorCode,
  overrides: { detail?: string; hint?: string } = {},
): Promise<pg.DatabaseError> {
  const error = await expectDatabaseError(promise);
  const expected: { status: number; detail?: string; hint?: string } = ERROR_CODES[code];
  expect({ code: error.code, message: error.message }).toEqual({
    code: `PT${expected.status}`,
    message: code,
  });
  const detail = overrides.detail ?? expected.detail;
  const hint = overrides.hint ?? expected.hint;
  if (detail !== undefined) expect(error.detail).toBe(detail);
  if (hint !== undefined) expect(error.hint).toBe(hint);
  return error;
}

/** A protected column refused: protected_column naming the column in detail and hint. */
export function expectProtectedColumn(
  promise: Promise<unknown>,
  column: string,
): Promise<pg.DatabaseError> {
  return expectCoded(promise, 'protected_column', {
    detail: `${column} cannot be changed.`,
    hint: column,
  });
}
