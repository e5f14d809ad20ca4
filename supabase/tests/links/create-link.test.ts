import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  asActor,
  createCast,
  createUser,
  expectDatabaseError,
  expectRefused,
  one,
  uniqueSuffix,
  useDatabase,
  withRollback,
  type TestUser,
} from '../support/index.ts';
import {
  asServiceRole,
  callCreateLink,
  callRpc,
  createDomain,
  createdAlias,
  createLink,
  expectLinkError,
  givePlan,
  LINK_FEATURES,
  type CreateLinkArgs,
} from './fixtures.ts';

/**
 * public.create_link, rule by rule: for each rule of the create form one call that passes and
 * one that fails with the contract's coded error.
 */
const pool = useDatabase();

const URL = 'https://example.com/landing?utm_source=test';
const minutes = (n: number) => new Date(Date.now() + n * 60_000);

interface CreatorOptions {
  /** Features on the account itself (no subscription). */
  features?: string[];
  /** A paid plan with these features: the user is then subscribed. */
  plan?: string[];
  confirmed?: boolean;
}

async function creator(db: pg.ClientBase, options: CreatorOptions = {}): Promise<TestUser> {
  const user = await createUser(db, { confirmed: options.confirmed ?? true });
  if (options.plan) await givePlan(db, user.personalAccountId, { features: options.plan });
  if (options.features) {
    await db.query(`update public.accounts set features = $2 where id = $1`, [
      user.personalAccountId,
      options.features,
    ]);
  }
  return user;
}

function createAs(db: pg.ClientBase, user: TestUser | string, args: CreateLinkArgs) {
  const id = typeof user === 'string' ? user : user.id;
  return asActor(db, id, (as) => callCreateLink(as, { url: URL, ...args }));
}

function createAsGuest(db: pg.ClientBase, args: CreateLinkArgs) {
  return asServiceRole(db, (as) => callCreateLink(as, { url: URL, ...args }));
}

describe('create_link: the answer', () => {
  it('answers the created item with its url and aliases (domain, alias, tiny_url, is_main, tags, affiliates)', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db, { plan: LINK_FEATURES });
      const domain = await createDomain(db);
      const items = await createAs(db, user, {
        domain: domain.domain,
        alias: 'My-Launch',
        tags: ['Launch', 'q4 campaign'],
      });
      expect(items).toEqual([
        {
          url: URL,
          aliases: [
            expect.objectContaining({
              domain: domain.domain,
              alias: 'My-Launch',
              tiny_url: `https://${domain.domain}/My-Launch`,
              is_main: true,
              status: 'active',
              tags: ['launch', 'q4campaign'],
              affiliates: [],
              account_id: user.personalAccountId,
              organization_id: null,
            }),
          ],
        },
      ]);
      const row = await one<{ created_by: string; url: string }>(
        db,
        `select a.created_by, u.url from public.aliases a join public.long_urls u on u.id = a.long_url_id
         where a.id = $1`,
        [createdAlias(items).id],
      );
      expect(row).toEqual({ created_by: user.id, url: URL });
    }));

  it('draws an eight-character alias when none is given; a second link to the URL is not main', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db);
      const domain = await createDomain(db);
      const first = createdAlias(await createAs(db, user, { domain: domain.domain }));
      const second = createdAlias(await createAs(db, user, { domain: domain.domain }));
      expect(first.alias).toMatch(/^[a-z0-9]{8}$/);
      expect(second.alias).not.toBe(first.alias);
      expect([first.is_main, second.is_main]).toEqual([true, false]);
    }));
});

