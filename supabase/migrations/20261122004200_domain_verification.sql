-- Verification of branded and organization domains by real DNS queries. A new domain is pending
-- until the `domain-verify` edge function, woken by Supabase Cron through pg_net, finds both
-- records the owner was asked to set:
--
--   _shortlane-verification.<domain>  TXT   <verification_token>      (ownership)
--   <domain>                          CNAME <the redirect host>        (or A/AAAA to its address)
--
-- The function asks through the name server its environment names (DNS_NAME_SERVER: the local
-- stack's DNS sandbox; unset in production, the system's resolver) and writes each outcome back
-- through app.record_domain_check: verified at once when both records are right, otherwise the
-- reason is kept (visible to the owner) and the domain is looked at again every retry_seconds
-- until its deadline, then failed. The owner may start it again (public.restart_domain_
-- verification), with a fresh deadline. Verification flips the row, and the domain triggers
-- (migration 20261122001100) announce it to the redirector and the local gateway, so a verified
-- domain serves its links at once. Vanity subdomains live under our own domains and are not
-- verified here.

-- ---------------------------------------------------------------------------------------------
-- Settings, one row. Production sets where the worker is (verify_url: https://<ref>.supabase.co/
-- functions/v1/domain-verify; verify_key: the service role key, readable by postgres only); the
-- local stack writes its own at start (supabase/local/src/webhook-settings.ts).

create table app.domain_verification_settings (
  id boolean primary key default true check (id),
  verify_url text,
  verify_key text,
  -- How long a pending domain is retried before it fails, and how often it is looked at.
  window_seconds integer not null default 259200 check (window_seconds > 0),
  retry_seconds integer not null default 60 check (retry_seconds > 0),
  -- Domains one run of the worker checks at most (the next kick takes the rest).
  batch_size integer not null default 50 check (batch_size between 1 and 1000)
);
insert into app.domain_verification_settings default values;
comment on table app.domain_verification_settings is
  'Branded domain verification: where the worker is, how long and how often it retries.';
revoke all on app.domain_verification_settings from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The state the owner sees beside verification_status.

alter table public.domains
  add column verification_deadline timestamptz,
  add column verification_checked_at timestamptz,
  add column verification_next_check_at timestamptz,
  add column verification_problem text
    check (verification_problem in ('txt_missing', 'txt_mismatch', 'host_not_pointing',
      'dns_error'));
comment on column public.domains.verification_deadline is
  'Until when a pending domain is retried; after it, the domain is failed.';
comment on column public.domains.verification_checked_at is 'When DNS was last asked.';
comment on column public.domains.verification_next_check_at is
  'When the verifier asks again (pending domains only).';
comment on column public.domains.verification_problem is
  'Why the last check did not pass: txt_missing, txt_mismatch, host_not_pointing, dns_error.';

create index domains_verification_due_idx on public.domains (verification_next_check_at)
  where verification_status = 'pending' and verification_next_check_at is not null;

-- Which domains the verifier looks at: the customer's own names, not ours and not vanity
-- subdomains of ours.
create function app.domain_needs_dns_verification(p_kind text, p_base_domain_id uuid)
returns boolean
language sql immutable security definer
set search_path = ''
as $$
  select p_kind in ('branded', 'organization') and p_base_domain_id is null
$$;

-- A new pending domain starts its window now, whatever the inserting caller sent.
-- Security definer: it reads the settings, which the inserting user may not.
create function app.start_domain_verification() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_window integer;
begin
  if new.verification_status = 'pending'
    and app.domain_needs_dns_verification(new.kind, new.base_domain_id) then
    select s.window_seconds into v_window from app.domain_verification_settings s;
    new.verification_deadline := now() + make_interval(secs => v_window);
    new.verification_next_check_at := now();
    new.verification_checked_at := null;
    new.verification_problem := null;
  elsif tg_op = 'INSERT' then
    new.verification_deadline := null;
    new.verification_next_check_at := null;
    new.verification_checked_at := null;
    new.verification_problem := null;
  end if;
  return new;
end;
$$;

create trigger domains_start_verification before insert on public.domains
  for each row execute function app.start_domain_verification();

-- The verification state is the verifier's (and staff's), as verification_status already is.
drop trigger domains_protect_columns on public.domains;
create trigger domains_protect_columns before update on public.domains
  for each row execute function app.protect_columns(
    'staff', 'id', 'domain', 'kind', 'account_id', 'base_domain_id', 'is_blocked',
    'require_email_verification', 'subscribed_only', 'allow_for_guests',
    'guest_can_use_custom_alias', 'verification_status', 'verification_token', 'verified_at',
    'verification_deadline', 'verification_checked_at', 'verification_next_check_at',
    'verification_problem'
  );

-- ---------------------------------------------------------------------------------------------
-- The worker's side (service role through the function's pool, which connects as postgres).

