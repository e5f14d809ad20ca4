-- Outgoing webhooks for customers (plan feature `webhooks`, Enterprise): an account (person, team
-- or organization) registers endpoints; the database turns what happens to its links, bulk jobs,
-- domains and clicks into events, one delivery per subscribed endpoint, queued in pgmq; the
-- `webhook-deliver` edge function, kicked by Supabase Cron through pg_net, sends them signed the
-- Standard Webhooks way and writes every attempt back. Failed deliveries wait on the queue's
-- visibility timeout, growing exponentially; the last failure disables the endpoint and tells the
-- account's owner (the bell's notifications).
--
-- Why an edge function rather than pg_net alone: latency and the exact transport error of each
-- attempt are only known to the sender, the signature uses the `standardwebhooks` library the
-- receivers verify with, and a delivery run can fan out many requests at once. It runs unchanged
-- on hosted Supabase: SUPABASE_DB_URL, cron, pg_net and pgmq are all there.

-- ---------------------------------------------------------------------------------------------
-- Settings, one row. Production keeps the defaults and sets where the worker is
-- (deliver_url: https://<ref>.supabase.co/functions/v1/webhook-deliver; deliver_key: the service
-- role key, which only postgres can read here). The local stack writes its own values at start
-- (supabase/local/src/webhook-settings.ts), including allow_private_destinations, which lets
-- endpoints on loopback and private addresses through for receivers on the developer's machine.

create table app.webhook_settings (
  id boolean primary key default true check (id),
  -- Development only: endpoints on internal addresses and names (loopback, private ranges,
  -- localhost) pass the destination rule. Off in production.
  allow_private_destinations boolean not null default false,
  deliver_url text,
  deliver_key text,
  -- Retry n (1-based) waits retry_base_seconds * 2^(n-1): 45 s doubling over 11 retries is
  -- about 25.6 hours before the 12th and last attempt fails the delivery.
  retry_base_seconds numeric not null default 45 check (retry_base_seconds > 0),
  max_attempts integer not null default 12 check (max_attempts between 1 and 30),
  -- Clicks are sent in batches: one `link.clicked` event per endpoint and flush, at most this
  -- many clicks each.
  click_batch_size integer not null default 500 check (click_batch_size between 1 and 10000)
);
insert into app.webhook_settings default values;
comment on table app.webhook_settings is
  'Outgoing webhooks: where the delivery worker is, retry schedule, development exception.';

create function app.webhook_setting() returns app.webhook_settings
language sql stable security definer
set search_path = ''
as $$
  select s from app.webhook_settings s
$$;

-- ---------------------------------------------------------------------------------------------
-- Endpoints.

create function app.webhook_event_types() returns text[]
language sql immutable security definer
set search_path = ''
as $$
  select array['link.created', 'link.updated', 'link.deleted', 'link.clicked', 'bulk.completed',
    'domain.verified']::text[]
$$;

-- The events check calls it as whoever writes the row.
grant execute on function app.webhook_event_types() to authenticated, service_role;

