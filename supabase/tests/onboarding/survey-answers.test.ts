import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createCast,
  createUsers,
  expectCoded,
  type ErrorCode,
  expectRefused,
  one,
  queryAs,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/** public.submit_onboarding_survey: the whole survey at once, checked, by actor. */
const pool = useDatabase();

interface Scene {
  surveyId: string;
  single: string;
  multiple: string;
  text: string;
}

async function survey(db: pg.ClientBase, active = true): Promise<Scene> {
  const created = await one<{ id: string }>(
    db,
    `insert into public.surveys (name, title, is_active)
     values ('s-' || substr(md5(random()::text), 1, 8), 'Welcome', $1) returning id`,
    [active],
  );
  const question = (position: number, kind: string, choices: string, required: boolean) =>
    one<{ id: string }>(
      db,
      `insert into public.survey_questions (survey_id, position, prompt, kind, choices, required)
       values ($1, $2::int, 'Question ' || $2::int, $3, $4::text[], $5) returning id`,
      [created.id, position, kind, choices, required],
    );
  const single = await question(0, 'single', '{Work,Personal}', true);
  const multiple = await question(1, 'multiple', '{Social,Email,Print}', false);
  const text = await question(2, 'text', '{}', false);
  return { surveyId: created.id, single: single.id, multiple: multiple.id, text: text.id };
}

const submit = (db: pg.ClientBase, userId: string | null, surveyId: string, answers: unknown) =>
  queryAs<{ n: number }>(db, userId, `select public.submit_onboarding_survey($1, $2) as n`, [
    surveyId,
    JSON.stringify(answers),
  ]);

describe('submit_onboarding_survey', () => {
  it('the owner stores every answer at once and the survey turns off for them', () =>
    withRollback(pool, async (db) => {
      const [me] = await createUsers(db, [{}]);
      const s = await survey(db);
      const stored = await submit(db, me.id, s.surveyId, {
        [s.single]: ['Work'],
        [s.multiple]: ['Social', 'Print'],
        [s.text]: '  Campaigns  ',
      });
      expect(stored.rows).toEqual([{ n: 3 }]);
      const mine = await queryAs(
        db,
        me.id,
        `select question_id, answer from public.survey_answers order by answer::text`,
      );
      expect(mine.rows).toEqual(
        expect.arrayContaining([
          { question_id: s.single, answer: ['Work'] },
          { question_id: s.multiple, answer: ['Social', 'Print'] },
          { question_id: s.text, answer: 'Campaigns' },
        ]),
      );
      expect(
        await one(db, `select is_survey_enabled from public.profiles where id = $1`, [me.id]),
      ).toEqual({ is_survey_enabled: false });
      await expectCoded(
        submit(db, me.id, s.surveyId, { [s.single]: ['Work'] }),
        'survey_already_answered',
      );
    }));

  it('another user reads none of the answers; staff read them all', () =>
    withRollback(pool, async (db) => {
      const { member, stranger, staff } = await createCast(db);
      const s = await survey(db);
      await submit(db, member.id, s.surveyId, { [s.single]: ['Personal'] });
      const theirs = await queryAs(db, stranger.id, `select id from public.survey_answers`);
      expect(theirs.rows).toEqual([]);
      const seen = await queryAs(
        db,
        staff.id,
        `select user_id, answer from public.survey_answers where survey_id = $1`,
        [s.surveyId],
      );
      expect(seen.rows).toEqual([{ user_id: member.id, answer: ['Personal'] }]);
      // Answers are final: nobody edits them over the API.
      await expectRefused(
        queryAs(db, member.id, `update public.survey_answers set answer = '["Work"]'`),
      );
    }));

  it('a guest may not answer', () =>
    withRollback(pool, async (db) => {
      const s = await survey(db);
      await expectRefused(submit(db, null, s.surveyId, { [s.single]: ['Work'] }));
    }));

  it('refuses a wrong answer and writes nothing', () =>
    withRollback(pool, async (db) => {
      const [me] = await createUsers(db, [{}]);
      const s = await survey(db);
      const inactive = await survey(db, false);
      const cases: [unknown, ErrorCode][] = [
        [{ [s.multiple]: ['Email'] }, 'survey_answer_required'],
        [{ [s.single]: [] }, 'survey_answer_required'],
        [{ [s.single]: ['Work', 'Personal'] }, 'survey_answer_invalid'],
        [{ [s.single]: ['Hobby'] }, 'survey_answer_invalid'],
        [{ [s.single]: 'Work' }, 'survey_answer_invalid'],
        [{ [s.single]: ['Work'], [s.multiple]: ['Email', 'Email'] }, 'survey_answer_invalid'],
        [{ [s.single]: ['Work'], [s.text]: 'x'.repeat(2001) }, 'survey_answer_invalid'],
        [{ [s.single]: ['Work'], [inactive.single]: ['Work'] }, 'survey_answers_invalid'],
        [['Work'], 'survey_answers_invalid'],
      ];
      for (const [answers, code] of cases) {
        await expectCoded(submit(db, me.id, s.surveyId, answers), code);
      }
      await expectCoded(
        submit(db, me.id, inactive.surveyId, { [inactive.single]: ['Work'] }),
        'survey_not_found',
      );
      expect(
        await one(
          db,
          `select (select count(*) from public.survey_answers where user_id = $1)::int as answers,
             (select is_survey_enabled from public.profiles where id = $1) as enabled`,
          [me.id],
        ),
      ).toEqual({ answers: 0, enabled: true });
      // At the text limit it is accepted.
      const ok = await submit(db, me.id, s.surveyId, {
        [s.single]: ['Work'],
        [s.text]: 'x'.repeat(2000),
      });
      expect(ok.rows).toEqual([{ n: 2 }]);
    }));
});
