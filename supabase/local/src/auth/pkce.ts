import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from './db.ts';
import { badRequest, unprocessable } from './errors.ts';
import type { AuthenticationMethod } from './sessions.ts';

/**
 * The PKCE flow (RFC 7636) of GoTrue: a request carrying code_challenge records a flow state;
 * its e-mail token gets a `pkce_` prefix; /verify then redirects with `?code=<auth code>`,
 * which the client trades with its code_verifier at POST /token?grant_type=pkce.
 */

export type FlowType = 'implicit' | 'pkce';

export const PKCE_PREFIX = 'pkce_';

/** Flow states older than this are refused, as GoTrue's default flow_state_expiry_duration. */
const FLOW_STATE_EXPIRY_MS = 300_000;

export interface PkceRequest {
  code_challenge?: string;
  code_challenge_method?: string;
}

export interface FlowStateRow {
  id: string;
  user_id: string | null;
  auth_code: string;
  code_challenge_method: 's256' | 'plain';
  code_challenge: string;
  provider_type: string;
  authentication_method: string;
  created_at: Date;
  auth_code_issued_at: Date | null;
}

/** GoTrue's validatePKCEParams; returns the flow the request asks for. */
export function flowOf(params: PkceRequest): FlowType {
  const challenge = params.code_challenge ?? '';
  const method = params.code_challenge_method ?? '';
  if ((challenge === '') !== (method === '')) {
    throw badRequest(
      'validation_failed',
      'PKCE flow requires code_challenge_method and code_challenge',
    );
  }
  if (challenge === '') return 'implicit';
  if (challenge.length < 43 || challenge.length > 128) {
    throw badRequest('validation_failed', 'code challenge has to be between 43 and 128 characters');
  }
  if (!/^[a-zA-Z._~0-9-]+$/.test(challenge)) {
    throw badRequest(
      'validation_failed',
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    );
  }
  if (!['s256', 'plain'].includes(method.toLowerCase())) {
    throw badRequest(
      'validation_failed',
      `unsupported code_challenge method ${JSON.stringify(method)}`,
    );
  }
  return 'pkce';
}

export const withFlowPrefix = (token: string, flow: FlowType) =>
  flow === 'pkce' ? `${PKCE_PREFIX}${token}` : token;

export async function createFlowState(
  db: Db,
  userId: string,
  providerType: string,
  method: AuthenticationMethod,
  params: PkceRequest,
): Promise<void> {
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge,
       provider_type, authentication_method, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, now(), now())`,
    [
      randomUUID(),
      userId,
      randomUUID(),
      (params.code_challenge_method ?? '').toLowerCase(),
      params.code_challenge,
      providerType,
      method,
    ],
  );
}

/** The auth code of the user's latest flow state for this method (GoTrue's issueAuthCode). */
export async function issueAuthCode(
  db: Db,
  userId: string,
  method: AuthenticationMethod,
): Promise<string> {
  const { rows } = await db.query<FlowStateRow>(
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
      where id = (select id from auth.flow_state
                   where user_id = $1 and authentication_method = $2
                   order by created_at desc limit 1)
      returning *`,
    [userId, method],
  );
  const flow = rows[0];
  if (!flow) {
    throw badRequest(
      'flow_state_not_found',
      'No associated flow state found. No valid flow state found for user.',
    );
  }
  return flow.auth_code;
}

export function isFlowStateExpired(flow: FlowStateRow, now = Date.now()): boolean {
  const from =
    flow.auth_code_issued_at && flow.authentication_method === 'magiclink'
      ? flow.auth_code_issued_at
      : flow.created_at;
  return now > from.getTime() + FLOW_STATE_EXPIRY_MS;
}

export function verifyCodeVerifier(flow: FlowStateRow, verifier: string): void {
  const expected =
    flow.code_challenge_method === 's256'
      ? createHash('sha256').update(verifier).digest('base64url')
      : verifier;
  const a = Buffer.from(expected);
  const b = Buffer.from(flow.code_challenge);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw badRequest(
      'bad_code_verifier',
      'code challenge does not match previously saved code verifier',
    );
  }
}

export async function findFlowStateByAuthCode(
  db: Db,
  authCode: string,
): Promise<FlowStateRow | undefined> {
  const { rows } = await db.query<FlowStateRow>(
    'select * from auth.flow_state where auth_code = $1',
    [authCode],
  );
  return rows[0];
}

export const flowStateExpired = () =>
  unprocessable('flow_state_expired', 'invalid flow state, flow state has expired');