create table public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  url text not null check (char_length(url) between 1 and 2048),
  description text check (char_length(description) <= 255),
  events text[] not null
    constraint webhook_endpoints_events_valid
    check (cardinality(events) between 1 and 6 and events <@ app.webhook_event_types()),
  enabled boolean not null default true,
  -- Why the worker turned it off ('failing'), and when; cleared when someone enables it again.
  disabled_reason text check (disabled_reason in ('failing')),
  disabled_at timestamptz,
  created_by uuid references auth.users (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.webhook_endpoints is
  'Where an account''s webhook events go; the signing secret is in app.webhook_secrets.';
create index webhook_endpoints_account_id_idx on public.webhook_endpoints (account_id);
create index webhook_endpoints_enabled_idx on public.webhook_endpoints (account_id)
  where enabled;
create index webhook_endpoints_created_by_idx on public.webhook_endpoints (created_by);

-- The signing secrets, out of every API's reach: their owners read one through
-- public.webhook_endpoint_secret and replace it with public.rotate_webhook_secret; staff never see
-- them. `whsec_` + base64 of 24 random bytes (Standard Webhooks).
create table app.webhook_secrets (
  endpoint_id uuid primary key references public.webhook_endpoints (id) on delete cascade,
  secret text not null check (secret ~ '^whsec_[A-Za-z0-9+/]{32}$'),
  rotated_at timestamptz not null default now()
);

create function app.new_webhook_secret() returns text
language sql volatile security definer
set search_path = ''
as $$
  select 'whsec_' || encode(extensions.gen_random_bytes(24), 'base64')
$$;

create function app.create_webhook_secret() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into app.webhook_secrets (endpoint_id, secret) values (new.id, app.new_webhook_secret());
  return null;
end;
$$;

create trigger webhook_endpoints_create_secret after insert on public.webhook_endpoints
  for each row execute function app.create_webhook_secret();

-- The endpoint URL goes through the destination rule (app.judge_destination) and is stored in its
-- normalised form; only with allow_private_destinations (the local stack) may it name an internal
-- address or host, kept as written.
create function app.check_webhook_endpoint() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_verdict record;
begin
  if tg_op = 'INSERT' or new.url is distinct from old.url then
    select * into v_verdict from app.judge_destination(new.url);
    if v_verdict.code is null then
      new.url := v_verdict.url;
    elsif not (v_verdict.reason in ('internal_address', 'internal_host')
        and (app.webhook_setting()).allow_private_destinations) then
      perform app.link_error(v_verdict.code);
    end if;
  end if;
  select array_agg(distinct e order by e) into new.events from unnest(new.events) as e;
  if tg_op = 'UPDATE' then
    new.updated_at := now();
    if new.enabled and not old.enabled then
      new.disabled_reason := null;
      new.disabled_at := null;
    end if;
  end if;
  return new;
end;
$$;

create trigger webhook_endpoints_check before insert or update on public.webhook_endpoints
  for each row execute function app.check_webhook_endpoint();

-- ---------------------------------------------------------------------------------------------
-- Deliveries (one per event and endpoint) and their attempts.

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  -- The `webhook-id` header: the same for every attempt and replay of this delivery, so
  -- receivers can drop duplicates.
  message_id text not null unique
    default 'msg_' || replace(gen_random_uuid()::text, '-', ''),
  endpoint_id uuid not null references public.webhook_endpoints (id) on delete cascade,
  account_id uuid not null references public.accounts (id) on delete cascade,
  event_type text not null,
  -- The body as sent: {"type", "timestamp", "data"}.
  payload jsonb not null,
  status text not null default 'pending'
    check (status in ('pending', 'retrying', 'succeeded', 'failed')),
  -- Attempts of the current round (a replay starts a new round).
  attempts integer not null default 0,
  last_response_status integer,
  last_error text,
  next_attempt_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  delivered_at timestamptz
);
create index webhook_deliveries_endpoint_idx on public.webhook_deliveries
  (endpoint_id, created_at desc);
create index webhook_deliveries_account_idx on public.webhook_deliveries
  (account_id, created_at desc);

create table public.webhook_attempts (
  id bigint generated always as identity primary key,
  delivery_id uuid not null references public.webhook_deliveries (id) on delete cascade,
  endpoint_id uuid not null references public.webhook_endpoints (id) on delete cascade,
  account_id uuid not null references public.accounts (id) on delete cascade,
  attempted_at timestamptz not null default now(),
  succeeded boolean not null,
  response_status integer,
  latency_ms integer not null check (latency_ms >= 0),
  error text check (char_length(error) <= 1000)
);
create index webhook_attempts_delivery_idx on public.webhook_attempts (delivery_id, attempted_at);
create index webhook_attempts_endpoint_idx on public.webhook_attempts (endpoint_id, attempted_at desc);
create index webhook_attempts_account_idx on public.webhook_attempts (account_id, attempted_at desc);

select pgmq.create('webhook_deliveries');

-- Queues deliveries of one event type for these accounts' enabled, subscribed endpoints (the
-- plan must still have webhooks), each with its own payload data.
create function app.enqueue_webhook_events(p_type text, p_events jsonb)
returns integer
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_ids uuid[];
  v_count integer;
