import { randomUUID } from 'node:crypto';
import type { ClientInfo } from './context.ts';
import type { Db } from './db.ts';
import { AuthApiError, badRequest, internalError } from './errors.ts';

/**
 * GoTrue's Postgres auth hooks (`pg-functions://postgres/<schema>/<function>` in
 * [auth.hook.<name>]): the function gets the hook's input as jsonb and answers jsonb, run by the
 * auth admin role as GoTrue runs it. Only the password verification attempt hook is wired.
 */

export interface HookSettings {
  enabled: boolean;
  uri: string;
}

const PG_FUNCTIONS = /^pg-functions:\/\/[^/]+\/([A-Za-z_][A-Za-z0-9_]*)\/([A-Za-z_][A-Za-z0-9_]*)$/;

export function hookFunctionOf(uri: string): { schema: string; name: string } {
  const match = uri.match(PG_FUNCTIONS);
  if (!match)
    throw new Error(
      `auth hook uri must be pg-functions://postgres/<schema>/<function>, got "${uri}"`,
    );
  return { schema: match[1]!, name: match[2]! };
}

const DEFAULT_PASSWORD_HOOK_REJECTION = 'Further password verification attempts will be rejected.';

interface HookOutput {
  decision?: string;
  message?: string;
  should_logout_user?: boolean;
  error?: { http_code?: number; message?: string };
}

async function invoke(
  db: Db,
  hook: HookSettings,
  input: Record<string, unknown>,
): Promise<HookOutput> {
  const { schema, name } = hookFunctionOf(hook.uri);
  try {
    const { rows } = await db.query<{ output: HookOutput | null }>(
      `select "${schema}"."${name}"($1::jsonb) as output`,
      [JSON.stringify(input)],
    );
    const output = rows[0]?.output ?? {};
    if (output.error?.message) {
      throw new AuthApiError(
        output.error.http_code ?? 500,
        'unexpected_failure',
        output.error.message,
      );
    }
    return output;
  } catch (error) {
    if (error instanceof AuthApiError) throw error;
    throw internalError(`Error running hook URI: ${hook.uri}`);
  }
}

/**
 * The password verification attempt hook: told whether a sign-in's password was right, it may
 * reject the attempt (400 invalid_credentials with its message) and log the user out everywhere.
 */
export async function passwordVerificationAttempt(
  db: Db,
  hook: HookSettings,
  userId: string,
  valid: boolean,
  client: ClientInfo,
): Promise<void> {
  if (!hook.enabled) return;
  const output = await invoke(db, hook, {
    metadata: {
      uuid: randomUUID(),
      time: new Date().toISOString(),
      name: 'password-verification',
      ip_address: client.ip,
    },
    user_id: userId,
    valid,
  });
  if (output.decision !== 'reject') return;
  if (output.should_logout_user) {
    await db.query('delete from auth.sessions where user_id = $1', [userId]);
  }
  throw badRequest('invalid_credentials', output.message || DEFAULT_PASSWORD_HOOK_REJECTION);
}
