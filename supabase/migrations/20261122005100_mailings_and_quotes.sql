-- Two account pages of the shell (issue 13, item 5) that need rules in the database:
--
-- 1. The mailing opt-out behind `unsubscribe`. Every product e-mail carries a link with the
--    recipient's unsubscribe token; following it sets status flag 8 ("does not receive
--    mailings", profiles.status) without a login. The token is random (192 bits), one per
--    person, kept where no API reaches it; a mail sender asks app.mailing_unsubscribe_token for it.
--    A signed-in person changes the same flag on their own account.
-- 2. Enterprise quote requests behind `pricing/quote`: anyone may ask (limited per address and per
--    account), the asker reads their own, staff read and answer every one in the kiosk.

-- ---------------------------------------------------------------------------------------------
-- 1. Mailing opt-out.

create table app.mailing_tokens (
  user_id uuid primary key references auth.users (id) on delete cascade,
  token text not null unique default encode(extensions.gen_random_bytes(24), 'hex'),
  created_at timestamptz not null default now()
);
comment on table app.mailing_tokens is
  'The unsubscribe token each product e-mail carries, one per person (issue 13).';
alter table app.mailing_tokens enable row level security;
revoke all on app.mailing_tokens from public, anon, authenticated, service_role;

-- The person's token, made on first use. For mail senders (edge functions, the database's own).
create function app.mailing_unsubscribe_token(p_user_id uuid) returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_token text;
begin
  insert into app.mailing_tokens (user_id) values (p_user_id)
  on conflict (user_id) do nothing;
  select token into v_token from app.mailing_tokens where user_id = p_user_id;
  return v_token;
end;
$$;
revoke execute on function app.mailing_unsubscribe_token(uuid) from public;
grant execute on function app.mailing_unsubscribe_token(uuid) to service_role;

-- An address as the unsubscribe page may show it to whoever holds the link: enough for its
-- owner to recognise it, not enough to harvest it ("ad***@example.com").
create function app.masked_email(p_email text) returns text
language sql
immutable
security definer
set search_path = ''
as $$
  select case
    when p_email is null or position('@' in p_email) < 2 then '***'
    else left(p_email, least(2, position('@' in p_email) - 1)) || '***'
      || substr(p_email, position('@' in p_email))
  end
$$;
revoke execute on function app.masked_email(text) from public;

-- Receive product e-mails again (p_receive) or stop them, by the link of any product e-mail.
-- Answers the masked address and the state now, so the page can say what changed.
create function public.set_mailings_by_link(p_token text, p_receive boolean)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id uuid;
  v_email text;
begin
  if p_receive is null then
    raise exception using errcode = 'PT422', message = 'receive_required',
      detail = 'Say whether to receive product e-mails.', hint = 'receive';
  end if;
  if p_token is null or p_token !~ '^[0-9a-f]{48}$' then
    raise exception using errcode = 'PT404', message = 'unsubscribe_link_invalid',
      detail = 'This unsubscribe link is not valid. Copy the whole link from the e-mail, or log in and change it in your settings.',
      hint = 'token';
  end if;
  select t.user_id, u.email into v_user_id, v_email
  from app.mailing_tokens as t
  join auth.users as u on u.id = t.user_id
  where t.token = p_token;
  if v_user_id is null then
    raise exception using errcode = 'PT404', message = 'unsubscribe_link_invalid',
      detail = 'This unsubscribe link is not valid. Copy the whole link from the e-mail, or log in and change it in your settings.',
      hint = 'token';
  end if;
  update public.profiles
  set status = case when p_receive then status & ~8 else status | 8 end
  where id = v_user_id;
  return jsonb_build_object('email', app.masked_email(v_email), 'receives_mailings', p_receive);
end;
$$;
revoke execute on function public.set_mailings_by_link(text, boolean) from public;
grant execute on function public.set_mailings_by_link(text, boolean) to anon, authenticated;

-- The same flag on the caller's own account (profiles.status is otherwise staff-only).
create function public.set_my_mailings(p_receive boolean) returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id uuid := (select auth.uid());
begin
  if v_user_id is null then
    raise exception using errcode = 'PT403', message = 'login_required',
      detail = 'Log in to change your e-mail settings.';
  end if;
  if p_receive is null then
    raise exception using errcode = 'PT422', message = 'receive_required',
      detail = 'Say whether to receive product e-mails.', hint = 'receive';
  end if;
  update public.profiles
  set status = case when p_receive then status & ~8 else status | 8 end
  where id = v_user_id;
  return p_receive;
end;
$$;
revoke execute on function public.set_my_mailings(boolean) from public, anon;
grant execute on function public.set_my_mailings(boolean) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- 2. Enterprise quote requests.

