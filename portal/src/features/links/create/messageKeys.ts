import { ERROR_CODES } from '@shortlane/shared/errors.ts';
import { MESSAGE_KEYS } from '@shortlane/shared/messages.ts';

/**
 * The spec names some messages by key ('domain_not_found', 'billing.not_subscribed'…) and leaves
 * the wording to the apps; these are the portal's English sentences for them. Anything else is
 * already a sentence and shows as it is.
 */
const KEY_TEXT: Readonly<Record<string, string>> = {
  [MESSAGE_KEYS.domainNotFound]: ERROR_CODES.domain_not_found.message,
  [MESSAGE_KEYS.customAliasNotAllowed]: 'Your plan does not allow custom aliases.',
  [MESSAGE_KEYS.emailVerification]: ERROR_CODES.email_verification.message,
  [MESSAGE_KEYS.emailVerificationCheck]: 'Check your inbox and verify your e-mail address first.',
  [MESSAGE_KEYS.logInOrRegister]: 'Log in or register to continue.',
  [MESSAGE_KEYS.notSubscribed]: 'This needs a subscription.',
};

export function messageText(keyOrSentence: string): string {
  return KEY_TEXT[keyOrSentence] ?? keyOrSentence;
}
