/**
 * Errors: the RPC error-code table of the data-model contract, a mapper from API error bodies
 * to form errors and notices, and the global status-code table of app-shell section 8.
 */
import { NOTICE_DURATION_MS } from './constants.ts';
import { MESSAGES } from './messages.ts';

interface ErrorCodeEntry {
  status: number;
  /** The spec's wording, or null when the server's `details` carry it (templated). */
  message: string | null;
  /** The field the error belongs to; RPCs may name a more precise one in `hint`. */
  field: string;
}

/** Codes RPCs raise as `message`, with the HTTP status PostgREST answers (errcode PTxxx). */
export const ERROR_CODES = {
  url_required: { status: 422, message: MESSAGES.urlRequired, field: 'url' },
  url_invalid: { status: 422, message: 'The url must be a valid URL.', field: 'url' },
  url_not_allowed: { status: 422, message: 'This URL is not allowed.', field: 'url' },
  url_banned: { status: 422, message: 'This domain is banned.', field: 'url' },
  domain_not_found: { status: 422, message: 'Domain not found.', field: 'domain' },
  domain_banned: { status: 422, message: 'This domain is banned.', field: 'domain' },
  domain_ours: {
    status: 422,
    message: 'This domain is one of ours and cannot be added.',
    field: 'domain',
  },
  domain_taken: { status: 422, message: 'This domain has already been taken.', field: 'domain' },
  domain_guests_only_logged_in: {
    status: 422,
    message: MESSAGES.guestDomainLocked,
    field: 'domain',
  },
  email_verification: {
    status: 403,
    message: 'Please verify your e-mail address first.',
    field: 'domain',
  },
  not_subscribed: { status: 402, message: 'billing.not_subscribed', field: 'domain' },
  custom_alias_not_allowed: { status: 403, message: 'custom_alias_not_allowed', field: 'alias' },
  alias_invalid: {
    status: 422,
    message: 'The alias may only contain letters, numbers, dashes and underscores.',
    field: 'alias',
  },
  alias_reserved: { status: 422, message: 'This alias is reserved.', field: 'alias' },
  alias_taken: { status: 422, message: MESSAGES.aliasNotUnique, field: 'alias' },
  alias_not_found: { status: 404, message: MESSAGES.aliasNotFound, field: 'alias' },
  tag_not_found: { status: 404, message: MESSAGES.tagNotFound, field: 'tags' },
  tag_duplicate: { status: 422, message: 'The tag has already been taken.', field: 'tags' },
  tag_too_short: { status: 422, message: 'The tag must be at least 2 characters.', field: 'tags' },
  tag_too_long: {
    status: 422,
    message: 'The tag must not be greater than 45 characters.',
    field: 'tags',
  },
  tags_not_allowed: { status: 403, message: 'Your plan does not allow tags.', field: 'tags' },
  description_not_allowed: {
    status: 422,
    message: 'A description is only available in organizations.',
    field: 'description',
  },
  expiry_too_soon: {
    status: 422,
    message: 'The expiry must be at least 5 minutes from now.',
    field: 'expires_at',
  },
  expiry_too_far: {
    status: 422,
    message: 'The expiry must be within 5 years.',
    field: 'expires_at',
  },
  expiry_not_allowed: {
    status: 403,
    message: 'Your plan does not allow link expiry.',
    field: 'expires_at',
  },
  plan_limit_reached: {
    status: 402,
    message: "You've hit your plan's limit for creating links",
    field: 'form',
  },
  not_enough_credits: { status: 402, message: MESSAGES.notEnoughCredits, field: 'form' },
  overage_needs_subscription: {
    status: 422,
    message: 'Overages need a paid plan. Upgrade your plan to turn them on.',
    field: 'form',
  },
  paid_only: {
    status: 402,
    message: 'Editing a destination needs a paid account.',
    field: 'url',
  },
  permission_denied: { status: 403, message: MESSAGES.permissionDenied, field: 'form' },
  team_required: { status: 422, message: MESSAGES.teamRequired, field: 'team' },
  unknown_team: { status: 404, message: MESSAGES.unknownTeam, field: 'team' },
  viewer_cannot_create: { status: 403, message: MESSAGES.notSelectedTeamMember, field: 'team' },
  invitation_not_found: { status: 404, message: 'Invitation not found.', field: 'invitation' },
  already_member: { status: 409, message: MESSAGES.alreadyMember, field: 'invitation' },
  team_limit_reached: { status: 402, message: MESSAGES.teamLimitReached, field: 'form' },
  protected_column: { status: 403, message: null, field: 'form' },
  // Team administration (20261122003700_team_administration.sql) and the name/slug checks of
  // create_team and update_team.
  user_not_in_team: { status: 404, message: MESSAGES.userNotInTeam, field: 'user' },
  not_team_member: { status: 403, message: MESSAGES.notSelectedTeamMember, field: 'team' },
  team_owner_fixed: {
    status: 422,
    message: "The team owner's membership cannot be changed.",
    field: 'user',
  },
  own_membership: {
    status: 422,
    message: 'You cannot change your own membership here; leave the team instead.',
    field: 'user',
  },
  // Organization users and invitation links (20261122004300_organization_users_invitations.sql).
  user_not_in_organization: {
    status: 404,
    message: 'The user does not belong to the given organization.',
    field: 'user',
  },
  own_organization_membership: {
    status: 422,
    message: 'You cannot change your own role or remove yourself here.',
    field: 'user',
  },
  invitation_expired: {
    status: 422,
    message: 'This invitation has expired. Ask for a new one.',
    field: 'invitation',
  },
  invitation_used: {
    status: 409,
    message: 'This invitation has already been answered.',
    field: 'invitation',
  },
  invitation_other_email: {
    status: 403,
    message: 'This invitation was sent to another e-mail address.',
    field: 'invitation',
  },
  role_invalid: { status: 422, message: 'The selected role is invalid.', field: 'role' },
  // Organization team settings (20261122004400_organization_team_settings.sql).
  not_organization_user: {
    status: 422,
    message: 'The user does not belong to the organization.',
    field: 'user',
  },
  name_required: { status: 422, message: 'The name field is required.', field: 'name' },
  slug_invalid: {
    status: 422,
    message: 'The slug may only contain lower-case letters, numbers and dashes.',
    field: 'slug',
  },
  slug_taken: { status: 422, message: 'The slug has already been taken.', field: 'slug' },
  // Two-factor (20261122001400_two_factor.sql). Its lockout, too_many_attempts, answers 429,
  // outside this table's statuses: the backup-code page handles it itself.
  aal2_required: {
    status: 403,
    message: 'Enter a code from your authenticator app to make this change.',
    field: 'form',
  },
  two_factor_not_enabled: {
    status: 422,
    message: 'Two-factor authentication is not enabled.',
    field: 'form',
  },
  // A staff impersonation session touching backup codes (20261122002260_impersonation_guards.sql).
  impersonation_not_allowed: {
    status: 403,
    message: "An impersonation session cannot change the account's sign-in protection.",
    field: 'form',
  },
  // The mailing opt-out and quote requests (20261122005100_mailings_and_quotes.sql): the
  // sentence in details, the field in hint.
  unsubscribe_link_invalid: { status: 404, message: null, field: 'token' },
  receive_required: { status: 422, message: null, field: 'receive' },
  name_invalid: { status: 422, message: null, field: 'name' },
  email_invalid: { status: 422, message: null, field: 'email' },
  company_invalid: { status: 422, message: null, field: 'company' },
  links_per_month_invalid: { status: 422, message: null, field: 'links_per_month' },
  team_size_invalid: { status: 422, message: null, field: 'team_size' },
  message_invalid: { status: 422, message: null, field: 'message' },
  /** A UTM preset refused (create_utm_preset): the sentence in details, the field in hint. */
  utm_preset_invalid: { status: 422, message: null, field: 'form' },
  // Organization single sign-on (20261122005000_organization_sso.sql).
  sso_forbidden: {
    status: 403,
    message: 'You may not manage single sign-on of this organization.',
    field: 'organization',
  },
  sso_plan_required: {
    status: 402,
    message: 'Single sign-on is part of the Enterprise plan.',
    field: 'sso',
  },
  sso_domain_invalid: {
    status: 422,
    message: 'Enter a domain such as example.com.',
    field: 'domain',
  },
  sso_domain_taken: { status: 422, message: 'This domain is already claimed.', field: 'domain' },
  sso_domain_not_found: { status: 404, message: 'Domain not found.', field: 'domain' },
  sso_not_configured: { status: 422, message: 'Add your identity provider first.', field: 'sso' },
  // The onboarding survey (20261122005310_onboarding_survey_answers.sql): the refused answer's
  // question id in hint, the sentence in details.
  survey_not_found: { status: 404, message: 'Survey not found.', field: 'survey' },
  survey_already_answered: {
    status: 409,
    message: 'You have already answered this survey.',
    field: 'survey',
  },
  survey_answers_invalid: { status: 422, message: null, field: 'answers' },
  survey_answer_required: {
    status: 422,
    message: 'This question needs an answer.',
    field: 'answers',
  },
  survey_answer_invalid: { status: 422, message: null, field: 'answers' },
} as const satisfies Record<string, ErrorCodeEntry>;
export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** The spec message of a code (templated codes need the server's details). */
export function errorMessage(code: ErrorCode, details?: string | null): string {
  return ERROR_CODES[code].message ?? details ?? MESSAGES.somethingWentWrong;
}

/** Postgres "insufficient_privilege", raised when RLS or a grant refuses a write. */
const INSUFFICIENT_PRIVILEGE = '42501';

export interface PostgrestErrorBody {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

export interface MappedApiError {
  status: number;
  /** Our error code when the body carried one. */
  code: ErrorCode | null;
  /** The first message per field ('form' for the whole form, 'tags.N' per tag). */
  fieldErrors: Record<string, string>;
  /** Each message to show as its own notice. */
  notices: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPostgrestErrorBody(body: unknown): body is PostgrestErrorBody {
  return isRecord(body) && typeof body.code === 'string' && typeof body.message === 'string';
}

function readValidationErrors(body: unknown): Record<string, string[]> | null {
  if (!isRecord(body) || !isRecord(body.errors)) return null;
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(body.errors)) {
    const list = (Array.isArray(messages) ? messages : [messages]).filter(
      (message): message is string => typeof message === 'string' && message !== '',
    );
    if (list.length > 0) errors[field] = list;
  }
  return errors;
}

/**
 * Maps an error answer to form errors and notices: a PostgREST error body
 * `{code, message, details, hint}` carrying one of our codes, or a 422-style
 * `{errors: {field: [messages]}}`. Anything else becomes the status's global notice.
 */
export function mapApiError(status: number, body: unknown): MappedApiError {
  const validation = readValidationErrors(body);
  if (validation != null) {
    const fieldErrors: Record<string, string> = {};
    for (const [field, messages] of Object.entries(validation)) {
      fieldErrors[field] = messages[0] ?? MESSAGES.somethingWentWrong;
    }
    return { status, code: null, fieldErrors, notices: Object.values(validation).flat() };
  }
  if (isPostgrestErrorBody(body)) {
    if (isErrorCode(body.message)) {
      const code = body.message;
      const message = errorMessage(code, body.details);
      const field = body.hint != null && body.hint !== '' ? body.hint : ERROR_CODES[code].field;
      return { status, code, fieldErrors: { [field]: message }, notices: [message] };
    }
    if (body.code === INSUFFICIENT_PRIVILEGE) {
      return {
        status,
        code: 'permission_denied',
        fieldErrors: { form: MESSAGES.permissionDenied },
        notices: [MESSAGES.permissionDenied],
      };
    }
  }
  return { status, code: null, fieldErrors: {}, notices: [statusMessage(status)] };
}

/** What the global response handler does for a status (app-shell 8). */
export type GlobalResponseAction =
  | { kind: 'none' }
  /** Set the logged-out flag, say the session expired, then reload. */
  | { kind: 'session_expired'; message: string; durationMs: number }
  /** Open the password confirmation modal; retry the request if confirmed, else fail. */
  | { kind: 'confirm_password' }
  /** Show the notice; for 422 the field messages follow as their own notices. */
  | { kind: 'notice'; message: string; durationMs: number }
  /** A non-JSON answer opens the error modal. */
  | { kind: 'error_modal'; message: string };

const STATUS_MESSAGES: Readonly<Record<number, string>> = {
  401: MESSAGES.sessionExpired,
  402: MESSAGES.paymentRequired,
  403: MESSAGES.permissionDenied,
  404: MESSAGES.notFound,
  419: MESSAGES.securityCheckFails,
  422: MESSAGES.validationFails,
  431: MESSAGES.somethingWentWrong,
};

/** The global notice text for an error status; 5xx and unlisted statuses: something went wrong. */
export function statusMessage(status: number): string {
  return STATUS_MESSAGES[status] ?? MESSAGES.somethingWentWrong;
}

export function globalResponseAction(status: number, isJson = true): GlobalResponseAction {
  if (status < 400) return { kind: 'none' };
  if (!isJson) return { kind: 'error_modal', message: MESSAGES.somethingWentWrong };
  if (status === 401) {
    return {
      kind: 'session_expired',
      message: MESSAGES.sessionExpired,
      durationMs: NOTICE_DURATION_MS.globalError,
    };
  }
  if (status === 423) return { kind: 'confirm_password' };
  return {
    kind: 'notice',
    message: statusMessage(status),
    durationMs: NOTICE_DURATION_MS.globalError,
  };
}