begin
  with events as (
    select (e ->> 'account_id')::uuid as account_id, e -> 'data' as data
    from jsonb_array_elements(p_events) as e
  ), targets as (
    select w.id, w.account_id
    from public.webhook_endpoints w
    where w.enabled and p_type = any (w.events)
      and w.account_id in (select account_id from events)
      and app.account_has_feature(w.account_id, 'webhooks')
  ), inserted as (
    insert into public.webhook_deliveries (endpoint_id, account_id, event_type, payload)
    select t.id, t.account_id, p_type, jsonb_build_object(
      'type', p_type,
      'timestamp', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'data', ev.data)
    from targets t join events ev on ev.account_id = t.account_id
    returning id
  )
  select array_agg(id) into v_ids from inserted;
  v_count := coalesce(cardinality(v_ids), 0);
  if v_count > 0 then
    perform pgmq.send_batch('webhook_deliveries',
      array(select jsonb_build_object('delivery_id', id) from unnest(v_ids) as id));
  end if;
  return v_count;
end;
$$;

-- A link as events carry it.
create function app.webhook_link_json(p_alias_id uuid) returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', a.id, 'domain', d.domain, 'alias', a.alias::text, 'url', l.url, 'status', a.status,
    'description', a.description, 'expires_at', a.expires_at, 'created_at', a.created_at,
    'updated_at', a.updated_at)
  from public.aliases a
  join public.long_urls l on l.id = a.long_url_id
  join public.domains d on d.id = a.domain_id
  where a.id = p_alias_id
$$;

-- Link events, per statement (bulk inserts make one pass). Skipped at once for accounts
-- without an enabled endpoint.
create function app.webhook_link_events() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform app.enqueue_webhook_events('link.created', jsonb_agg(jsonb_build_object(
      'account_id', n.account_id, 'data', app.webhook_link_json(n.id))))
    from new_rows n
    where n.account_id in (select account_id from public.webhook_endpoints where enabled)
    having count(*) > 0;
  elsif tg_op = 'UPDATE' then
    perform app.enqueue_webhook_events(kind, jsonb_agg(jsonb_build_object(
      'account_id', account_id, 'data', data)))
    from (
      select case when n.status = 'deleted' then 'link.deleted' else 'link.updated' end as kind,
        n.account_id, app.webhook_link_json(n.id) as data
      from new_rows n join old_rows o on o.id = n.id
      where n.account_id in (select account_id from public.webhook_endpoints where enabled)
        and o.status <> 'deleted'
        and (n.alias, n.status, n.expires_at, n.description, n.long_url_id, n.domain_id)
          is distinct from (o.alias, o.status, o.expires_at, o.description, o.long_url_id, o.domain_id)
    ) changed
    group by kind;
  else
    perform app.enqueue_webhook_events('link.deleted', jsonb_agg(jsonb_build_object(
      'account_id', o.account_id, 'data', jsonb_build_object('id', o.id, 'alias', o.alias::text,
        'status', 'deleted'))))
    from old_rows o
    where o.status <> 'deleted'
      and o.account_id in (select account_id from public.webhook_endpoints where enabled)
    having count(*) > 0;
  end if;
  return null;
end;
$$;

create trigger aliases_webhook_inserts after insert on public.aliases
  referencing new table as new_rows
  for each statement execute function app.webhook_link_events();
create trigger aliases_webhook_updates after update on public.aliases
  referencing new table as new_rows old table as old_rows
  for each statement execute function app.webhook_link_events();
create trigger aliases_webhook_deletes after delete on public.aliases
  referencing old table as old_rows
  for each statement execute function app.webhook_link_events();

-- A bulk job that finished (completed or failed).
create function app.webhook_bulk_events() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.status in ('completed', 'failed') and old.status is distinct from new.status then
    perform app.enqueue_webhook_events('bulk.completed', jsonb_build_array(jsonb_build_object(
      'account_id', new.account_id,
      'data', jsonb_build_object('id', new.id, 'status', new.status, 'file_name', new.file_name,
        'total', new.total, 'created', new.created, 'failed', new.total - new.created,
        'finished_at', new.finished_at))));
  end if;
  return null;
end;
$$;

create trigger bulk_jobs_webhook after update of status on public.bulk_jobs
  for each row execute function app.webhook_bulk_events();

