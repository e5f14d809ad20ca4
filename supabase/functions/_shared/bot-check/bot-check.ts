/**
 * The bot check guests pass before creating links. Functions depend on this interface only; the
 * provider (hCaptcha, or the local sandbox speaking its protocol) is chosen by env (see env.ts).
 * Every doubt refuses: no secret, an unreachable or confused provider, a malformed answer.
 */
import { MESSAGES } from '../../../../shared/src/messages.ts';
import { HttpError } from '../http.ts';

export type BotCheckFailure =
  /** No token was sent. */
  | 'missing_token'
  /** The provider refused the token: forged, expired, already used, for another site. */
  | 'invalid_token'
  /** Our side is wrong: no or a wrong secret, unknown provider. The operator must act. */
  | 'misconfigured'
  /** The provider could not be asked: network error, timeout, 5xx, unreadable answer. */
  | 'unavailable';

export type BotCheckResult =
  | { ok: true; hostname?: string; challengeTs?: string }
  | { ok: false; reason: BotCheckFailure; errorCodes?: string[] };

export interface BotCheck {
  /** The public sitekey the widget renders with (the spec's anti-robot config `site_key`). */
  readonly siteKey: string | null;
  verify(token: string | null | undefined, remoteIp?: string | null): Promise<BotCheckResult>;
}

/** A check that refuses everything, for when the configuration cannot be trusted. */
export function refusingBotCheck(problem: string, siteKey: string | null = null): BotCheck {
  let reported = false;
  return {
    siteKey,
    verify() {
      // Once per process: the operator needs to know, the log does not need it per request.
      if (!reported) console.error(`Bot check refuses every token: ${problem}`);
      reported = true;
      return Promise.resolve({ ok: false, reason: 'misconfigured' });
    },
  };
}

/** The spec's one message for every failure; the reason stays in the logs. */
export const BOT_CHECK_FAILED_MESSAGE = MESSAGES.antiRobotFailed;

/** The field error a create function answers with when the check fails. */
export function botCheckError(): HttpError {
  return new HttpError(422, BOT_CHECK_FAILED_MESSAGE, 'anti_robot_failed', {
    anti_robot_token: [BOT_CHECK_FAILED_MESSAGE],
  });
}
