import { describe, expect, it } from 'vitest';
import {
  asActor,
  createUser,
  expectCoded,
  one,
  uniqueSuffix,
  useDatabase,
  withRollback,
} from '../support/index.ts';
import { createDomain, givePlan } from './fixtures.ts';

/**
 * The names a customer may add: not banned (nor under a banned domain), not one of ours (nor
 * under one), not taken by anyone; anything else valid is theirs to verify.
 */
const pool = useDatabase();
const insert = `insert into public.domains (domain, kind, account_id) values ($1, 'branded', $2)
  returning id`;

describe('customer domain names', () => {
  it('refuses banned, ours and taken names with their code; takes any other valid name', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const other = await createUser(db);
      await givePlan(db, owner.personalAccountId, { features: ['add_branded_domains'] });
      const banned = `banned-${uniqueSuffix()}.test`;
      await db.query(`insert into public.banned_domains (domain) values ($1)`, [banned]);
      const common = await createDomain(db, { kind: 'common' });
      const taken = await createDomain(db, {
        kind: 'branded',
        accountId: other.personalAccountId,
        verified: false,
      });

      const add = (name: string) =>
        asActor(db, owner.id, (as) => as.query(insert, [name, owner.personalAccountId]));
      await expectCoded(add(banned), 'domain_banned');
      await expectCoded(add(`go.${banned}`), 'domain_banned');
      await expectCoded(add(common.domain), 'domain_ours');
      await expectCoded(add(`mine.${common.domain}`), 'domain_ours');
      await expectCoded(add(taken.domain), 'domain_taken');

      const fine = await asActor(db, owner.id, (as) =>
        one<{ id: string }>(as, insert, [`links-${uniqueSuffix()}.test`, owner.personalAccountId]),
      );
      expect(fine.id).toEqual(expect.any(String));
    }));
});
