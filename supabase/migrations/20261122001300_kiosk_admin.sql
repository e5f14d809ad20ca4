-- The kiosk's screens and staff actions: views that join what a screen shows, staff-only RPCs
-- for figures and invitations, the staff audit log (bans, 2FA resets, impersonations, DNS) and
-- the password dictionary as the auth service reads it.
--
-- Every view here answers staff only: each ends in `where (select app.is_staff())`, so a
-- signed-in non-staff caller gets no rows (not an error) and anonymous callers have no grant.
-- Views over tenant tables are security_invoker, so the tables' own policies apply as well; the
-- one view that needs auth.users (kiosk_users) runs as its owner and is a security barrier, so
-- no caller-supplied filter is evaluated before the staff check.

-- ---------------------------------------------------------------------------------------------
-- Errors of the kiosk's RPCs (the contract's shape: errcode PT<status>, message = code).

create function app.kiosk_error(p_code text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_status text;
  v_detail text;
  v_hint text;
begin
  select e.status, e.detail, e.hint into v_status, v_detail, v_hint
  from (values
    ('period_invalid', '422', 'The period must be between 1 and 366 days.', 'days'),
    ('email_invalid', '422', 'The email must be a valid email address.', 'email'),
    ('already_invited', '409', 'That address has already been invited.', 'email'),
    ('expiry_in_past', '422', 'The expiry must be in the future.', 'expires_at')
  ) as e(code, status, detail, hint)
  where e.code = p_code;
  if v_status is null then
    -- permission_denied, domain_not_found…: the catalogues other areas keep.
    perform app.link_error(p_code);
  end if;
  raise exception using errcode = 'PT' || v_status, message = p_code, detail = v_detail,
    hint = v_hint;
end;
$$;

-- The caller, who must be staff; anyone else gets permission_denied.
create function app.require_staff() returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not app.is_staff() then
    perform app.raise_coded('permission_denied');
  end if;
  return (select auth.uid());
end;
$$;

grant execute on function app.kiosk_error(text), app.require_staff() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The kiosk's own check: "am I staff?" (the kiosk shows an access-denied page otherwise).

create function public.is_staff() returns boolean
language sql stable
set search_path = ''
as $$
  select app.is_staff()
$$;
comment on function public.is_staff() is 'True when the caller has the developer flag (staff).';

-- ---------------------------------------------------------------------------------------------
-- The staff audit log: actions taken through the kiosk's edge functions and RPCs. Written by
-- those (service role or security definer), read by staff, changed by nobody.

create table public.kiosk_audit_log (
  id bigint generated always as identity primary key,
  actor_id uuid references auth.users (id) on delete set null,
  action text not null check (action in (
    'user.banned', 'user.unbanned', 'user.mfa_reset',
    'impersonation.started', 'impersonation.stopped',
    'dns.zone_created', 'dns.zone_deleted', 'dns.zones_synced',
    'access_invitation.created'
  )),
  subject_user_id uuid references auth.users (id) on delete set null,
  details jsonb not null default '{}' check (jsonb_typeof(details) = 'object'),
  created_at timestamptz not null default now()
);
comment on table public.kiosk_audit_log is
  'What staff did through the kiosk: bans, 2FA resets, impersonations, DNS zones, invitations.';
create index kiosk_audit_log_actor_id_idx on public.kiosk_audit_log (actor_id, created_at desc);
create index kiosk_audit_log_subject_user_id_idx on public.kiosk_audit_log (subject_user_id, created_at desc);
-- An impersonation is stopped once: the stop row names the start row.
create unique index kiosk_audit_log_one_stop_per_impersonation_idx
  on public.kiosk_audit_log ((details ->> 'impersonation_id'))
  where action = 'impersonation.stopped';

alter table public.kiosk_audit_log enable row level security;

create policy "Staff can read the kiosk audit log" on public.kiosk_audit_log
  for select to authenticated
  using ((select app.is_staff()));

revoke all on public.kiosk_audit_log from anon;
revoke insert, update, delete, truncate, references, trigger on public.kiosk_audit_log
  from authenticated;

-- ---------------------------------------------------------------------------------------------
-- Views the screens read.

-- users: profile, sign-in facts, plan and subscription state, teams and organizations, links.
create view public.kiosk_users with (security_barrier = true) as
select
  p.id,
  p.email,
  p.name,
  p.status,
  (p.status & 4) <> 0 as no_affiliate,
  (p.status & 8) <> 0 as no_mailings,
  (p.status & 16) <> 0 as hide_invoices,
  p.is_developer,
  p.is_survey_enabled,
  p.personal_account_id,
  p.created_at,
  u.email_confirmed_at,
  u.last_sign_in_at,
  u.banned_until,
  coalesce(u.banned_until > now(), false) as is_banned,
  (
    select count(*) from auth.mfa_factors f where f.user_id = p.id and f.status = 'verified'
  )::integer as mfa_factors,
  coalesce(s.name, 'free') as plan,
  case
    when s.id is null or s.is_free then 'free'
    when s.billing_status = 'past_due' then 'past_due'
    when s.billing_status = 'incomplete' then 'incomplete'
    when s.trial_ends_at > now() then 'trial'
    when s.ends_at is not null then 'grace'
    else 'active'
  end as subscription_state,
  s.interval as subscription_interval,
  s.ends_at as subscription_ends_at,
  s.trial_ends_at as subscription_trial_ends_at,
  coalesce((
    select jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name, 'slug', t.slug,
      'role', tm.role, 'organization_id', t.organization_id) order by t.name)
    from public.team_members tm join public.teams t on t.id = tm.team_id
    where tm.user_id = p.id
  ), '[]'::jsonb) as teams,
  coalesce((
    select jsonb_agg(jsonb_build_object('id', o.id, 'name', o.name, 'slug', o.slug,
      'role', x.role) order by o.name)
    from (
      select a.id as account_id, 'owner' as role
      from public.accounts a where a.owner_id = p.id and a.kind = 'organization'
      union
      select o2.account_id, r.name
      from public.organization_users ou
      join public.organizations o2 on o2.id = ou.organization_id
      join public.organization_roles r on r.id = ou.role_id
      where ou.user_id = p.id
    ) x
    join public.organizations o on o.account_id = x.account_id
  ), '[]'::jsonb) as organizations,
  (
    select count(*) from public.aliases l where l.created_by = p.id and l.status <> 'deleted'
  )::integer as links_count
