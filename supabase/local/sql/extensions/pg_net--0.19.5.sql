-- The local stack's stand-in for pg_net (https://github.com/supabase/pg_net), written from its
-- documented SQL API: net.http_get/http_post/http_delete queue a request in
-- net.http_request_queue and return its id; the stack's Node worker (supabase/local/src/net)
-- sends the committed ones and stores each answer in net._http_response under the same id. The
-- worker reaches loopback and the hosts listed in STACK_NET_ALLOWED_HOSTS only; it answers any
-- other host with an error_msg, as a failed request.

create schema net;

create domain net.http_method as text
  check (value ilike 'get' or value ilike 'post' or value ilike 'delete');

-- Unlogged, as pg_net's: requests and responses are transient.
create unlogged table net.http_request_queue (
  id bigserial,
  method net.http_method not null,
  url text not null,
  headers jsonb not null,
  body bytea,
  timeout_milliseconds integer not null
);

create unlogged table net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out boolean,
  error_msg text,
  created timestamptz not null default now()
);
create index on net._http_response (created);

-- The worker listens here: NOTIFY is delivered at commit, so it wakes for committed requests
-- only (it polls as well, in case a notification was missed while it reconnected).
create function net._wake_worker() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_catalog.pg_notify('pg_net_request', '');
  return null;
end;
$$;

create trigger http_request_queue_wake after insert on net.http_request_queue
  for each statement execute function net._wake_worker();

-- Percent-encodes everything but RFC 3986's unreserved characters, byte by byte (UTF-8).
create function net._urlencode_string(string varchar) returns text
language sql immutable strict
set search_path = ''
as $$
  select coalesce(string_agg(
    case
      when b between 48 and 57 or b between 65 and 90 or b between 97 and 122 or b in (45, 46, 95, 126)
        then chr(b)
      else '%' || upper(lpad(to_hex(b), 2, '0'))
    end, '' order by i), '')
  from (
    select i, get_byte(bytes, i) as b
    from (select convert_to(string, 'UTF8') as bytes) s,
      generate_series(0, length(convert_to(string, 'UTF8')) - 1) as i
  ) bytes;
$$;

create function net._encode_url_with_params_array(url text, params_array text[]) returns text
language sql immutable strict
set search_path = ''
as $$
  select case
    when cardinality(params_array) = 0 then url
    else url || case when position('?' in url) > 0 then '&' else '?' end
      || array_to_string(params_array, '&')
  end;
$$;

create function net._encode_params(params jsonb) returns text[]
language sql immutable
set search_path = ''
as $$
  select coalesce(array_agg(net._urlencode_string(key) || '=' || net._urlencode_string(value)), '{}')
  from jsonb_each_text(coalesce(params, '{}'::jsonb));
$$;

create function net._enqueue(
  p_method text, p_url text, p_params jsonb, p_headers jsonb, p_body bytea, p_timeout integer
) returns bigint
language plpgsql
set search_path = ''
as $$
declare
  v_id bigint;
begin
  if p_url is null then
    raise exception using errcode = '22004', message = 'url must not be null';
  end if;
  if p_timeout is null or p_timeout <= 0 then
    raise exception using errcode = '22023',
      message = format('timeout_milliseconds must be positive, got %s', coalesce(p_timeout::text, 'null'));
  end if;
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values (p_method, net._encode_url_with_params_array(p_url, net._encode_params(p_params)),
    coalesce(p_headers, '{}'::jsonb), p_body, p_timeout)
  returning id into v_id;
  return v_id;
end;
$$;

create function net.http_get(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds integer default 5000
) returns bigint
language sql volatile security definer
set search_path = ''
as $$
  select net._enqueue('GET', url, params, headers, null, timeout_milliseconds);
$$;

create function net.http_post(
  url text,
  body jsonb default '{}'::jsonb,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds integer default 5000
) returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if body is null then
    raise exception using errcode = '22004', message = 'body must not be null';
  end if;
  -- Headers given without a content type still send JSON, so they say so.
  if not exists (select 1 from jsonb_object_keys(coalesce(headers, '{}'::jsonb)) k where lower(k) = 'content-type') then
    headers := coalesce(headers, '{}'::jsonb) || '{"Content-Type": "application/json"}'::jsonb;
  end if;
  return net._enqueue('POST', url, params, headers, convert_to(body::text, 'UTF8'), timeout_milliseconds);
end;
$$;

create function net.http_delete(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds integer default 5000,
  body jsonb default null
) returns bigint
language sql volatile security definer
set search_path = ''
as $$
  select net._enqueue('DELETE', url, params, headers, convert_to(body::text, 'UTF8'), timeout_milliseconds);
$$;

-- On Supabase these are SECURITY DEFINER functions its event trigger grants widely; here only
-- the roles that run server-side work get them (a migration may grant more).
revoke all on function
  net.http_get(text, jsonb, jsonb, integer),
  net.http_post(text, jsonb, jsonb, jsonb, integer),
  net.http_delete(text, jsonb, jsonb, integer, jsonb),
  net._enqueue(text, text, jsonb, jsonb, bytea, integer)
  from public;
grant usage on schema net to postgres, service_role;
grant execute on function
  net.http_get(text, jsonb, jsonb, integer),
  net.http_post(text, jsonb, jsonb, jsonb, integer),
  net.http_delete(text, jsonb, jsonb, integer, jsonb)
  to postgres, service_role;
grant select on net._http_response to postgres, service_role;