describe('create_link: the URL', () => {
  it('is required', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db);
      const domain = await createDomain(db);
      await expectLinkError(
        createAs(db, user, { domain: domain.domain, url: '  ' }),
        'url_required',
      );
      await expectLinkError(
        createAs(db, user, { domain: domain.domain, url: null }),
        'url_required',
      );
    }));

  it('must be a valid URL', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db);
      const domain = await createDomain(db);
      for (const url of [
        'example.com/page',
        'https://',
        'https://a b.com/',
        'http://exa..mple.com',
      ]) {
        await expectLinkError(createAs(db, user, { domain: domain.domain, url }), 'url_invalid');
      }
      for (const url of [
        'http://example.com',
        'https://sub.example.co.uk:8443/a?b=c#d',
        'https://1.2.3.4/x',
        'https://bücher.de/',
        // Browsers resolve underscores (the one rule follows url-safety.ts and WHATWG URL).
        'http://exa_mple.com',
      ]) {
        await createAs(db, user, { domain: domain.domain, url });
      }
    }));

  it('must be http or https, and not one of our own short domains', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db);
      const domain = await createDomain(db);
      for (const url of [
        'javascript:alert(1)',
        'ftp://example.com/file',
        'data:text/html,hi',
        `https://${domain.domain}/loop`,
        // A single label resolves through the local search domain.
        'https://no-tld/',
      ]) {
        await expectLinkError(
          createAs(db, user, { domain: domain.domain, url }),
          'url_not_allowed',
        );
      }
    }));

  it('must not point at a banned domain or its subdomains', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db);
      const domain = await createDomain(db);
      const banned = `banned-${uniqueSuffix()}.test`;
      await db.query(`insert into public.banned_domains (domain) values ($1)`, [banned]);
      for (const url of [`https://${banned}/x`, `http://www.${banned}`]) {
        await expectLinkError(createAs(db, user, { domain: domain.domain, url }), 'url_banned');
      }
      await createAs(db, user, { domain: domain.domain, url: `https://not${banned}/x` });
    }));

  it('must not be a destination staff terminated', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db);
      const domain = await createDomain(db);
      await createAs(db, user, { domain: domain.domain });
      await db.query(`update public.long_urls set status = 'terminated' where account_id = $1`, [
        user.personalAccountId,
      ]);
      await expectLinkError(createAs(db, user, { domain: domain.domain }), 'url_not_allowed');
    }));
});