from public.profiles p
join auth.users u on u.id = p.id
left join lateral (
  select s1.*
  from public.subscriptions s1
  where s1.account_id = p.personal_account_id and s1.type = 'default'
    and (s1.ends_at is null or s1.ends_at > now())
  order by s1.created_at desc
  limit 1
) s on true
where (select app.is_staff());
comment on view public.kiosk_users is
  'Staff only: every user with sign-in facts (from auth.users), plan, teams, organizations and links.';

-- aliases: each short link with its destination, owner and click total.
create view public.kiosk_aliases with (security_invoker = true) as
select
  a.id,
  a.alias::text as alias,
  d.domain::text as domain,
  a.domain_id,
  a.status,
  a.is_main,
  a.expires_at,
  a.description,
  a.created_at,
  a.updated_at,
  a.long_url_id,
  u.url,
  u.host,
  u.status as url_status,
  app.is_domain_banned(u.host) as host_banned,
  a.account_id,
  ac.name as account_name,
  ac.kind as account_kind,
  ac.owner_id,
  op.email as owner_email,
  a.created_by,
  a.organization_id,
  coalesce((
    select sum(c.clicks) from public.click_stats_hourly c where c.alias_id = a.id
  ), 0)::bigint as clicks
from public.aliases a
join public.domains d on d.id = a.domain_id
join public.long_urls u on u.id = a.long_url_id
left join public.accounts ac on ac.id = a.account_id
left join public.profiles op on op.id = ac.owner_id
where (select app.is_staff());
comment on view public.kiosk_aliases is 'Staff only: short links with destination, owner and clicks.';

-- long-urls: each destination with its owner, aliases and clicks.
create view public.kiosk_long_urls with (security_invoker = true) as
select
  u.id,
  u.url,
  u.host,
  u.status,
  app.is_domain_banned(u.host) as host_banned,
  u.created_at,
  u.updated_at,
  u.account_id,
  ac.name as account_name,
  ac.kind as account_kind,
  ac.owner_id,
  op.email as owner_email,
  (select count(*) from public.aliases a where a.long_url_id = u.id)::integer as aliases_count,
  coalesce((
    select sum(c.clicks)
    from public.aliases a join public.click_stats_hourly c on c.alias_id = a.id
    where a.long_url_id = u.id
  ), 0)::bigint as clicks
from public.long_urls u
left join public.accounts ac on ac.id = u.account_id
left join public.profiles op on op.id = ac.owner_id
where (select app.is_staff());
comment on view public.kiosk_long_urls is 'Staff only: destinations with owner, aliases and clicks.';

