import { recordAudit } from '../audit.ts';
import { requireAuthentication } from '../authenticate.ts';
import { clientInfo, type AuthContext } from '../context.ts';
import { transaction } from '../db.ts';
import { badRequest } from '../errors.ts';
import type { Router } from '../router.ts';
import { deleteOtherSessions, deleteSession, deleteUserSessions } from '../sessions.ts';

/** POST /logout?scope=global|local|others: ends sessions and with them their refresh tokens. */
export function logoutRoutes(router: Router, context: AuthContext): void {
  router.on('POST', '/logout', async ({ request, url }) => {
    const { user, session } = await requireAuthentication(context, request);
    const scope = url.searchParams.get('scope') ?? '';
    if (!['', 'global', 'local', 'others'].includes(scope)) {
      throw badRequest('validation_failed', `Unsupported logout scope ${JSON.stringify(scope)}`);
    }
    const client = clientInfo(request);
    await transaction(context.pool, async (tx) => {
      await recordAudit(tx, user, 'logout', client);
      if (session && scope === 'local') await deleteSession(tx, session.id);
      else if (session && scope === 'others') await deleteOtherSessions(tx, user.id, session.id);
      else await deleteUserSessions(tx, user.id);
    });
    return new Response(null, { status: 204 });
  });
}