-- A customer's domain whose verification passed.
create function app.webhook_domain_events() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.account_id is not null and new.verification_status = 'verified'
    and old.verification_status is distinct from 'verified' then
    perform app.enqueue_webhook_events('domain.verified', jsonb_build_array(jsonb_build_object(
      'account_id', new.account_id,
      'data', jsonb_build_object('id', new.id, 'domain', new.domain,
        'verified_at', new.verified_at))));
  end if;
  return null;
end;
$$;

create trigger domains_webhook after update of verification_status on public.domains
  for each row execute function app.webhook_domain_events();

-- Clicks: the redirect writes them in batches; those of accounts with a `link.clicked` endpoint
-- wait here, per endpoint, until the next flush (cron job webhook-flush-clicks) sends them as
-- one event.
create table app.webhook_click_buffer (
  id bigint generated always as identity primary key,
  endpoint_id uuid not null references public.webhook_endpoints (id) on delete cascade,
  account_id uuid not null,
  click jsonb not null
);
create index webhook_click_buffer_endpoint_idx on app.webhook_click_buffer (endpoint_id, id);

create function app.webhook_buffer_clicks() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into app.webhook_click_buffer (endpoint_id, account_id, click)
  select w.id, w.account_id, jsonb_build_object('link_id', c.alias_id, 'time', c.time,
    'country', c.country, 'device', c.device, 'browser', c.browser, 'os', c.os,
    'referrer_host', c.referrer_host, 'is_bot', c.is_bot, 'is_qr', c.is_qr)
  from new_rows c
  join public.webhook_endpoints w on w.account_id = c.account_id
  where w.enabled and 'link.clicked' = any (w.events);
  return null;
end;
$$;

create trigger clicks_webhook after insert on public.clicks
  referencing new table as new_rows
  for each statement execute function app.webhook_buffer_clicks();

-- Sends the buffered clicks: one `link.clicked` delivery per endpoint and batch of at most
-- click_batch_size clicks. Returns the number of deliveries queued.
create function app.flush_webhook_clicks() returns integer
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_batch integer := (app.webhook_setting()).click_batch_size;
  v_ids uuid[];
begin
  with taken as (
    delete from app.webhook_click_buffer returning *
  ), batches as (
    select t.endpoint_id, t.account_id, (row_number() over w - 1) / v_batch as n, t.id, t.click
    from taken t
    window w as (partition by t.endpoint_id order by t.id)
  ), grouped as (
    select b.endpoint_id, b.account_id, jsonb_agg(b.click order by b.id) as clicks
    from batches b
    group by b.endpoint_id, b.account_id, b.n
  ), inserted as (
    insert into public.webhook_deliveries (endpoint_id, account_id, event_type, payload)
    select g.endpoint_id, g.account_id, 'link.clicked', jsonb_build_object(
      'type', 'link.clicked',
      'timestamp', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'data', jsonb_build_object('count', jsonb_array_length(g.clicks), 'clicks', g.clicks))
    from grouped g
    join public.webhook_endpoints w on w.id = g.endpoint_id
    where w.enabled and app.account_has_feature(w.account_id, 'webhooks')
    returning id
  )
  select array_agg(id) into v_ids from inserted;
  if v_ids is not null then
    perform pgmq.send_batch('webhook_deliveries',
      array(select jsonb_build_object('delivery_id', id) from unnest(v_ids) as id));
  end if;
  return coalesce(cardinality(v_ids), 0);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- The worker's side (webhook-deliver, connected as postgres through SUPABASE_DB_URL).

-- Takes up to p_count due deliveries off the queue, hidden for p_vt seconds (a worker that dies
-- mid-way leaves them to the next run). Messages of deliveries that are gone, done, or whose
-- endpoint is disabled are dropped.
create function app.claim_webhook_deliveries(p_count integer, p_vt integer default 60)
returns table (
  queue_message_id bigint, delivery_id uuid, message_id text, url text, secret text,
  body text, attempts integer
)
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_messages bigint[];
  v_deliveries uuid[];
  v_dropped bigint[];
