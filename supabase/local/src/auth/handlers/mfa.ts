import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import { json } from '../../http.ts';
import { recordAudit } from '../audit.ts';
import { requireAuthentication, type Authenticated } from '../authenticate.ts';
import { clientInfo, type AuthContext } from '../context.ts';
import { transaction } from '../db.ts';
import { badRequest, forbidden, unprocessable } from '../errors.ts';
import { refuseImpersonation } from '../impersonation.ts';
import { isUuid, readParams } from '../params.ts';
import type { Router } from '../router.ts';
import { deleteExpiredFactors, downgradeSessions } from '../factors.ts';
import { deleteSessionsBelowAal2 } from '../sessions.ts';
import { upgradeSession } from '../tokens.ts';
import { ownedFactor } from './lookups.ts';
import { base32Decode, generateTotpSecret, totpUri, verifyTotp } from '../totp.ts';
import { emailOf, findUserById, type FactorRow } from '../users.ts';

/** TOTP multi-factor authentication: enroll, challenge, verify, unenroll (GoTrue's mfa.go). */

interface ChallengeRow {
  id: string;
  factor_id: string;
  created_at: Date;
  verified_at: Date | null;
  ip_address: string;
}

async function qrCodeSvg(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'H' });
  // Named colours keep the SVG free of '#', which would end the data: URL clients wrap it in.
  return svg.replace(/#000000/g, 'black').replace(/#ffffff/g, 'white');
}

/**
 * Enroll, verify and unenroll change the token's session. GoTrue answers a token without one
 * (hand-made, or an impersonation token before its own refusal) with a 500; a missing session is
 * the caller's fault, so it gets the 403 GoTrue gives a session that no longer exists.
 */
const sessionRequired = (message: string) => forbidden('session_not_found', message);