-- Takes up to p_limit due domains, moving their next check on by retry_seconds so that a run
-- that dies leaves them to a later one and two runs never ask for the same domain at once.
-- p_domain_id: that one domain, now, if it is pending (a "check now" from its owner).
create function app.claim_domain_checks(p_limit integer, p_domain_id uuid default null)
returns table (id uuid, domain text, verification_token text)
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_retry integer;
begin
  select s.retry_seconds into v_retry from app.domain_verification_settings s;
  return query
  update public.domains d
  set verification_next_check_at = now() + make_interval(secs => v_retry)
  where d.id in (
    select c.id from public.domains c
    where c.verification_status = 'pending'
      and not c.is_deleted
      and app.domain_needs_dns_verification(c.kind, c.base_domain_id)
      and (case when p_domain_id is null then c.verification_next_check_at <= now()
                else c.id = p_domain_id end)
    order by c.verification_next_check_at
    limit p_limit
    for update skip locked
  )
  returning d.id, d.domain::text, d.verification_token;
end;
$$;

-- One check's outcome: verified when it passed, failed when it did not and the deadline is
-- over, otherwise still pending with the reason. Answers the domain's status afterwards.
create function app.record_domain_check(p_domain_id uuid, p_passed boolean, p_problem text)
returns text
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_status text;
begin
  if not p_passed and p_problem is null then
    raise exception 'A check that did not pass needs a problem.' using errcode = '22023';
  end if;
  update public.domains d
  set verification_status = case
        when p_passed then 'verified'
        when now() >= d.verification_deadline then 'failed'
        else 'pending' end,
      verified_at = case when p_passed then now() end,
      verification_problem = case when p_passed then null else p_problem end,
      verification_checked_at = now(),
      verification_next_check_at = case
        when p_passed or now() >= d.verification_deadline then null
        else d.verification_next_check_at end
  where d.id = p_domain_id and d.verification_status = 'pending'
  returning d.verification_status into v_status;
  return v_status;
end;
$$;

-- What the cron job does: when a pending domain is due and the worker is configured, one
-- request wakes it (pg_net sends it after commit). Nothing is sent while nothing is due.
create function app.kick_domain_verification() returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_settings app.domain_verification_settings;
begin
  select * into v_settings from app.domain_verification_settings;
  if v_settings.verify_url is null or not exists (
    select 1 from public.domains d
    where d.verification_status = 'pending' and d.verification_next_check_at <= now()
      and not d.is_deleted
  ) then
    return null;
  end if;
  return net.http_post(
    url => v_settings.verify_url,
    body => '{}'::jsonb,
    headers => jsonb_build_object('Content-Type', 'application/json',
      'Authorization', 'Bearer ' || v_settings.verify_key),
    timeout_milliseconds => 60000);
end;
$$;

select cron.schedule('domain-verify', '5 seconds', $$select app.kick_domain_verification()$$);

-- ---------------------------------------------------------------------------------------------
-- The owner's side: start again after a failure (or to renew the window), with a fresh deadline.

create function public.restart_domain_verification(p_domain_id uuid)
returns public.domains
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_domain public.domains;
  v_window integer;
begin
  select * into v_domain from public.domains d
  where d.id = p_domain_id and not d.is_deleted
    and d.account_id in (select app.accounts_with_permission('domains'));
  if not found then
    perform app.link_error('domain_not_found');
  end if;
  if v_domain.verification_status = 'verified'
    or not app.domain_needs_dns_verification(v_domain.kind, v_domain.base_domain_id) then
    return v_domain;
  end if;
  select s.window_seconds into v_window from app.domain_verification_settings s;
  update public.domains d
  set verification_status = 'pending',
      verified_at = null,
      verification_deadline = now() + make_interval(secs => v_window),
      verification_next_check_at = now(),
      verification_problem = null
  where d.id = p_domain_id
  returning * into v_domain;
  return v_domain;
end;
$$;
comment on function public.restart_domain_verification(uuid) is
  'Puts a pending or failed domain of the caller''s back to pending with a fresh deadline.';

revoke execute on function app.start_domain_verification(),
  app.domain_needs_dns_verification(text, uuid),
  app.claim_domain_checks(integer, uuid), app.record_domain_check(uuid, boolean, text),
  app.kick_domain_verification(), public.restart_domain_verification(uuid) from public;
grant execute on function app.domain_needs_dns_verification(text, uuid) to authenticated,
  service_role;
grant execute on function public.restart_domain_verification(uuid) to authenticated;

-- Domains added before this migration start their window now.
update public.domains d
set verification_deadline = now() + interval '3 days', verification_next_check_at = now()
where d.verification_status = 'pending'
  and app.domain_needs_dns_verification(d.kind, d.base_domain_id);
