import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createCast,
  createUser,
  createUsers,
  expectCoded,
  expectProtectedColumn,
  expectRefused,
  one,
  queryAs,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/** Notifications, announcements and the onboarding survey. */
const pool = useDatabase();

async function notify(db: pg.ClientBase, userId: string, title = 'Import finished') {
  return one<{ id: string }>(
    db,
    `insert into public.notifications (user_id, type, title) values ($1, 'bulk.finished', $2) returning id`,
    [userId, title],
  );
}

describe('notifications', () => {
  it('users read their own notifications only', () =>
    withRollback(pool, async (db) => {
      const [me, other] = await createUsers(db, [{}, {}]);
      const mine = await notify(db, me.id);
      await notify(db, other.id);
      const seen = await queryAs(db, me.id, `select id, read from public.notifications`);
      expect(seen.rows).toEqual([{ id: mine.id, read: false }]);
      await expectRefused(queryAs(db, null, `select id from public.notifications`));
    }));

  it('mark_notifications_read marks the given ones read and counts them', () =>
    withRollback(pool, async (db) => {
      const me = await createUser(db);
      const first = await notify(db, me.id);
      const second = await notify(db, me.id);
      const marked = await queryAs(db, me.id, `select public.mark_notifications_read($1) as n`, [
        [first.id],
      ]);
      expect(marked.rows).toEqual([{ n: 1 }]);
      const state = await queryAs<{ id: string; read: boolean }>(
        db,
        me.id,
        `select id, read from public.notifications order by read desc`,
      );
      expect(state.rows).toEqual([
        { id: first.id, read: true },
        { id: second.id, read: false },
      ]);
    }));

  it('an empty list is notifications_required', () =>
    withRollback(pool, async (db) => {
      const me = await createUser(db);
      await expectCoded(
        queryAs(db, me.id, `select public.mark_notifications_read('{}'::uuid[])`),
        'notifications_required',
      );
    }));

  it("someone else's notification is notification_not_found, and stays unread", () =>
    withRollback(pool, async (db) => {
      const [me, other] = await createUsers(db, [{}, {}]);
      const theirs = await notify(db, other.id);
      await expectCoded(
        queryAs(db, me.id, `select public.mark_notifications_read($1)`, [[theirs.id]]),
        'notification_not_found',
      );
      expect(
        await one(db, `select read from public.notifications where id = $1`, [theirs.id]),
      ).toEqual({
        read: false,
      });
    }));

  it('users cannot write notifications directly', () =>
    withRollback(pool, async (db) => {
      const me = await createUser(db);
      const mine = await notify(db, me.id);
      await expectRefused(
        queryAs(db, me.id, `update public.notifications set read_at = now() where id = $1`, [
          mine.id,
        ]),
      );
      await expectRefused(
        queryAs(
          db,
          me.id,
          `insert into public.notifications (user_id, type, title) values ($1, 'x', 'x')`,
          [me.id],
        ),
      );
    }));
});

describe('announcements', () => {
  async function announce(db: pg.ClientBase) {
    const published = await one<{ id: string }>(
      db,
      `insert into public.announcements (title, body, published_at) values ('Live', 'Body', now()) returning id`,
    );
    const draft = await one<{ id: string }>(
      db,
      `insert into public.announcements (title, body) values ('Draft', 'Body') returning id`,
    );
    return { published: published.id, draft: draft.id };
  }

  it('signed-in users read published announcements, not drafts', () =>
    withRollback(pool, async (db) => {
      const me = await createUser(db);
      const { published, draft } = await announce(db);
      const seen = await queryAs<{ id: string }>(
        db,
        me.id,
        `select id from public.announcements where id = any ($1)`,
        [[published, draft]],
      );
      expect(seen.rows).toEqual([{ id: published }]);
      await expectRefused(queryAs(db, null, `select id from public.announcements`));
    }));

  it('staff write and read drafts; users cannot write', () =>
    withRollback(pool, async (db) => {
      const { staff, owner } = await createCast(db);
      const { draft } = await announce(db);
      const seen = await queryAs(
        db,
        staff.id,
        `select id from public.announcements where id = $1`,
        [draft],
      );
      expect(seen.rows).toEqual([{ id: draft }]);
      const created = await queryAs(
        db,
        staff.id,
        `insert into public.announcements (title, body) values ('New', 'Text') returning created_by`,
      );
      expect(created.rows).toEqual([{ created_by: staff.id }]);
      await expectRefused(
        queryAs(
          db,
          owner.id,
          `insert into public.announcements (title, body) values ('Spam', 'Text')`,
        ),
      );
    }));

  it('mark_announcements_read stamps last_read_announcements_at; a direct update is refused', () =>
    withRollback(pool, async (db) => {
      const me = await createUser(db);
      const stamped = await queryAs<{ at: Date }>(
        db,
        me.id,
        `select public.mark_announcements_read() as at`,
      );
      const profile = await one<{ last_read_announcements_at: Date }>(
        db,
        `select last_read_announcements_at from public.profiles where id = $1`,
        [me.id],
      );
      expect(profile.last_read_announcements_at).toEqual(stamped.rows[0]?.at);
      await expectProtectedColumn(
        queryAs(
          db,
          me.id,
          `update public.profiles set last_read_announcements_at = null where id = $1`,
          [me.id],
        ),
        'last_read_announcements_at',
      );
      await expectRefused(queryAs(db, null, `select public.mark_announcements_read()`));
    }));
});

