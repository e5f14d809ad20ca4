-- Notifications, announcements, the onboarding survey and its answers, and the organization
-- audit trail (written by triggers on every organization-level change).

-- ---------------------------------------------------------------------------------------------
-- Notifications: per user, read through notifications/recent, marked read by an RPC.

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- The account the notification is about (a bulk import finished for a team, …), if any.
  account_id uuid references public.accounts (id) on delete cascade,
  type text not null check (type ~ '^[a-z0-9_.-]{1,100}$'),
  title text not null check (char_length(title) between 1 and 255),
  body text check (char_length(body) <= 5000),
  data jsonb not null default '{}' check (jsonb_typeof(data) = 'object'),
  read_at timestamptz,
  read boolean not null generated always as (read_at is not null) stored,
  created_at timestamptz not null default now()
);
create index notifications_user_id_idx on public.notifications (user_id, created_at desc);
create index notifications_account_id_idx on public.notifications (account_id);

-- ---------------------------------------------------------------------------------------------
-- Announcements: written by staff, shown to signed-in users once published.

create table public.announcements (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(title) between 1 and 255),
  body text not null check (char_length(body) <= 10000),
  url text check (url is null or url ~ '^https?://'),
  -- Null while a draft.
  published_at timestamptz,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index announcements_published_at_idx on public.announcements (published_at desc);
create index announcements_created_by_idx on public.announcements (created_by);

create trigger announcements_touch_updated_at before update on public.announcements
  for each row execute function app.touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Surveys (the onboarding survey: a list of questions), and users' answers.

create table public.surveys (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (name ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  title text not null check (char_length(title) between 1 and 255),
  is_active boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index surveys_is_active_idx on public.surveys (is_active);

create table public.survey_questions (
  id uuid primary key default gen_random_uuid(),
  survey_id uuid not null references public.surveys (id) on delete cascade,
  position integer not null check (position >= 0),
  prompt text not null check (char_length(prompt) between 1 and 500),
  kind text not null check (kind in ('single', 'multiple', 'text')),
  choices text[] not null default '{}',
  required boolean not null default false,
  created_at timestamptz not null default now(),
  unique (survey_id, position),
  unique (survey_id, id),
  constraint survey_questions_choices_check check (
    (kind = 'text') = (cardinality(choices) = 0)
  )
);

create table public.survey_answers (
  id uuid primary key default gen_random_uuid(),
  survey_id uuid not null,
  question_id uuid not null,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  -- A string for text questions, an array of chosen strings otherwise.
  answer jsonb not null check (jsonb_typeof(answer) in ('string', 'array')),
  created_at timestamptz not null default now(),
  foreign key (survey_id, question_id)
    references public.survey_questions (survey_id, id) on delete cascade,
  unique (question_id, user_id)
);
create index survey_answers_user_id_idx on public.survey_answers (user_id);
create index survey_answers_survey_id_idx on public.survey_answers (survey_id);

create trigger surveys_touch_updated_at before update on public.surveys
  for each row execute function app.touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Audit trail: one row per change to an organization, its roles, users, teams, team members and
-- invitations. Readable by the owner and holders of the `audit` permission; nobody writes it
-- over the API.

create table public.audit_events (
  id bigint generated always as identity primary key,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  actor_id uuid references auth.users (id) on delete set null,
  -- <subject>.<created|updated|deleted|archived|unarchived>, e.g. team_member.created.
  action text not null,
  subject_table text not null,
  subject_id text,
  old_values jsonb,
  new_values jsonb,
  created_at timestamptz not null default now()
);
create index audit_events_organization_id_idx on public.audit_events (organization_id, created_at desc);
create index audit_events_actor_id_idx on public.audit_events (actor_id);

create function app.audit_organization_change() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
  v_old jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) - 'updated_at' end;
  v_new jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) - 'updated_at' end;
  v_organization_id uuid;
  v_action text := case tg_op
    when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end;
begin
  v_organization_id := case tg_table_name
    when 'organizations' then (v_row ->> 'id')::uuid
    when 'team_members' then (
      select t.organization_id from public.teams t where t.id = (v_row ->> 'team_id')::uuid
    )
    else (v_row ->> 'organization_id')::uuid
  end;
  -- Standalone teams have no trail; a deleted organization takes its trail with it.
  if v_organization_id is null
    or not exists (select 1 from public.organizations o where o.id = v_organization_id) then
    return null;
  end if;
  if tg_op = 'UPDATE' and v_old = v_new then
    return null;
  end if;
  if tg_table_name = 'organizations' and tg_op = 'UPDATE'
    and (v_old ->> 'archived_at') is distinct from (v_new ->> 'archived_at') then
    v_action := case when v_new ->> 'archived_at' is null then 'unarchived' else 'archived' end;
  end if;
  insert into public.audit_events
    (organization_id, actor_id, action, subject_table, subject_id, old_values, new_values)
  values (
    v_organization_id,
    (select auth.uid()),
    regexp_replace(tg_table_name, 's$', '') || '.' || v_action,
    tg_table_name,
    coalesce(v_row ->> 'id', v_row ->> 'user_id'),
    v_old,
    v_new
  );
  return null;