begin
  select array_agg(m.msg_id order by m.msg_id),
    array_agg((m.message ->> 'delivery_id')::uuid order by m.msg_id)
  into v_messages, v_deliveries
  from pgmq.read('webhook_deliveries', p_vt, p_count) as m;
  if v_messages is null then
    return;
  end if;

  select array_agg(c.queue_message_id) into v_dropped
  from unnest(v_messages, v_deliveries) as c(queue_message_id, delivery_id)
  left join public.webhook_deliveries d on d.id = c.delivery_id
  left join public.webhook_endpoints w on w.id = d.endpoint_id
  where d.id is null or d.status in ('succeeded', 'failed') or not coalesce(w.enabled, false);
  if v_dropped is not null then
    perform pgmq.delete('webhook_deliveries', v_dropped);
  end if;

  return query
  select c.queue_message_id, d.id, d.message_id, w.url, s.secret, d.payload::text, d.attempts
  from unnest(v_messages, v_deliveries) as c(queue_message_id, delivery_id)
  join public.webhook_deliveries d on d.id = c.delivery_id
  join public.webhook_endpoints w on w.id = d.endpoint_id
  join app.webhook_secrets s on s.endpoint_id = w.id
  where c.queue_message_id <> all (coalesce(v_dropped, '{}'))
  order by c.queue_message_id;
end;
$$;

-- Writes what each attempt gave (a JSON array of {queue_message_id, delivery_id, status,
-- latency_ms, error, attempted_at}): success ends the delivery; a failure waits
-- retry_base_seconds * 2^(attempts-1) on the queue, and the last allowed one fails the delivery,
-- disables the endpoint and tells the account's owner.
create function app.record_webhook_attempts(p_attempts jsonb) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_settings app.webhook_settings := app.webhook_setting();
  v_attempt record;
  v_delivery public.webhook_deliveries;
  v_succeeded boolean;
  v_delay numeric;
  v_endpoint public.webhook_endpoints;
begin
  for v_attempt in
    select * from jsonb_to_recordset(p_attempts) as a(
      queue_message_id bigint, delivery_id uuid, status integer, latency_ms integer,
      error text, attempted_at timestamptz)
  loop
    v_succeeded := v_attempt.status between 200 and 299;
    update public.webhook_deliveries d
    set attempts = d.attempts + 1,
      last_response_status = v_attempt.status,
      last_error = left(v_attempt.error, 1000),
      status = case
        when v_succeeded then 'succeeded'
        when d.attempts + 1 >= v_settings.max_attempts then 'failed'
        else 'retrying' end,
      delivered_at = case when v_succeeded then now() else d.delivered_at end
    where d.id = v_attempt.delivery_id
    returning * into v_delivery;
    if v_delivery.id is null then
      perform pgmq.delete('webhook_deliveries', v_attempt.queue_message_id);
      continue;
    end if;
    insert into public.webhook_attempts (delivery_id, endpoint_id, account_id, attempted_at,
      succeeded, response_status, latency_ms, error)
    values (v_delivery.id, v_delivery.endpoint_id, v_delivery.account_id,
      coalesce(v_attempt.attempted_at, now()), v_succeeded, v_attempt.status,
      greatest(coalesce(v_attempt.latency_ms, 0), 0), left(v_attempt.error, 1000));

    if v_delivery.status = 'retrying' then
      v_delay := v_settings.retry_base_seconds * power(2, v_delivery.attempts - 1);
      update public.webhook_deliveries
      set next_attempt_at = now() + make_interval(secs => v_delay::double precision)
      where id = v_delivery.id;
      -- pgmq.set_vt takes whole seconds; the queue table takes the fractions a short test base
      -- needs (the same table on hosted pgmq).
      update pgmq.q_webhook_deliveries q
      set vt = clock_timestamp() + make_interval(secs => v_delay::double precision)
      where q.msg_id = v_attempt.queue_message_id;
    else
      perform pgmq.delete('webhook_deliveries', v_attempt.queue_message_id);
    end if;

    if v_delivery.status = 'failed' then
      update public.webhook_endpoints w
      set enabled = false, disabled_reason = 'failing', disabled_at = now()
      where w.id = v_delivery.endpoint_id and w.enabled
      returning * into v_endpoint;
      if v_endpoint.id is not null then
        insert into public.notifications (user_id, account_id, type, title, body, data)
        select a.owner_id, a.id, 'webhook.endpoint_disabled', 'Webhook endpoint disabled',
          format('Deliveries to %s failed %s times in a row, so the endpoint was disabled. '
            'Fix it, then enable it again in Settings > Webhooks.', v_endpoint.url,
            v_settings.max_attempts),
          jsonb_build_object('endpoint_id', v_endpoint.id, 'url', v_endpoint.url,
            'delivery_id', v_delivery.id)
        from public.accounts a where a.id = v_endpoint.account_id;
      end if;
    end if;
  end loop;
