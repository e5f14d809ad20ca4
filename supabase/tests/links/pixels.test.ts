import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  createUser,
  expectDatabaseError,
  expectRefused,
  one,
  useDatabase,
  withRollback,
} from '../support/index.ts';
import { createDomain, createLink, expectLinkError } from './fixtures.ts';
import { createLinkScene } from './scene.ts';

/**
 * Retargeting pixels (migration 003200) by actor: the owner of an account manages its pixels
 * and puts them on its links; another user, a guest and an unverified user without a subscription
 * may not; staff read them. Ids are checked by provider in Postgres: nothing but an id is stored.
 */
const pool = useDatabase();

const META = '123456789012345';

function addPixel(
  db: pg.ClientBase,
  actor: string | null,
  accountId: string,
  provider: string,
  pixelId: string,
  name = 'Retargeting',
) {
  return asActor(db, actor, (as) =>
    one<{ id: string; pixel_id: string; name: string }>(
      as,
      `insert into public.pixels (account_id, provider, pixel_id, name) values ($1, $2, $3, $4)
       returning id, pixel_id, name`,
      [accountId, provider, pixelId, name],
    ),
  );
}

async function expectPixelError(promise: Promise<unknown>, code: string, detail?: string) {
  const error = await expectDatabaseError(promise);
  expect({ code: error.code, message: error.message }).toEqual({ code: 'PT422', message: code });
  if (detail !== undefined) expect(error.detail).toBe(detail);
}

describe('pixels', () => {
  it('the owner adds, reads, changes and deletes them; the id is normalised', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const meta = await addPixel(db, owner.id, owner.personalAccountId, 'meta', ` ${META} `);
      expect(meta.pixel_id).toBe(META);
      const tiktok = await addPixel(
        db,
        owner.id,
        owner.personalAccountId,
        'tiktok',
        'c4a1b2c3d4e5f6g7h8i9',
        '  TikTok  ',
      );
      expect(tiktok).toMatchObject({ pixel_id: 'C4A1B2C3D4E5F6G7H8I9', name: 'TikTok' });
      await addPixel(db, owner.id, owner.personalAccountId, 'google_ads', 'aw-123456789');
      await addPixel(db, owner.id, owner.personalAccountId, 'linkedin', '5123456');

      const seen = await asActor(db, owner.id, (as) =>
        all<{ provider: string; pixel_id: string }>(
          as,
          `select provider, pixel_id from public.pixels order by provider`,
        ),
      );
      expect(seen).toEqual([
        { provider: 'google_ads', pixel_id: 'AW-123456789' },
        { provider: 'linkedin', pixel_id: '5123456' },
        { provider: 'meta', pixel_id: META },
        { provider: 'tiktok', pixel_id: 'C4A1B2C3D4E5F6G7H8I9' },
      ]);

      const renamed = await asActor(db, owner.id, (as) =>
        as.query(
          `update public.pixels set name = 'Shop', pixel_id = '1234567890123456'
          where id = $1`,
          [meta.id],
        ),
      );
      expect(renamed.rowCount).toBe(1);
      const deleted = await asActor(db, owner.id, (as) =>
        as.query(`delete from public.pixels where id = $1`, [tiktok.id]),
      );
      expect(deleted.rowCount).toBe(1);
    }));

  it('refuses ids that do not have the provider’s format, and anything like script', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const bad: [string, string][] = [
        ['meta', '12345'],
        ['meta', `${META}'); alert(1);//`],
        ['meta', '</script><script>alert(1)</script>'],
        ['google_ads', '123456789'],
        ['google_ads', 'AW-123456789/abc'],
        ['google_ads', 'G-ABCDEF1234'],
        ['linkedin', '12a45'],
        ['tiktok', 'C4A1B2C3D4E5F6G7H8I'],
        ['tiktok', 'C4A1B2C3D4E5F6G7H8I9"'],
      ];
      for (const [provider, pixelId] of bad) {
        await expectPixelError(
          addPixel(db, owner.id, owner.personalAccountId, provider, pixelId),
          'pixel_id_invalid',
        );
      }
      await expectPixelError(
        addPixel(db, owner.id, owner.personalAccountId, 'meta', 'abc'),
        'pixel_id_invalid',
        'A Meta pixel id is 15 or 16 digits.',
      );
      await expectPixelError(
        addPixel(db, owner.id, owner.personalAccountId, 'script', 'alert(1)'),
        'pixel_provider_invalid',
      );
      // The table's own check holds even where the trigger is not asked (service role, staff).
      await expect(
        db.query(`alter table public.pixels disable trigger pixels_check`).then(() =>
          db.query(
            `insert into public.pixels (account_id, provider, pixel_id, name)
             values ($1, 'meta', 'x', 'n')`,
            [owner.personalAccountId],
          ),
        ),
      ).rejects.toMatchObject({ code: '23514', constraint: 'pixels_pixel_id_format' });
    }));

  it('another user, a guest and an unverified user without a subscription are refused', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const other = await createUser(db);
      const unverified = await createUser(db, { confirmed: false });
      const pixel = await addPixel(db, owner.id, owner.personalAccountId, 'meta', META);

      const otherSees = await asActor(db, other.id, (as) =>
        all(as, `select id from public.pixels where id = $1`, [pixel.id]),
      );
      expect(otherSees).toEqual([]);
      await expectRefused(addPixel(db, other.id, owner.personalAccountId, 'meta', META));
      const changed = await asActor(db, other.id, (as) =>
        as.query(`update public.pixels set name = 'x' where id = $1`, [pixel.id]),
      );
      expect(changed.rowCount).toBe(0);
      const removed = await asActor(db, other.id, (as) =>
        as.query(`delete from public.pixels where id = $1`, [pixel.id]),
      );
      expect(removed.rowCount).toBe(0);

      await expectRefused(asActor(db, null, (as) => as.query(`select id from public.pixels`)));
      await expectRefused(addPixel(db, null, owner.personalAccountId, 'meta', META));

      await expectRefused(addPixel(db, unverified.id, unverified.personalAccountId, 'meta', META));
      // A pixel cannot move to another account.
      await expectRefused(
        asActor(db, owner.id, (as) =>
          as.query(`update public.pixels set account_id = $2 where id = $1`, [
            pixel.id,
            other.personalAccountId,
          ]),
        ),
      );
    }));

  it('staff read every pixel but add none to others’ accounts', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const staff = await createUser(db, { developer: true });
      const pixel = await addPixel(db, owner.id, owner.personalAccountId, 'meta', META);
      const seen = await asActor(db, staff.id, (as) =>
        all(as, `select id from public.pixels where id = $1`, [pixel.id]),
      );
      expect(seen).toEqual([{ id: pixel.id }]);
      await expectRefused(addPixel(db, staff.id, owner.personalAccountId, 'linkedin', '1234'));
    }));
});