describe('create_link: the domain', () => {
  it('must exist and be neither disabled, deleted nor blocked', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db);
      await expectLinkError(createAs(db, user, { domain: 'nowhere.test' }), 'domain_not_found');
      await expectLinkError(createAs(db, user, { domain: null }), 'domain_not_found');
      for (const flag of ['isDisabled', 'isDeleted', 'isBlocked'] as const) {
        const domain = await createDomain(db, { [flag]: true });
        await expectLinkError(createAs(db, user, { domain: domain.domain }), 'domain_not_found');
      }
      const fine = await createDomain(db);
      await createAs(db, user, { domain: fine.domain.toUpperCase() });
    }));

  // The redirect serves no domain before it is verified, common ones included (migration
  // 20261122006300): links made there would never answer.
  it('must be served by the redirect: a common domain still pending is not found, single or bulk', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db, { plan: ['create_tiny_url', 'use_bulk'] });
      const pending = await createDomain(db, { verified: false, allowForGuests: true });
      const scheduleBulk = () =>
        asActor(db, user.id, (as) =>
          as.query(`select app.schedule_bulk_job($1, $2, 'spring.csv', 'csv', true, 3)`, [
            randomUUID(),
            pending.domain,
          ]),
        );
      await expectLinkError(createAs(db, user, { domain: pending.domain }), 'domain_not_found');
      await expectLinkError(createAsGuest(db, { domain: pending.domain }), 'domain_not_found');
      await expectLinkError(scheduleBulk(), 'domain_not_found');

      // Once staff verify it (the kiosk's Verified switch), both paths take it.
      await db.query(
        `update public.domains set verification_status = 'verified', verified_at = now()
         where id = $1`,
        [pending.id],
      );
      await createAs(db, user, { domain: pending.domain });
      await createAsGuest(db, { domain: pending.domain });
      await scheduleBulk();
    }));

  it('for guests: only domains that allow guests', () =>
    withRollback(pool, async (db) => {
      const closed = await createDomain(db);
      const open = await createDomain(db, { allowForGuests: true });
      await expectLinkError(
        createAsGuest(db, { domain: closed.domain }),
        'domain_guests_only_logged_in',
      );
      const guestLink = createdAlias(await createAsGuest(db, { domain: open.domain }));
      expect(guestLink.account_id).toBeNull();
    }));

  it('requiring e-mail verification: refused to unverified, unsubscribed users', () =>
    withRollback(pool, async (db) => {
      const domain = await createDomain(db, { requireEmailVerification: true });
      const unverified = await creator(db, { confirmed: false });
      const verified = await creator(db);
      const unverifiedSubscriber = await creator(db, { confirmed: false, plan: [] });
      await expectLinkError(
        createAs(db, unverified, { domain: domain.domain }),
        'email_verification',
        {
          hint: 'domain',
        },
      );
      await createAs(db, verified, { domain: domain.domain });
      await createAs(db, unverifiedSubscriber, { domain: domain.domain });
    }));

  it('for subscribers only: refused outside an organization to users without a subscription', () =>
    withRollback(pool, async (db) => {
      const domain = await createDomain(db, { subscribedOnly: true });
      const cast = await createCast(db);
      await expectLinkError(createAs(db, cast.member, { domain: domain.domain }), 'not_subscribed');
      // The same user in organization mode (a team link) may use it.
      await createAs(db, cast.member, { domain: domain.domain, accountId: cast.team.accountId });
      const subscriber = await creator(db, { plan: [] });
      await createAs(db, subscriber, { domain: domain.domain });
    }));

  it('branded: only the owning account, once verified, with use_branded_domains', () =>
    withRollback(pool, async (db) => {
      const owner = await creator(db, { plan: ['use_branded_domains'] });
      const unpaid = await creator(db);
      const other = await creator(db, { plan: ['use_branded_domains'] });
      const branded = await createDomain(db, {
        kind: 'branded',
        accountId: owner.personalAccountId,
      });
      const lapsed = await createDomain(db, {
        kind: 'branded',
        accountId: unpaid.personalAccountId,
      });
      const pending = await createDomain(db, {
        kind: 'branded',
        accountId: owner.personalAccountId,
        verified: false,
      });
      await createAs(db, owner, { domain: branded.domain });
      await expectLinkError(createAs(db, other, { domain: branded.domain }), 'domain_not_found');
      await expectLinkError(createAs(db, owner, { domain: pending.domain }), 'domain_not_found');
      await expectLinkError(createAs(db, unpaid, { domain: lapsed.domain }), 'not_subscribed');
      await expectLinkError(createAsGuest(db, { domain: branded.domain }), 'domain_not_found');
    }));

  it('organization: in its organization mode, for all teams or the chosen ones', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const forAll = await createDomain(db, {
        kind: 'organization',
        accountId: cast.organization.accountId,
      });
      const forOurTeam = await createDomain(db, {
        kind: 'organization',
        accountId: cast.organization.accountId,
        forAllTeams: false,
        teamIds: [cast.team.id],
      });
      const forNoTeam = await createDomain(db, {
        kind: 'organization',
        accountId: cast.organization.accountId,
        forAllTeams: false,
      });
      const team = { accountId: cast.team.accountId };
      await createAs(db, cast.member, { ...team, domain: forAll.domain });
      await createAs(db, cast.member, { ...team, domain: forOurTeam.domain });
      await expectLinkError(
        createAs(db, cast.member, { ...team, domain: forNoTeam.domain }),
        'domain_not_found',
      );
      // Personal links: in organization mode only domains for all teams; outside it none.
      const personal = createdAlias(
        await createAs(db, cast.member, {
          organizationId: cast.organization.id,
          domain: forAll.domain,
        }),
      );
      expect(personal).toMatchObject({
        account_id: cast.member.personalAccountId,
        organization_id: cast.organization.id,
      });
      await expectLinkError(
        createAs(db, cast.member, {
          organizationId: cast.organization.id,
          domain: forOurTeam.domain,
        }),
        'domain_not_found',
      );
      await expectLinkError(
        createAs(db, cast.member, { domain: forAll.domain }),
        'domain_not_found',
      );
      await expectLinkError(createAsGuest(db, { domain: forAll.domain }), 'domain_not_found');
    }));
});