end;
$$;

-- What the cron job does every second: when deliveries are due and the worker is configured,
-- one request wakes it (pg_net sends it after commit). Nothing is sent while the queue is idle.
create function app.kick_webhook_delivery() returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_settings app.webhook_settings := app.webhook_setting();
begin
  if v_settings.deliver_url is null
    or not exists (select 1 from pgmq.q_webhook_deliveries q where q.vt <= now()) then
    return null;
  end if;
  return net.http_post(
    url => v_settings.deliver_url,
    body => '{}'::jsonb,
    headers => jsonb_build_object('Content-Type', 'application/json',
      'Authorization', 'Bearer ' || v_settings.deliver_key),
    timeout_milliseconds => 60000);
end;
$$;

select cron.schedule('webhook-deliver', '1 seconds', $$select app.kick_webhook_delivery()$$);
select cron.schedule('webhook-flush-clicks', '10 seconds', $$select app.flush_webhook_clicks()$$);

-- ---------------------------------------------------------------------------------------------
-- What account managers do (settings permission, plan with webhooks).

create function app.require_webhook_endpoint(p_endpoint_id uuid) returns public.webhook_endpoints
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_endpoint public.webhook_endpoints;
begin
  select * into v_endpoint from public.webhook_endpoints w
  where w.id = p_endpoint_id
    and w.account_id in (select app.accounts_with_permission_and_feature('settings', 'webhooks'));
  if v_endpoint.id is null then
    raise exception 'webhook_endpoint_not_found'
      using errcode = 'PT404', detail = 'Webhook endpoint not found.';
  end if;
  return v_endpoint;
end;
$$;

create function public.webhook_endpoint_secret(p_endpoint_id uuid) returns text
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform app.require_webhook_endpoint(p_endpoint_id);
  return (select s.secret from app.webhook_secrets s where s.endpoint_id = p_endpoint_id);
end;
$$;
comment on function public.webhook_endpoint_secret(uuid) is
  'The signing secret of an endpoint the caller manages.';

create function public.rotate_webhook_secret(p_endpoint_id uuid) returns text
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_secret text := app.new_webhook_secret();
begin
  perform app.require_webhook_endpoint(p_endpoint_id);
  update app.webhook_secrets set secret = v_secret, rotated_at = now()
  where endpoint_id = p_endpoint_id;
  return v_secret;
end;
$$;
comment on function public.rotate_webhook_secret(uuid) is
  'Replaces an endpoint''s signing secret; deliveries from now on are signed with the new one.';

-- Queues a `webhook.test` event for one enabled endpoint. Returns the delivery.
create function public.send_test_webhook(p_endpoint_id uuid) returns public.webhook_deliveries
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_endpoint public.webhook_endpoints := app.require_webhook_endpoint(p_endpoint_id);
  v_delivery public.webhook_deliveries;
begin
  insert into public.webhook_deliveries (endpoint_id, account_id, event_type, payload)
  values (v_endpoint.id, v_endpoint.account_id, 'webhook.test', jsonb_build_object(
    'type', 'webhook.test',
    'timestamp', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'data', jsonb_build_object('endpoint_id', v_endpoint.id,
      'message', 'A test event from Shortlane.')))
  returning * into v_delivery;
  perform app.queue_webhook_delivery(v_delivery.id, v_endpoint.enabled);
  return v_delivery;
end;
$$;

-- Queues one delivery for the worker; refused while its endpoint is disabled (the worker drops
-- those messages).
create function app.queue_webhook_delivery(p_delivery_id uuid, p_endpoint_enabled boolean)
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if not p_endpoint_enabled then
    raise exception 'webhook_endpoint_disabled'
      using errcode = 'PT409', detail = 'Enable the endpoint first.';
  end if;
  perform pgmq.send('webhook_deliveries', jsonb_build_object('delivery_id', p_delivery_id));