-- domains: every domain with its flags, owner and links.
create view public.kiosk_domains with (security_invoker = true) as
select
  d.id,
  d.domain::text as domain,
  d.kind,
  d.account_id,
  ac.name as account_name,
  d.base_domain_id,
  d.is_disabled,
  d.is_deleted,
  d.is_blocked,
  d.require_email_verification,
  d.subscribed_only,
  d.allow_for_guests,
  d.guest_can_use_custom_alias,
  d.for_all_teams,
  d.redirect_status,
  d.root_redirect_url::text as root_redirect_url,
  d.not_found_redirect_url::text as not_found_redirect_url,
  d.verification_status,
  d.verified_at,
  d.created_at,
  d.updated_at,
  (select count(*) from public.aliases a where a.domain_id = d.id)::bigint as links_count
from public.domains d
left join public.accounts ac on ac.id = d.account_id
where (select app.is_staff());
comment on view public.kiosk_domains is 'Staff only: domains with flags, owner and links.';

-- surveys/{survey}: each question with its answer counts (choices) or latest answers (text).
create view public.kiosk_survey_results with (security_invoker = true) as
select
  q.id,
  q.survey_id,
  q.position,
  q.prompt,
  q.kind,
  q.choices,
  q.required,
  (select count(*) from public.survey_answers sa where sa.question_id = q.id)::integer
    as answers_count,
  coalesce((
    select jsonb_object_agg(choice.value, (
      select count(*) from public.survey_answers sa
      where sa.question_id = q.id and sa.answer @> to_jsonb(array[choice.value])
    ))
    from unnest(q.choices) as choice(value)
  ), '{}'::jsonb) as choice_counts,
  coalesce((
    select jsonb_agg(latest.answer order by latest.created_at desc)
    from (
      select sa.answer, sa.created_at from public.survey_answers sa
      where sa.question_id = q.id and q.kind = 'text'
      order by sa.created_at desc
      limit 20
    ) latest
  ), '[]'::jsonb) as latest_text_answers
from public.survey_questions q
where (select app.is_staff());
comment on view public.kiosk_survey_results is
  'Staff only: a survey''s questions with answer counts per choice and the latest text answers.';

-- The views are read-only screens: writes go to the tables (and RPCs) they show.
revoke all on public.kiosk_users, public.kiosk_aliases, public.kiosk_long_urls,
  public.kiosk_domains, public.kiosk_survey_results from anon;
revoke insert, update, delete, truncate, references, trigger on public.kiosk_users,
  public.kiosk_aliases, public.kiosk_long_urls, public.kiosk_domains, public.kiosk_survey_results
  from authenticated;

-- ---------------------------------------------------------------------------------------------
-- Figures for stats/system/{domain?} and stats/tinyurl (days in UTC).

-- Per day over the last p_days days: links created, clicks, users signed up and paid
-- subscriptions started. A domain narrows links and clicks to that domain's short links.
create function public.kiosk_system_stats(p_days integer default 30, p_domain text default null)
returns table (day date, links bigint, clicks bigint, users bigint, subscriptions bigint)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_first date;
  v_domain_id uuid;
begin
  perform app.require_staff();
  if p_days is null or p_days < 1 or p_days > 366 then
    perform app.kiosk_error('period_invalid');
  end if;
  if nullif(btrim(p_domain), '') is not null then
    select d.id into v_domain_id from public.domains d where d.domain = lower(btrim(p_domain));
    if v_domain_id is null then
      perform app.kiosk_error('domain_not_found');
    end if;
  end if;
  v_first := (now() at time zone 'UTC')::date - (p_days - 1);
  return query
    with days as (
      select g::date as day
      from generate_series(v_first, (now() at time zone 'UTC')::date, interval '1 day') as g
    ),
    created_links as (
      select (a.created_at at time zone 'UTC')::date as day, count(*) as n
      from public.aliases a
      where a.created_at >= v_first::timestamp at time zone 'UTC'
        and (v_domain_id is null or a.domain_id = v_domain_id)
      group by 1
    ),
    daily_clicks as (
      select (c.hour at time zone 'UTC')::date as day, sum(c.clicks) as n
      from public.click_stats_hourly c
      where c.hour >= v_first::timestamp at time zone 'UTC'
        and (v_domain_id is null
          or c.alias_id in (select a.id from public.aliases a where a.domain_id = v_domain_id))
      group by 1
    ),
    new_users as (
      select (p.created_at at time zone 'UTC')::date as day, count(*) as n
      from public.profiles p
      where p.created_at >= v_first::timestamp at time zone 'UTC'
      group by 1
    ),
    new_subscriptions as (
      select (s.created_at at time zone 'UTC')::date as day, count(*) as n
      from public.subscriptions s
      where s.created_at >= v_first::timestamp at time zone 'UTC'
        and s.type = 'default' and not s.is_free
      group by 1
    )
    select d.day, coalesce(l.n, 0)::bigint, coalesce(c.n, 0)::bigint, coalesce(u.n, 0)::bigint,
      coalesce(s.n, 0)::bigint
    from days d
    left join created_links l on l.day = d.day
    left join daily_clicks c on c.day = d.day
    left join new_users u on u.day = d.day
    left join new_subscriptions s on s.day = d.day
    order by d.day;
