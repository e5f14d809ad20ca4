/**
 * User-facing wording the spec gives verbatim (app-shell 8, link-creation 4 and 8). Where the
 * spec gives a message key rather than a sentence (e.g. 'billing.not_subscribed'), the key is
 * kept as written and the apps translate it.
 */
export const MESSAGES = {
  somethingWentWrong: 'Something went wrong.',
  sessionExpired: 'Session expired.',
  paymentRequired: 'Payment Required',
  permissionDenied: 'Permission denied',
  notFound: 'Not Found',
  securityCheckFails: 'Security check fails',
  validationFails: 'Validation fails',
  notAuthorized: 'Not authorized',

  subscriptionCreateFailed:
    'We were unable to create your subscription. Please contact customer support.',
  paymentDeclined: 'Payment declined. Please update your payment method.',
  /** app-shell 8 names reactivate, resume and update failures without sentences. */
  subscriptionReactivateFailed:
    'We were unable to reactivate your subscription. Please contact customer support.',
  subscriptionResumeFailed:
    'We were unable to resume your subscription. Please contact customer support.',
  subscriptionUpdateFailed:
    'We were unable to update your subscription. Please contact customer support.',
  subscriptionRefundPending:
    'A refund on this subscription is waiting for review. You can change your plan once it is decided.',
  subscriptionUpdateTooLong:
    'Confirming your plan change is taking longer than expected. Check this page again in a few minutes.',

  notEnoughCredits: 'Not enough credits for this operation',
  couldNotLoadUrl: 'Could not load URL',
  aliasNotFound: 'Alias not found',
  tagNotFound: 'Tag not found',
  aliasNotUnique: 'The new alias is not unique',
  notEligibleForPlan:
    'You are not eligible for this plan based on your current number of teams and members',
  teamLimitReached:
    "Your current plan doesn't allow you to create more teams or invite more members",
  alreadyMember: 'That user is already on the team or invited',
  userNotInTeam: 'The user does not belong to the given team',
  notSelectedTeamMember: 'You are not a selected team member',
  accountTerminated: 'This account was terminated because it violated the terms',
  cartEmpty: 'Nothing to checkout, the cart is empty',

  teamRequired: 'Team required.',
  unknownTeam: 'Unknown team.',
  switchingError: 'Switching error.',

  urlRequired: 'The URL field is required.',
  antiRobotFailed:
    'An error has occurred during turnstile validation, please try again. If the error persists, please contact us.',
  bulkScheduled: 'Your request is being processed. You will receive a notification shortly after.',
  invitationAccepted: 'The invitation has been accepted.',
  invitationRejected: 'The invitation has been rejected.',
  organizationRestored: 'The organization has been restored.',
  guestDomainLocked: 'This domain is not available to guest users.',
  /**
   * A client over an abuse limit (429). The spec gives no sentence; this is the wording of the
   * Laravel throttle its other form messages come from.
   */
  tooManyAttempts: 'Too Many Attempts.',
  /** app-shell 8 names these ("copy to clipboard succeeded or failed") without a sentence. */
  copySucceeded: 'Copied to clipboard.',
  copyFailed: 'Could not copy to clipboard.',
} as const;

/** Message keys the spec names instead of sentences. */
export const MESSAGE_KEYS = {
  domainNotFound: 'domain_not_found',
  customAliasNotAllowed: 'custom_alias_not_allowed',
  emailVerification: 'email_verification',
  emailVerificationCheck: 'email_verification_check',
  logInOrRegister: 'log_in_or_register',
  notSubscribed: 'billing.not_subscribed',
} as const;