create table public.quote_requests (
  id uuid primary key default gen_random_uuid(),
  -- The signed-in asker, if any: they see their own requests.
  user_id uuid references auth.users (id) on delete set null,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  email text not null check (
    char_length(email) <= 254 and email ~ '^[^@\s]+@[^@\s]+\.[^@\s.]+$'
  ),
  company text check (company is null or char_length(btrim(company)) between 1 and 200),
  links_per_month integer not null check (links_per_month between 1 and 1000000000),
  team_size integer not null check (team_size between 1 and 1000000),
  message text check (message is null or char_length(message) <= 5000),
  state text not null default 'new' check (state in ('new', 'answered', 'closed')),
  -- Staff's own note (kiosk), never shown to the asker.
  staff_note text check (staff_note is null or char_length(staff_note) <= 5000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.quote_requests is
  'Enterprise quote requests from pricing/quote; answered by staff in the kiosk.';
create index quote_requests_user_id_idx on public.quote_requests (user_id);
create index quote_requests_open_idx on public.quote_requests (created_at desc) where state = 'new';

alter table public.quote_requests enable row level security;
revoke all on public.quote_requests from anon, authenticated;
grant select on public.quote_requests to authenticated;
grant update (state, staff_note) on public.quote_requests to authenticated;

create policy "Askers can read their own quote requests" on public.quote_requests
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Staff can read every quote request" on public.quote_requests
  for select to authenticated using ((select app.is_staff()));
create policy "Staff can answer quote requests" on public.quote_requests
  for update to authenticated using ((select app.is_staff())) with check ((select app.is_staff()));

create trigger quote_requests_touch before update on public.quote_requests
  for each row execute function app.touch_updated_at();

-- Asks for a quote. Anyone may, five times an hour per address and per account: enough for a
-- person who mistyped, too few to fill the staff's queue.
create function public.request_quote(
  p_name text,
  p_email text,
  p_company text,
  p_links_per_month integer,
  p_team_size integer,
  p_message text
) returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id uuid := (select auth.uid());
  v_retry integer;
  v_id uuid;
begin
  if char_length(btrim(coalesce(p_name, ''))) not between 1 and 100 then
    raise exception using errcode = 'PT422', message = 'name_invalid',
      detail = 'Enter your name (at most 100 characters).', hint = 'name';
  end if;
  if p_email is null or char_length(btrim(p_email)) > 254
    or btrim(p_email) !~ '^[^@\s]+@[^@\s]+\.[^@\s.]+$' then
    raise exception using errcode = 'PT422', message = 'email_invalid',
      detail = 'Enter a valid e-mail address.', hint = 'email';
  end if;
  if char_length(btrim(coalesce(p_company, ''))) > 200 then
    raise exception using errcode = 'PT422', message = 'company_invalid',
      detail = 'The company name may have at most 200 characters.', hint = 'company';
  end if;
  if p_links_per_month is null or p_links_per_month not between 1 and 1000000000 then
    raise exception using errcode = 'PT422', message = 'links_per_month_invalid',
      detail = 'Enter how many links you make a month (1 to 1,000,000,000).',
      hint = 'links_per_month';
  end if;
  if p_team_size is null or p_team_size not between 1 and 1000000 then
    raise exception using errcode = 'PT422', message = 'team_size_invalid',
      detail = 'Enter how many people will use it (1 to 1,000,000).', hint = 'team_size';
  end if;
  if char_length(coalesce(p_message, '')) > 5000 then
    raise exception using errcode = 'PT422', message = 'message_invalid',
      detail = 'The message may have at most 5,000 characters.', hint = 'message';
  end if;
  -- Counted once the request is valid: a mistyped field costs the person nothing.
  v_retry := app.hit_rate_limit(
    'quote_request:' || coalesce(v_user_id::text, host(app.request_ip()), 'unknown'),
    5, interval '1 hour');
  if v_retry > 0 then
    raise exception using errcode = 'PT429', message = 'too_many_attempts',
      detail = 'Too Many Attempts.', hint = v_retry::text;
  end if;
  insert into public.quote_requests (
    user_id, name, email, company, links_per_month, team_size, message
  ) values (
    v_user_id, btrim(p_name), lower(btrim(p_email)), nullif(btrim(coalesce(p_company, '')), ''),
    p_links_per_month, p_team_size, nullif(btrim(coalesce(p_message, '')), '')
  )
  returning id into v_id;
  return v_id;
end;
$$;
revoke execute on function public.request_quote(text, text, text, integer, integer, text)
  from public;
grant execute on function public.request_quote(text, text, text, integer, integer, text)
  to anon, authenticated;
