-- Answering the onboarding survey (issue 13, item 4). survey_answers already lets a user insert
-- their own rows into an active survey (migration 000130), but one row at a time and without
-- looking at the answer: a choice that is not offered, two choices to a single-choice question,
-- a missing required answer or half a survey could be stored. public.submit_onboarding_survey
-- takes the whole survey at once, checks every answer against its question, writes all of them
-- or none, and turns the survey off for the user (profiles.is_survey_enabled) so it does not
-- come back.

create function public.submit_onboarding_survey(p_survey_id uuid, p_answers jsonb)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_question record;
  v_answer jsonb;
  v_count integer := 0;
begin
  if p_survey_id is null
    or not exists (select 1 from public.surveys s where s.id = p_survey_id and s.is_active) then
    raise exception using errcode = 'PT404', message = 'survey_not_found',
      detail = 'Survey not found.', hint = 'survey';
  end if;
  if p_answers is null or jsonb_typeof(p_answers) <> 'object' then
    raise exception using errcode = 'PT422', message = 'survey_answers_invalid',
      detail = 'The answers must be an object of question ids and answers.', hint = 'answers';
  end if;
  -- Every key must name a question of this survey.
  if exists (
    select 1 from jsonb_object_keys(p_answers) as k(key)
    where not exists (
      select 1 from public.survey_questions q
      where q.survey_id = p_survey_id and q.id::text = k.key
    )
  ) then
    raise exception using errcode = 'PT422', message = 'survey_answers_invalid',
      detail = 'An answer names a question that is not part of this survey.', hint = 'answers';
  end if;
  if exists (
    select 1 from public.survey_answers a where a.survey_id = p_survey_id and a.user_id = v_uid
  ) then
    raise exception using errcode = 'PT409', message = 'survey_already_answered',
      detail = 'You have already answered this survey.', hint = 'survey';
  end if;

  for v_question in
    select q.id, q.kind, q.choices, q.required from public.survey_questions q
    where q.survey_id = p_survey_id order by q.position
  loop
    v_answer := p_answers -> v_question.id::text;
    -- An empty answer is no answer.
    if v_answer is null or v_answer = 'null'::jsonb or v_answer = '[]'::jsonb
      or (jsonb_typeof(v_answer) = 'string' and btrim(v_answer #>> '{}') = '') then
      if v_question.required then
        raise exception using errcode = 'PT422', message = 'survey_answer_required',
          detail = 'This question needs an answer.', hint = v_question.id::text;
      end if;
      continue;
    end if;
    if v_question.kind = 'text' then
      if jsonb_typeof(v_answer) <> 'string' or char_length(v_answer #>> '{}') > 2000 then
        raise exception using errcode = 'PT422', message = 'survey_answer_invalid',
          detail = 'Answer with a text of at most 2000 characters.', hint = v_question.id::text;
      end if;
      v_answer := to_jsonb(btrim(v_answer #>> '{}'));
    elsif jsonb_typeof(v_answer) <> 'array'
      or exists (select 1 from jsonb_array_elements(v_answer) e(v)
                 where jsonb_typeof(e.v) <> 'string' or not ((e.v #>> '{}') = any (v_question.choices)))
      or (select count(distinct e.v) <> count(*) from jsonb_array_elements(v_answer) e(v))
      or (v_question.kind = 'single' and jsonb_array_length(v_answer) <> 1) then
      raise exception using errcode = 'PT422', message = 'survey_answer_invalid',
        detail = case v_question.kind
          when 'single' then 'Choose one of the offered answers.'
          else 'Choose among the offered answers, each once.' end,
        hint = v_question.id::text;
    end if;
    insert into public.survey_answers (survey_id, question_id, user_id, answer)
    values (p_survey_id, v_question.id, v_uid, v_answer);
    v_count := v_count + 1;
  end loop;

  update public.profiles set is_survey_enabled = false where id = v_uid;
  return v_count;
end;
$$;
comment on function public.submit_onboarding_survey(uuid, jsonb) is
  'Stores the caller''s answers to an active survey, all checked, at once; turns the survey off.';
revoke execute on function public.submit_onboarding_survey(uuid, jsonb) from public, anon;
grant execute on function public.submit_onboarding_survey(uuid, jsonb) to authenticated;