describe('create_link: the workspace', () => {
  it('a team viewer cannot create in that team; members and admins can', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const domain = await createDomain(db);
      const args = { domain: domain.domain, accountId: cast.team.accountId };
      await expectLinkError(createAs(db, cast.viewer, args), 'viewer_cannot_create');
      const link = createdAlias(await createAs(db, cast.member, args));
      expect(link).toMatchObject({
        account_id: cast.team.accountId,
        organization_id: cast.organization.id,
      });
      await createAs(db, cast.teamAdmin, args);
      await createAs(db, cast.supervisor, args);
    }));

  it("someone else's team or workspace is an unknown team", () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const domain = await createDomain(db);
      for (const accountId of [
        cast.team.accountId,
        cast.member.personalAccountId,
        cast.organization.accountId,
      ]) {
        await expectLinkError(
          createAs(db, cast.stranger, { domain: domain.domain, accountId }),
          'unknown_team',
        );
      }
      // A team of another organization cannot be used in this organization's mode.
      await expectLinkError(
        createAs(db, cast.member, {
          domain: domain.domain,
          accountId: cast.team.accountId,
          organizationId: (await createCast(db)).organization.id,
        }),
        'unknown_team',
      );
    }));

  it("an organization's personal workspace is for its people", () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const domain = await createDomain(db);
      const args = { domain: domain.domain, organizationId: cast.organization.id };
      for (const actor of ['owner', 'orgUser', 'member', 'teamAdmin'] as const) {
        await createAs(db, cast[actor], args);
      }
      // The viewer may not create in any of its teams; the stranger does not belong.
      for (const actor of ['viewer', 'stranger'] as const) {
        await expectLinkError(createAs(db, cast[actor], args), 'organization_not_found');
      }
    }));

  it('anonymous callers cannot call create_link (guests go through the edge function)', () =>
    withRollback(pool, async (db) => {
      const domain = await createDomain(db, { allowForGuests: true });
      await asActor(db, null, (as) =>
        expectRefused(callCreateLink(as, { url: URL, domain: domain.domain })),
      );
      await expectLinkError(
        createAsGuest(db, {
          domain: domain.domain,
          accountId: (await creator(db)).personalAccountId,
        }),
        'permission_denied',
      );
    }));
});

describe('create_link: the alias', () => {
  it('a custom alias needs use_custom_alias; an unverified user must verify first', () =>
    withRollback(pool, async (db) => {
      const domain = await createDomain(db);
      const allowed = await creator(db, { features: ['use_custom_alias'] });
      const plain = await creator(db);
      const unverified = await creator(db, { confirmed: false, features: ['use_custom_alias'] });
      await createAs(db, allowed, { domain: domain.domain, alias: 'chosen-one' });
      await expectLinkError(
        createAs(db, plain, { domain: domain.domain, alias: 'chosen-two' }),
        'custom_alias_not_allowed',
      );
      await expectLinkError(
        createAs(db, unverified, { domain: domain.domain, alias: 'chosen-3' }),
        'email_verification',
        {
          hint: 'alias',
        },
      );
    }));

  it('guests type an alias only on domains that allow guest aliases', () =>
    withRollback(pool, async (db) => {
      const strict = await createDomain(db, { allowForGuests: true });
      const lenient = await createDomain(db, {
        allowForGuests: true,
        guestCanUseCustomAlias: true,
      });
      await expectLinkError(
        createAsGuest(db, { domain: strict.domain, alias: 'guest-pick' }),
        'custom_alias_not_allowed',
      );
      await createAsGuest(db, { domain: lenient.domain, alias: 'guest-pick' });
    }));

  it('may only contain letters, numbers, dashes and underscores (up to 50)', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db, { features: ['use_custom_alias'] });
      const domain = await createDomain(db);
      for (const alias of ['has space', 'slash/es', 'dot.ted', 'émoji', 'x'.repeat(51)]) {
        await expectLinkError(
          createAs(db, user, { domain: domain.domain, alias }),
          'alias_invalid',
        );
      }
      await createAs(db, user, { domain: domain.domain, alias: 'Ok_alias-2' });
    }));

  it('may not be reserved', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db, { features: ['use_custom_alias'] });
      const domain = await createDomain(db);
      for (const alias of ['settings', 'API', 'kiosk']) {
        await expectLinkError(
          createAs(db, user, { domain: domain.domain, alias }),
          'alias_reserved',
        );
      }
    }));

  it('must be unique on its domain, ignoring case; another domain may reuse it', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db, { features: ['use_custom_alias'] });
      const domain = await createDomain(db);
      const other = await createDomain(db);
      await createAs(db, user, { domain: domain.domain, alias: 'promo' });
      await expectLinkError(
        createAs(db, user, { domain: domain.domain, alias: 'PROMO' }),
        'alias_taken',
      );
      await createAs(db, user, { domain: other.domain, alias: 'promo' });
    }));

  it('a random alias from the edge function needs no permission; its collision is a retryable 409', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db);
      const domain = await createDomain(db, { allowForGuests: true });
      await createAs(db, user, { domain: domain.domain, alias: 'a1b2c3d4', aliasIsRandom: true });
      const error = await expectDatabaseError(
        createAs(db, user, { domain: domain.domain, alias: 'a1b2c3d4', aliasIsRandom: true }),
      );
      expect(error).toMatchObject({
        code: 'PT409',
        message: 'alias_taken',
        detail: 'random_alias_collision',
        hint: 'alias',
      });
      await createAsGuest(db, { domain: domain.domain, alias: 'z9y8x7w6', aliasIsRandom: true });
      // A chosen alias cannot pass itself off as a random one.
      await expectLinkError(
        createAs(db, user, { domain: domain.domain, alias: 'My-Brand', aliasIsRandom: true }),
        'alias_invalid',
      );
    }));
});