end;
$$;

-- The product's totals, and links by status and by domain (the busiest p_top domains).
create function public.kiosk_link_totals(p_top integer default 10) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform app.require_staff();
  return jsonb_build_object(
    'users', (select count(*) from public.profiles),
    'staff', (select count(*) from public.profiles p where p.is_developer),
    'links', (select count(*) from public.aliases),
    'active_links', (select count(*) from public.aliases a where app.alias_is_active(a.status)),
    'long_urls', (select count(*) from public.long_urls),
    'clicks', (select coalesce(sum(c.clicks), 0) from public.click_stats_hourly c),
    'paid_subscriptions', (
      select count(*) from public.subscriptions s
      where s.type = 'default' and not s.is_free and (s.ends_at is null or s.ends_at > now())
    ),
    'banned_domains', (select count(*) from public.banned_domains),
    'by_status', coalesce((
      select jsonb_object_agg(x.status, x.n)
      from (select a.status, count(*) as n from public.aliases a group by a.status) x
    ), '{}'::jsonb),
    'by_domain', coalesce((
      select jsonb_agg(jsonb_build_object('domain', x.domain, 'links', x.n) order by x.n desc, x.domain)
      from (
        select d.domain::text as domain, count(*) as n
        from public.aliases a join public.domains d on d.id = a.domain_id
        group by d.domain
        order by count(*) desc, d.domain
        limit least(greatest(coalesce(p_top, 10), 1), 50)
      ) x
    ), '[]'::jsonb)
  );
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- access-invitations: the token is made here, stored hashed, and returned once.

create function public.kiosk_create_access_invitation(
  p_email text,
  p_note text default null,
  p_expires_at timestamptz default null
) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_staff uuid := app.require_staff();
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_token text := encode(extensions.gen_random_bytes(24), 'hex');
  v_id uuid;
begin
  if v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or char_length(v_email) > 255 then
    perform app.kiosk_error('email_invalid');
  end if;
  if p_expires_at is not null and p_expires_at <= now() then
    perform app.kiosk_error('expiry_in_past');
  end if;
  begin
    insert into public.access_invitations (email, token_hash, note, invited_by, expires_at)
    values (v_email, encode(extensions.digest(v_token, 'sha256'), 'hex'),
      nullif(btrim(p_note), ''), v_staff, p_expires_at)
    returning id into v_id;
  exception when unique_violation then
    perform app.kiosk_error('already_invited');
  end;
  insert into public.kiosk_audit_log (actor_id, action, details)
  values (v_staff, 'access_invitation.created', jsonb_build_object('invitation_id', v_id,
    'email', v_email));
  return jsonb_build_object('id', v_id, 'email', v_email, 'token', v_token);
end;
$$;

revoke execute on function public.is_staff(), public.kiosk_system_stats(integer, text),
  public.kiosk_link_totals(integer),
  public.kiosk_create_access_invitation(text, text, timestamptz) from public, anon;
grant execute on function public.is_staff(), public.kiosk_system_stats(integer, text),
  public.kiosk_link_totals(integer),
  public.kiosk_create_access_invitation(text, text, timestamptz) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Banned domains and IP blocks need nothing more here: create_link refuses banned destinations
-- (app.check_destination), the redirect's lookup reads app.is_domain_banned(long_urls.host),
-- and the redirect migration's statement triggers on banned_domains and ip_blocks tell every
-- redirect cache to drop what it loaded (tested in supabase/tests/kiosk/screens.test.ts).

-- ---------------------------------------------------------------------------------------------
-- The password dictionary, read by the auth service (supabase_auth_admin) when a password is
-- set: supabase/local/src/auth/password-dictionary.ts refuses dictionary words as weak.

grant usage on schema public to supabase_auth_admin;
grant select on public.password_dictionary to supabase_auth_admin;

create policy "The auth service can read the password dictionary" on public.password_dictionary
  for select to supabase_auth_admin
  using (true);

-- Nothing in `app` is executable by PUBLIC; the grants above are the deliberate ones.
revoke execute on all functions in schema app from public;