describe('set_link_pixels and the links that carry them', () => {
  it('attaches the account’s own pixels to its links, and resolve_short_links answers them', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const other = await createUser(db);
      const domain = await createDomain(db, {});
      const link = await createLink(db, {
        accountId: owner.personalAccountId,
        createdBy: owner.id,
        domainId: domain.id,
      });
      const meta = await addPixel(db, owner.id, owner.personalAccountId, 'meta', META);
      const linkedin = await addPixel(db, owner.id, owner.personalAccountId, 'linkedin', '5123');
      const foreign = await addPixel(db, other.id, other.personalAccountId, 'meta', META);

      const set = (actor: string | null, pixelIds: string[]) =>
        asActor(db, actor, (as) =>
          one<{ ids: string[] }>(as, `select public.set_link_pixels($1, $2) as ids`, [
            link.id,
            pixelIds,
          ]),
        );
      expect((await set(owner.id, [meta.id, linkedin.id, meta.id])).ids.sort()).toEqual(
        [meta.id, linkedin.id].sort(),
      );
      const resolved = await one<{ pixels: unknown }>(
        db,
        `select pixels from app.resolve_short_links(array[$1], array[$2])`,
        [domain.domain, link.alias],
      );
      expect(resolved.pixels).toEqual([
        { provider: 'linkedin', id: '5123' },
        { provider: 'meta', id: META },
      ]);

      // Another account's pixel: refused, and nothing changes.
      await expectPixelError(set(owner.id, [meta.id, foreign.id]), 'pixel_not_found');
      // Another user, and a guest, may not change the link's pixels.
      await expectLinkError(set(other.id, [foreign.id]), 'alias_not_found');
      await expectRefused(set(null, []));
      const stillThere = await asActor(db, owner.id, (as) =>
        all<{ pixel_id: string }>(
          as,
          `select pixel_id from public.alias_pixels where alias_id = $1 order by pixel_id`,
          [link.id],
        ),
      );
      expect(stillThere.map((row) => row.pixel_id)).toEqual([meta.id, linkedin.id].sort());
      const otherSees = await asActor(db, other.id, (as) =>
        all(as, `select alias_id from public.alias_pixels where alias_id = $1`, [link.id]),
      );
      expect(otherSees).toEqual([]);

      // Deleting a pixel takes it off its links; a link without pixels resolves with null.
      await set(owner.id, [meta.id]);
      await asActor(db, owner.id, (as) =>
        as.query(`delete from public.pixels where id = $1`, [meta.id]),
      );
      const after = await one<{ pixels: unknown }>(
        db,
        `select pixels from app.resolve_short_links(array[$1], array[$2])`,
        [domain.domain, link.alias],
      );
      expect(after.pixels).toBeNull();
    }));

  it('lets team members who manage a link use the team’s pixels; viewers may not', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const pixel = await one<{ id: string }>(
        db,
        `insert into public.pixels (account_id, provider, pixel_id, name)
         values ($1, 'tiktok', 'ABCDEFGHIJ0123456789', 'Team') returning id`,
        [cast.team.accountId],
      );
      const set = (actor: string, ids: string[]) =>
        asActor(db, actor, (as) =>
          as.query(`select public.set_link_pixels($1, $2)`, [links.teamByMember.id, ids]),
        );
      await set(cast.member.id, [pixel.id]);
      const viewerSees = await asActor(db, cast.viewer.id, (as) =>
        all(as, `select pixel_id from public.alias_pixels where alias_id = $1`, [
          links.teamByMember.id,
        ]),
      );
      expect(viewerSees).toEqual([{ pixel_id: pixel.id }]);
      await expectLinkError(set(cast.viewer.id, []), 'alias_not_found');
      await expectLinkError(set(cast.stranger.id, []), 'alias_not_found');
    }));
});