describe('surveys', () => {
  async function survey(db: pg.ClientBase, active: boolean) {
    const created = await one<{ id: string }>(
      db,
      `insert into public.surveys (name, title, is_active) values ('s-' || substr(md5(random()::text), 1, 8), 'Survey', $1)
       returning id`,
      [active],
    );
    const question = await one<{ id: string }>(
      db,
      `insert into public.survey_questions (survey_id, position, prompt, kind, choices)
       values ($1, 0, 'Why?', 'single', '{A,B}') returning id`,
      [created.id],
    );
    return { surveyId: created.id, questionId: question.id };
  }

  it('users read active surveys and their questions, not inactive ones', () =>
    withRollback(pool, async (db) => {
      const me = await createUser(db);
      const active = await survey(db, true);
      const inactive = await survey(db, false);
      const surveys = await queryAs(
        db,
        me.id,
        `select id from public.surveys where id = any ($1)`,
        [[active.surveyId, inactive.surveyId]],
      );
      expect(surveys.rows).toEqual([{ id: active.surveyId }]);
      const questions = await queryAs(
        db,
        me.id,
        `select id from public.survey_questions where id = any ($1)`,
        [[active.questionId, inactive.questionId]],
      );
      expect(questions.rows).toEqual([{ id: active.questionId }]);
    }));

  it('users answer an active survey once, as themselves, and read only their own answers', () =>
    withRollback(pool, async (db) => {
      const [me, other] = await createUsers(db, [{}, {}]);
      const active = await survey(db, true);
      const inactive = await survey(db, false);
      const answered = await queryAs(
        db,
        me.id,
        `insert into public.survey_answers (survey_id, question_id, answer) values ($1, $2, '["A"]')
         returning user_id`,
        [active.surveyId, active.questionId],
      );
      expect(answered.rows).toEqual([{ user_id: me.id }]);
      await expectRefused(
        queryAs(
          db,
          me.id,
          `insert into public.survey_answers (survey_id, question_id, answer) values ($1, $2, '["A"]')`,
          [inactive.surveyId, inactive.questionId],
        ),
      );
      await expectRefused(
        queryAs(
          db,
          me.id,
          `insert into public.survey_answers (survey_id, question_id, user_id, answer) values ($1, $2, $3, '["B"]')`,
          [active.surveyId, active.questionId, other.id],
        ),
      );
      const theirs = await queryAs(db, other.id, `select id from public.survey_answers`);
      expect(theirs.rows).toEqual([]);
    }));

  it('staff read every answer', () =>
    withRollback(pool, async (db) => {
      const { staff, member } = await createCast(db);
      const active = await survey(db, true);
      await queryAs(
        db,
        member.id,
        `insert into public.survey_answers (survey_id, question_id, answer) values ($1, $2, '["A"]')`,
        [active.surveyId, active.questionId],
      );
      const seen = await queryAs(
        db,
        staff.id,
        `select user_id from public.survey_answers where survey_id = $1`,
        [active.surveyId],
      );
      expect(seen.rows).toEqual([{ user_id: member.id }]);
    }));
});
