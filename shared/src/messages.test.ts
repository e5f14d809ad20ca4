import { describe, expect, it } from 'vitest';
import { MESSAGE_KEYS, MESSAGES } from './messages.ts';

describe('spec wording (app-shell 8, link-creation 4 and 8)', () => {
  it('keeps the subscription error sentences verbatim', () => {
    expect(MESSAGES.subscriptionCreateFailed).toBe(
      'We were unable to create your subscription. Please contact customer support.',
    );
    expect(MESSAGES.paymentDeclined).toBe('Payment declined. Please update your payment method.');
  });

  it('keeps the link-creation notices verbatim', () => {
    expect(MESSAGES.antiRobotFailed).toBe(
      'An error has occurred during turnstile validation, please try again. If the error persists, please contact us.',
    );
    expect(MESSAGES.bulkScheduled).toBe(
      'Your request is being processed. You will receive a notification shortly after.',
    );
    expect(MESSAGES.organizationRestored).toBe('The organization has been restored.');
    expect(MESSAGES.invitationAccepted).toBe('The invitation has been accepted.');
    expect(MESSAGES.invitationRejected).toBe('The invitation has been rejected.');
  });

  it('keeps message keys as the spec writes them', () => {
    expect(MESSAGE_KEYS).toEqual({
      domainNotFound: 'domain_not_found',
      customAliasNotAllowed: 'custom_alias_not_allowed',
      emailVerification: 'email_verification',
      emailVerificationCheck: 'email_verification_check',
      logInOrRegister: 'log_in_or_register',
      notSubscribed: 'billing.not_subscribed',
    });
  });

  it('has no two entries with the same wording, so each message has one home', () => {
    const texts = Object.values(MESSAGES);
    expect(new Set(texts).size).toBe(texts.length);
  });
});