describe('create_link: who may claim a random alias', () => {
  it('a direct API call claiming a random alias is treated as choosing it (plan check applies)', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db);
      const domain = await createDomain(db, { allowForGuests: true });
      // No transaction mark from the links edge function: the claim is not trusted.
      await expectLinkError(
        asActor(db, user.id, (as) =>
          callRpc(as, 'create_link', {
            p_url: URL,
            p_domain: domain.domain,
            p_alias: 'a1b2c3d4',
            p_alias_is_random: true,
          }),
        ),
        'custom_alias_not_allowed',
      );
    }));

  it('the unguarded body is not reachable through the API roles', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db);
      await expectRefused(
        asActor(db, user.id, (as) =>
          as.query(
            `select app.create_link_unguarded('https://example.com', 'x', null, true, null, null, null, null, null)`,
          ),
        ),
      );
    }));
});

describe('create_link: tags', () => {
  it('are lower-cased with spaces removed; empty ones are dropped', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db, { features: ['use_tags'] });
      const domain = await createDomain(db);
      const link = createdAlias(
        await createAs(db, user, { domain: domain.domain, tags: [' Spring Sale ', '', 'EMAIL'] }),
      );
      expect(link.tags).toEqual(['email', 'springsale']);
      // The account's tags are reused by the next link.
      await createAs(db, user, { domain: domain.domain, tags: ['email'] });
      const count = await one<{ n: number }>(
        db,
        `select count(*)::int as n from public.tags where account_id = $1`,
        [user.personalAccountId],
      );
      expect(count.n).toBe(2);
    }));

  it('report 2 to 45 characters and duplicates per index (tags.N)', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db, { features: ['use_tags'] });
      const domain = await createDomain(db);
      const create = (tags: string[]) => createAs(db, user, { domain: domain.domain, tags });
      await expectLinkError(create(['ok', 'x']), 'tag_too_short', { hint: 'tags.1' });
      await expectLinkError(create(['', 'ok', 'y'.repeat(46)]), 'tag_too_long', { hint: 'tags.2' });
      await expectLinkError(create(['news', 'other', 'NE WS']), 'tag_duplicate', {
        hint: 'tags.2',
      });
      await create(['xy', 'z'.repeat(45)]);
    }));

  it('need use_tags (in organization mode, the team may manage tags); guests have none', () =>
    withRollback(pool, async (db) => {
      const plain = await creator(db);
      const domain = await createDomain(db, { allowForGuests: true });
      await expectLinkError(
        createAs(db, plain, { domain: domain.domain, tags: ['news'] }),
        'tags_not_allowed',
      );
      await expectLinkError(
        createAsGuest(db, { domain: domain.domain, tags: ['news'] }),
        'tags_not_allowed',
      );
      const cast = await createCast(db);
      const team = { domain: domain.domain, accountId: cast.team.accountId };
      await expectLinkError(
        createAs(db, cast.member, { ...team, tags: ['news'] }),
        'tags_not_allowed',
      );
      await givePlan(db, cast.organization.accountId, { features: ['use_tags'] });
      await createAs(db, cast.member, { ...team, tags: ['news'] });
    }));
});

