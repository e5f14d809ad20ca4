import type { Db } from '../db.ts';
import { notFound } from '../errors.ts';
import { isUuid } from '../params.ts';
import { findUserById, type FactorRow, type User } from '../users.ts';

/** The path lookups GoTrue's loadUser and loadFactor middlewares do, with their 404s. */

export async function userForAdmin(db: Db, userId: string): Promise<User> {
  if (!isUuid(userId)) throw notFound('validation_failed', 'user_id must be an UUID');
  const user = await findUserById(db, userId);
  if (!user) throw notFound('user_not_found', 'User not found');
  return user;
}

export function ownedFactor(user: User, factorId: string): FactorRow {
  if (!isUuid(factorId)) throw notFound('validation_failed', 'factor_id must be an UUID');
  const factor = user.factors.find((candidate) => candidate.id === factorId);
  if (!factor) throw notFound('mfa_factor_not_found', 'Factor not found');
  return factor;
}