end;
$$;

create trigger organizations_audit after insert or update or delete on public.organizations
  for each row execute function app.audit_organization_change();
create trigger organization_roles_audit after insert or update or delete on public.organization_roles
  for each row execute function app.audit_organization_change();
create trigger organization_users_audit after insert or update or delete on public.organization_users
  for each row execute function app.audit_organization_change();
create trigger teams_audit after insert or update or delete on public.teams
  for each row execute function app.audit_organization_change();
create trigger team_members_audit after insert or update or delete on public.team_members
  for each row execute function app.audit_organization_change();
create trigger invitations_audit after insert or update or delete on public.invitations
  for each row execute function app.audit_organization_change();

-- ---------------------------------------------------------------------------------------------
-- RPCs: PUT notifications/read { notifications: [ids] } and PUT user/last-read-announcements-at.

create function public.mark_notifications_read(p_notification_ids uuid[]) returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_count integer;
begin
  if p_notification_ids is null or cardinality(p_notification_ids) = 0
    or array_position(p_notification_ids, null) is not null then
    perform app.raise_coded('notifications_required');
  end if;
  if exists (
    select 1 from unnest(p_notification_ids) as requested(id)
    where not exists (
      select 1 from public.notifications n where n.id = requested.id and n.user_id = v_uid
    )
  ) then
    perform app.raise_coded('notification_not_found');
  end if;
  update public.notifications
  set read_at = now()
  where id = any (p_notification_ids) and user_id = v_uid and read_at is null;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

create function public.mark_announcements_read() returns timestamptz
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_at timestamptz;
begin
  update public.profiles set last_read_announcements_at = now() where id = v_uid
  returning last_read_announcements_at into v_at;
  return v_at;
end;
$$;

revoke execute on function public.mark_notifications_read(uuid[]), public.mark_announcements_read()
  from public, anon;
grant execute on function public.mark_notifications_read(uuid[]), public.mark_announcements_read()
  to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Row-level security.

alter table public.notifications enable row level security;
alter table public.announcements enable row level security;
alter table public.surveys enable row level security;
alter table public.survey_questions enable row level security;
alter table public.survey_answers enable row level security;
alter table public.audit_events enable row level security;

create policy "Users can read their own notifications" on public.notifications
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Users can delete their own notifications" on public.notifications
  for delete to authenticated
  using (user_id = (select auth.uid()));

create policy "Signed-in users can read published announcements" on public.announcements
  for select to authenticated
  using (published_at is not null and published_at <= now());

create policy "Staff can manage announcements" on public.announcements
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Signed-in users can read active surveys" on public.surveys
  for select to authenticated
  using (is_active);

create policy "Staff can manage surveys" on public.surveys
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Signed-in users can read the questions of active surveys" on public.survey_questions
  for select to authenticated
  using (survey_id in (select s.id from public.surveys s where s.is_active));

create policy "Staff can manage survey questions" on public.survey_questions
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Users can read their own answers" on public.survey_answers
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Users can answer active surveys" on public.survey_answers
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and survey_id in (select s.id from public.surveys s where s.is_active)
  );

create policy "Staff can read every answer" on public.survey_answers
  for select to authenticated
  using ((select app.is_staff()));

create policy "Owners and auditors can read their organization's audit trail" on public.audit_events
  for select to authenticated
  using (organization_id in (
    select o.id from public.organizations o
    where o.account_id in (select app.accounts_with_permission('audit'))
  ));

create policy "Staff can read every audit event" on public.audit_events
  for select to authenticated
  using ((select app.is_staff()));

revoke all on public.notifications, public.announcements, public.surveys,
  public.survey_questions, public.survey_answers, public.audit_events from anon;
revoke truncate, references, trigger on public.notifications, public.announcements,
  public.surveys, public.survey_questions, public.survey_answers, public.audit_events
  from authenticated;
-- Notifications are sent by the service role and marked read by mark_notifications_read;
-- answers are final; the audit trail is written by triggers only.
revoke insert, update on public.notifications from authenticated;
revoke update, delete on public.survey_answers from authenticated;
revoke insert, update, delete on public.audit_events from authenticated;

-- Nothing in `app` is executable by PUBLIC; the grants above are the deliberate ones.
revoke execute on all functions in schema app from public;