export function mfaRoutes(router: Router, context: AuthContext): void {
  const { settings, pool } = context;

  async function authenticateForMfa(request: Request): Promise<Authenticated> {
    const authenticated = await requireAuthentication(context, request);
    if (authenticated.claims.is_anonymous === true) {
      throw forbidden('no_authorization', 'Anonymous user not allowed to perform these actions');
    }
    refuseImpersonation(authenticated.claims, 'enroll, verify or unenroll MFA factors');
    return authenticated;
  }

  function requireTotp(factor: FactorRow): void {
    if (factor.factor_type === 'phone') {
      throw unprocessable('mfa_phone_verify_not_enabled', 'MFA verification is disabled for Phone');
    }
    if (factor.factor_type === 'webauthn') {
      throw unprocessable(
        'mfa_webauthn_verify_not_enabled',
        'MFA verification is disabled for WebAuthn',
      );
    }
    if (!settings.mfa.totpVerifyEnabled) {
      throw unprocessable('mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP');
    }
  }

  router.on('POST', '/factors', async ({ request }) => {
    const { user, session } = await authenticateForMfa(request);
    if (!session) {
      throw sessionRequired(
        'A valid session and a registered user are required to enroll a factor',
      );
    }
    const params = await readParams(request, {
      friendly_name: 'string',
      factor_type: 'string',
      issuer: 'string',
      phone: 'string',
    });
    switch (params.factor_type) {
      case 'totp':
        if (!settings.mfa.totpEnrollEnabled) {
          throw unprocessable('mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP');
        }
        break;
      case 'phone':
        throw unprocessable('mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
      case 'webauthn':
        throw unprocessable(
          'mfa_webauthn_enroll_not_enabled',
          'MFA enroll is disabled for WebAuthn',
        );
      default:
        throw badRequest('validation_failed', 'factor_type needs to be totp, phone, or webauthn');
    }
    const friendlyName = params.friendly_name ?? '';
    const issuer = params.issuer || new URL(settings.siteUrl).host;

    await deleteExpiredFactors(pool, settings.mfa.factorExpirySeconds);
    const current = await findUserById(pool, user.id);
    const factors = current?.factors ?? [];
    if (factors.some((factor) => (factor.friendly_name ?? '') === friendlyName)) {
      throw unprocessable(
        'mfa_factor_name_conflict',
        `A factor with the friendly name ${JSON.stringify(friendlyName)} for this user already exists`,
      );
    }
    const verifiedCount = factors.filter((factor) => factor.status === 'verified').length;
    if (
      factors.length >= settings.mfa.maxEnrolledFactors ||
      verifiedCount >= settings.mfa.maxVerifiedFactors
    ) {
      throw unprocessable(
        'too_many_enrolled_mfa_factors',
        'Maximum number of verified factors reached, unenroll to continue',
      );
    }
    if (verifiedCount > 0 && session.aal !== 'aal2') {
      throw forbidden('insufficient_aal', 'AAL2 required to enroll a new factor');
    }

    const secret = generateTotpSecret();
    const uri = totpUri(issuer, emailOf(user), secret);
    const qrCode = await qrCodeSvg(uri);
    const factorId = randomUUID();
    const client = clientInfo(request);
    await transaction(pool, async (tx) => {
      await tx.query(
        `insert into auth.mfa_factors
           (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
         values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
        [factorId, user.id, friendlyName, secret],
      );
      await recordAudit(tx, user, 'factor_in_progress', client, { factor_id: factorId });
    });
    return json({
      id: factorId,
      type: 'totp',
      friendly_name: friendlyName,
      totp: { qr_code: qrCode, secret, uri },
    });
  });

  router.on('POST', '/factors/:factorId/challenge', async ({ request, params }) => {
    const { user } = await authenticateForMfa(request);
    const factor = ownedFactor(user, params.factorId!);
    context.rateLimits.take('factor_challenge', request);
    requireTotp(factor);
    const client = clientInfo(request);
    const challenge = await transaction(pool, async (tx) => {
      const { rows } = await tx.query<ChallengeRow>(
        `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address)
         values ($1, $2, now(), $3) returning *`,
        [randomUUID(), factor.id, client.ip],
      );
      await tx.query(
        'update auth.mfa_factors set last_challenged_at = now(), updated_at = now() where id = $1',
        [factor.id],
      );
      await recordAudit(tx, user, 'challenge_created', client, {
        factor_id: factor.id,
        factor_status: factor.status,
      });
      return rows[0]!;
    });
    return json({
      id: challenge.id,
      type: factor.factor_type,
      expires_at:
        Math.floor(challenge.created_at.getTime() / 1000) + settings.mfa.challengeExpirySeconds,
    });
  });

  router.on('POST', '/factors/:factorId/verify', async ({ request, params }) => {
    const { user, session } = await authenticateForMfa(request);
    const factor = ownedFactor(user, params.factorId!);
    context.rateLimits.take('factor_verify', request);
    const body = await readParams(request, { challenge_id: 'string', code: 'string' });
    const challengeId = body.challenge_id ?? '';
    if (!isUuid(challengeId)) {
      throw badRequest(
        'bad_json',
        `Could not parse request body as JSON: uuid: incorrect UUID length ${challengeId.length} in string ${JSON.stringify(challengeId)}`,
      );
    }
    if (!body.code) throw badRequest('validation_failed', 'Code needs to be non-empty');
    requireTotp(factor);
    const client = clientInfo(request);

    const { rows } = await pool.query<ChallengeRow>(
      'select * from auth.mfa_challenges where id = $1 and factor_id = $2',
      [challengeId, factor.id],
    );
    const challenge = rows[0];
    if (!challenge) {
      throw unprocessable(
        'mfa_factor_not_found',
        'MFA factor with the provided challenge ID not found',
      );
    }
    if (challenge.verified_at !== null || challenge.ip_address !== client.ip) {
      throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
    }
    const expiresAt = challenge.created_at.getTime() + settings.mfa.challengeExpirySeconds * 1000;
    if (Date.now() > expiresAt) {
      await pool.query('delete from auth.mfa_challenges where id = $1', [challenge.id]);
      throw unprocessable(
        'mfa_challenge_expired',
        `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
      );
    }
    if (!verifyTotp(body.code, base32Decode(factor.secret ?? ''), Date.now())) {
      throw unprocessable('mfa_verification_failed', 'Invalid TOTP code entered');
    }
    if (!session) throw sessionRequired('Cannot read SessionId claim as UUID');

    const tokens = await transaction(pool, async (tx) => {
      await recordAudit(tx, user, 'verification_attempted', client, {
        factor_id: factor.id,
        challenge_id: challenge.id,
        factor_type: factor.factor_type,
      });
      await tx.query('update auth.mfa_challenges set verified_at = now() where id = $1', [
        challenge.id,
      ]);
      if (factor.status !== 'verified') {
        await tx.query(
          `update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`,
          [factor.id],
        );
      }
      const response = await upgradeSession(tx, settings, user.id, session.id, 'totp', factor.id);
      await deleteSessionsBelowAal2(tx, user.id);
      await tx.query(
        `delete from auth.mfa_factors
          where user_id = $1 and status = 'unverified' and factor_type = 'totp'`,
        [user.id],
      );
      return response;
    });
    return json(tokens);
  });

  router.on('DELETE', '/factors/:factorId', async ({ request, params }) => {
    const { user, session } = await authenticateForMfa(request);
    const factor = ownedFactor(user, params.factorId!);
    if (!session) {
      throw sessionRequired('A valid session and factor are required to unenroll a factor');
    }
    if (factor.status === 'verified' && session.aal !== 'aal2') {
      throw unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor');
    }
    const client = clientInfo(request);
    await transaction(pool, async (tx) => {
      await tx.query('delete from auth.mfa_factors where id = $1', [factor.id]);
      await recordAudit(tx, user, 'factor_unenrolled', client, {
        factor_id: factor.id,
        factor_status: factor.status,
        session_id: session.id,
      });
      await downgradeSessions(tx, factor);
    });
    return json({ id: factor.id });
  });
}