end;
$$;

-- Sends a delivery again with the same `webhook-id` and body (a new round of attempts).
create function public.replay_webhook_delivery(p_delivery_id uuid) returns public.webhook_deliveries
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_delivery public.webhook_deliveries;
  v_endpoint public.webhook_endpoints;
begin
  select * into v_delivery from public.webhook_deliveries d where d.id = p_delivery_id;
  if v_delivery.id is null then
    raise exception 'webhook_delivery_not_found'
      using errcode = 'PT404', detail = 'Delivery not found.';
  end if;
  v_endpoint := app.require_webhook_endpoint(v_delivery.endpoint_id);
  update public.webhook_deliveries
  set status = 'pending', attempts = 0, next_attempt_at = now()
  where id = v_delivery.id
  returning * into v_delivery;
  perform app.queue_webhook_delivery(v_delivery.id, v_endpoint.enabled);
  return v_delivery;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Row-level security: managers of an account (settings permission) whose plan has webhooks
-- manage its endpoints and read its deliveries; staff read everything but the secrets.

alter table public.webhook_endpoints enable row level security;
alter table public.webhook_deliveries enable row level security;
alter table public.webhook_attempts enable row level security;

create policy "Account managers can read their webhook endpoints" on public.webhook_endpoints
  for select to authenticated
  using (account_id in (select app.accounts_with_permission_and_feature('settings', 'webhooks')));
create policy "Staff can read every webhook endpoint" on public.webhook_endpoints
  for select to authenticated
  using ((select app.is_staff()));
create policy "Account managers can add webhook endpoints" on public.webhook_endpoints
  for insert to authenticated
  with check (account_id in (select app.accounts_with_permission_and_feature('settings', 'webhooks')));
create policy "Account managers can change their webhook endpoints" on public.webhook_endpoints
  for update to authenticated
  using (account_id in (select app.accounts_with_permission_and_feature('settings', 'webhooks')))
  with check (account_id in (select app.accounts_with_permission_and_feature('settings', 'webhooks')));
create policy "Account managers can delete their webhook endpoints" on public.webhook_endpoints
  for delete to authenticated
  using (account_id in (select app.accounts_with_permission_and_feature('settings', 'webhooks')));

create policy "Account managers can read their webhook deliveries" on public.webhook_deliveries
  for select to authenticated
  using (account_id in (select app.accounts_with_permission_and_feature('settings', 'webhooks')));
create policy "Staff can read every webhook delivery" on public.webhook_deliveries
  for select to authenticated
  using ((select app.is_staff()));
create policy "Account managers can read their webhook attempts" on public.webhook_attempts
  for select to authenticated
  using (account_id in (select app.accounts_with_permission_and_feature('settings', 'webhooks')));
create policy "Staff can read every webhook attempt" on public.webhook_attempts
  for select to authenticated
  using ((select app.is_staff()));

revoke all on public.webhook_endpoints, public.webhook_deliveries, public.webhook_attempts
  from anon, authenticated;
grant select, delete on public.webhook_endpoints to authenticated;
grant insert (account_id, url, description, events, enabled) on public.webhook_endpoints
  to authenticated;
grant update (url, description, events, enabled) on public.webhook_endpoints to authenticated;
grant select on public.webhook_deliveries, public.webhook_attempts to authenticated;
grant select, insert, update, delete on public.webhook_endpoints, public.webhook_deliveries,
  public.webhook_attempts to service_role;

revoke all on function public.webhook_endpoint_secret(uuid), public.rotate_webhook_secret(uuid),
  public.send_test_webhook(uuid), public.replay_webhook_delivery(uuid) from public, anon;
grant execute on function public.webhook_endpoint_secret(uuid), public.rotate_webhook_secret(uuid),
  public.send_test_webhook(uuid), public.replay_webhook_delivery(uuid) to authenticated,
  service_role;

-- Functions are executable by PUBLIC by default (per-schema default privileges cannot take
-- that away): only the grants above apply.
revoke execute on all functions in schema app from public;
