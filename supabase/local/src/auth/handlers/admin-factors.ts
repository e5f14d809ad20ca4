import { json } from '../../http.ts';
import { recordAudit } from '../audit.ts';
import { requireAdmin } from '../authenticate.ts';
import { clientInfo, type AuthContext } from '../context.ts';
import { transaction } from '../db.ts';
import { downgradeSessions } from '../factors.ts';
import { readParams } from '../params.ts';
import type { Router } from '../router.ts';
import { factorJson } from '../user-json.ts';
import type { FactorRow } from '../users.ts';
import { ownedFactor, userForAdmin } from './lookups.ts';

/** A user's MFA factors in the admin API: list, rename, delete. */
export function adminFactorRoutes(router: Router, context: AuthContext): void {
  const { pool } = context;

  router.on('GET', '/admin/users/:userId/factors', async ({ request, params }) => {
    await requireAdmin(context, request);
    const user = await userForAdmin(pool, params.userId!);
    return json(user.factors.map(factorJson));
  });

  async function loadUserFactor(userId: string, factorId: string) {
    const user = await userForAdmin(pool, userId);
    return { user, factor: ownedFactor(user, factorId) };
  }

  router.on('DELETE', '/admin/users/:userId/factors/:factorId', async ({ request, params }) => {
    await requireAdmin(context, request);
    const { user, factor } = await loadUserFactor(params.userId!, params.factorId!);
    const client = clientInfo(request);
    await transaction(pool, async (tx) => {
      await recordAudit(tx, user, 'factor_deleted', client, {
        user_id: user.id,
        factor_id: factor.id,
      });
      await tx.query('delete from auth.mfa_factors where id = $1', [factor.id]);
      await downgradeSessions(tx, factor);
    });
    return json(factorJson(factor));
  });

  router.on('PUT', '/admin/users/:userId/factors/:factorId', async ({ request, params: path }) => {
    await requireAdmin(context, request);
    const { factor } = await loadUserFactor(path.userId!, path.factorId!);
    const params = await readParams(request, { friendly_name: 'string', phone: 'string' });
    if (params.friendly_name) {
      await pool.query(
        'update auth.mfa_factors set friendly_name = $2, updated_at = now() where id = $1',
        [factor.id, params.friendly_name],
      );
    }
    const { rows } = await pool.query('select * from auth.mfa_factors where id = $1', [factor.id]);
    return json(factorJson(rows[0] as FactorRow));
  });
}