describe('create_link: description and expiry', () => {
  it('a description only in organization mode, up to 1000 characters', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const domain = await createDomain(db);
      await expectLinkError(
        createAs(db, cast.member, { domain: domain.domain, description: 'Our launch' }),
        'description_not_allowed',
      );
      const link = createdAlias(
        await createAs(db, cast.member, {
          domain: domain.domain,
          accountId: cast.team.accountId,
          description: '  Our launch  ',
        }),
      );
      expect(link.description).toBe('Our launch');
      await expectLinkError(
        createAs(db, cast.member, {
          domain: domain.domain,
          organizationId: cast.organization.id,
          description: 'd'.repeat(1001),
        }),
        'description_too_long',
      );
      // Blank is no description at all.
      await createAs(db, cast.member, { domain: domain.domain, description: '   ' });
    }));

  it('an expiry needs manage_expiration and lies between 5 minutes and 5 years ahead', () =>
    withRollback(pool, async (db) => {
      const user = await creator(db, { features: ['manage_expiration'] });
      const plain = await creator(db);
      const domain = await createDomain(db, { allowForGuests: true });
      const create = (expiresAt: Date) => createAs(db, user, { domain: domain.domain, expiresAt });
      await expectLinkError(create(minutes(3)), 'expiry_too_soon');
      await expectLinkError(create(minutes(5 * 366 * 24 * 60)), 'expiry_too_far');
      const link = createdAlias(await create(minutes(6)));
      expect(new Date(link.expires_at ?? 0).getTime()).toBeGreaterThan(Date.now());
      await create(minutes(5 * 365 * 24 * 60));
      await expectLinkError(
        createAs(db, plain, { domain: domain.domain, expiresAt: minutes(60) }),
        'expiry_not_allowed',
      );
      await expectLinkError(
        createAsGuest(db, { domain: domain.domain, expiresAt: minutes(60) }),
        'expiry_not_allowed',
      );
    }));
});

describe('create_link: plan limits and credits', () => {
  async function limited(db: pg.ClientBase, limits: Record<string, number>, overage = false) {
    const user = await creator(db);
    for (const [name, limit] of Object.entries(limits)) {
      await db.query(
        `insert into public.account_usage (account_id, name, "limit", overage_enabled)
         values ($1, $2, $3, $4)`,
        [user.personalAccountId, name, limit, overage],
      );
    }
    return user;
  }

  it('stops at the active-alias limit; archived, deleted and expired links do not count; overage lifts it', () =>
    withRollback(pool, async (db) => {
      const domain = await createDomain(db);
      const user = await limited(db, { max_active_aliases: 2 });
      const base = { accountId: user.personalAccountId, createdBy: user.id, domainId: domain.id };
      await createLink(db, { ...base, status: 'archived' });
      await createLink(db, { ...base, status: 'deleted' });
      await createLink(db, { ...base, expiresAt: new Date(Date.now() - 60_000) });
      await createLink(db, base);
      await createAs(db, user, { domain: domain.domain });
      await expectLinkError(createAs(db, user, { domain: domain.domain }), 'plan_limit_reached');
      const withOverage = await limited(db, { max_active_aliases: 0 }, true);
      await createAs(db, withOverage, { domain: domain.domain });
    }));

  it('stops at the monthly limit, which counts every link made this month', () =>
    withRollback(pool, async (db) => {
      const domain = await createDomain(db);
      const user = await limited(db, { max_aliases_per_month: 2 });
      const base = { accountId: user.personalAccountId, createdBy: user.id, domainId: domain.id };
      await createLink(db, { ...base, createdAt: new Date(Date.now() - 40 * 24 * 3600_000) });
      await createLink(db, { ...base, status: 'deleted' });
      await createAs(db, user, { domain: domain.domain });
      await expectLinkError(createAs(db, user, { domain: domain.domain }), 'plan_limit_reached');
    }));

  it('stops at the branded monthly limit on branded domains only', () =>
    withRollback(pool, async (db) => {
      const user = await limited(db, { max_branded_aliases_per_month: 1 });
      await db.query(
        `update public.accounts set features = '{use_branded_domains}' where id = $1`,
        [user.personalAccountId],
      );
      const branded = await createDomain(db, {
        kind: 'branded',
        accountId: user.personalAccountId,
      });
      const common = await createDomain(db);
      await createAs(db, user, { domain: branded.domain });
      await expectLinkError(createAs(db, user, { domain: branded.domain }), 'plan_limit_reached');
      await createAs(db, user, { domain: common.domain });
    }));

  it('spends a web credit per link while credits last', () =>
    withRollback(pool, async (db) => {
      const domain = await createDomain(db);
      const user = await limited(db, { max_web_credits: 1 });
      await createAs(db, user, { domain: domain.domain });
      const usage = await one<{ used: string }>(
        db,
        `select used from public.account_usage where account_id = $1 and name = 'max_web_credits'`,
        [user.personalAccountId],
      );
      expect(Number(usage.used)).toBe(1);
      await expectLinkError(createAs(db, user, { domain: domain.domain }), 'not_enough_credits');
    }));
});
