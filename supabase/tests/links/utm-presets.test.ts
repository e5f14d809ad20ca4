import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  createCast,
  expectCoded,
  one,
  useDatabase,
  withRollback,
  type Actor,
} from '../support/index.ts';

/** create_utm_preset (the UTM builder's "save as preset"): who may save, and its 422 rules. */
const pool = useDatabase();

interface PresetArgs {
  name?: string | null;
  source?: string | null;
  medium?: string | null;
  campaign?: string | null;
  term?: string | null;
  content?: string | null;
}

const COMPLETE = { name: 'Spring', source: 'news', medium: 'email', campaign: 'spring' };

interface PresetRow {
  account_id: string;
  created_by: string;
  name: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_term: string | null;
  utm_content: string | null;
}

function savePreset(db: pg.ClientBase, actor: Actor, accountId: string, args: PresetArgs) {
  return asActor(db, actor, (as) =>
    one<PresetRow>(as, `select * from public.create_utm_preset($1, $2, $3, $4, $5, $6, $7)`, [
      accountId,
      args.name ?? null,
      args.source ?? null,
      args.medium ?? null,
      args.campaign ?? null,
      args.term ?? null,
      args.content ?? null,
    ]),
  );
}

function expectInvalid(promise: Promise<unknown>, field: string, message: string) {
  return expectCoded(promise, 'utm_preset_invalid', { detail: message, hint: field });
}

describe('who may save a UTM preset', () => {
  it('saves into the personal account, trimmed, empty optional values as null', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const saved = await savePreset(db, cast.stranger.id, cast.stranger.personalAccountId, {
        name: '  Spring  ',
        source: ' news ',
        medium: 'email',
        campaign: 'spring sale',
        term: '   ',
        content: 'hero',
      });
      expect(saved).toMatchObject({
        account_id: cast.stranger.personalAccountId,
        created_by: cast.stranger.id,
        name: 'Spring',
        utm_source: 'news',
        utm_medium: 'email',
        utm_campaign: 'spring sale',
        utm_term: null,
        utm_content: 'hero',
      });
      const visible = await asActor(db, cast.stranger.id, (as) =>
        all<{ name: string }>(as, 'select name from public.utm_presets'),
      );
      expect(visible).toEqual([{ name: 'Spring' }]);
    }));

  it('team admins and members save into the team; viewers, strangers and guests cannot', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const team = cast.team.accountId;
      await savePreset(db, cast.teamAdmin.id, team, { ...COMPLETE, name: 'By admin' });
      await savePreset(db, cast.member.id, team, { ...COMPLETE, name: 'By member' });
      await expectCoded(
        savePreset(db, cast.viewer.id, team, { ...COMPLETE, name: 'By viewer' }),
        'permission_denied',
      );
      await expectCoded(
        savePreset(db, cast.stranger.id, team, { ...COMPLETE, name: 'By stranger' }),
        'permission_denied',
      );
      // Guests hold no grant at all.
      const refused = await savePreset(db, null, team, COMPLETE).then(
        () => null,
        (error: pg.DatabaseError) => error,
      );
      expect(refused?.code).toBe('42501');
      // The viewer still reads the team's presets.
      const seen = await asActor(db, cast.viewer.id, (as) =>
        all<{ name: string }>(
          as,
          'select name from public.utm_presets where account_id = $1 order by name',
          [team],
        ),
      );
      expect(seen).toEqual([{ name: 'By admin' }, { name: 'By member' }]);
    }));
});

describe('what a UTM preset must hold (422 per field)', () => {
  it('requires name, source, medium and campaign', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const account = cast.stranger.personalAccountId;
      const save = (args: PresetArgs) => savePreset(db, cast.stranger.id, account, args);
      await expectInvalid(
        save({ ...COMPLETE, source: ' ' }),
        'utm_source',
        'The utm source field is required.',
      );
      await expectInvalid(
        save({ ...COMPLETE, medium: null }),
        'utm_medium',
        'The utm medium field is required.',
      );
      await expectInvalid(
        save({ ...COMPLETE, campaign: '' }),
        'utm_campaign',
        'The utm campaign field is required.',
      );
      await expectInvalid(save({ ...COMPLETE, name: '  ' }), 'name', 'The name field is required.');
    }));

  it('limits the lengths to 100/50/150/50/100 and the name to 100', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const account = cast.stranger.personalAccountId;
      const save = (args: PresetArgs) => savePreset(db, cast.stranger.id, account, args);
      const limits = [
        ['source', 'utm_source', 100],
        ['medium', 'utm_medium', 50],
        ['campaign', 'utm_campaign', 150],
        ['term', 'utm_term', 50],
        ['content', 'utm_content', 100],
      ] as const;
      for (const [arg, field, max] of limits) {
        await expectInvalid(
          save({ ...COMPLETE, [arg]: 'x'.repeat(max + 1) }),
          field,
          `The ${field.replace('_', ' ')} must not be greater than ${max}.`,
        );
        await save({ ...COMPLETE, name: `At ${field}`, [arg]: 'x'.repeat(max) });
      }
      await expectInvalid(
        save({ ...COMPLETE, name: 'n'.repeat(101) }),
        'name',
        'The name must not be greater than 100.',
      );
    }));

  it('refuses a name the account already uses', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const account = cast.stranger.personalAccountId;
      await savePreset(db, cast.stranger.id, account, COMPLETE);
      await expectInvalid(
        savePreset(db, cast.stranger.id, account, COMPLETE),
        'name',
        'The name has already been taken.',
      );
      // Another account may use the same name.
      await savePreset(db, cast.member.id, cast.member.personalAccountId, COMPLETE);
    }));
});
