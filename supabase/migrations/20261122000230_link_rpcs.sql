-- The link RPCs: create_link, update_link, archive_link, delete_link, remove_link_tag,
-- search_links, and the API token ones (create_api_token, app.authenticate_api_token).
--
-- Why security definer: aliases, long URLs and tags have no write policies for API users, so
-- the create form's rules (domain selectability, plan features, limits, credits, alias and tag
-- formats) cannot be skipped by writing the tables directly; these functions are the only way
-- in, and they check the caller's permissions themselves through app.has_permission. They run
-- with search_path '' and name every object with its schema. search_links is security invoker:
-- it only reads, so row-level security does the filtering.
--
-- Guests (no auth.uid()) create links only through the service role: the edge function checks
-- the anti-robot token first, which the database cannot. create_link is therefore not granted
-- to anon.

-- ---------------------------------------------------------------------------------------------
-- Building blocks.

-- A destination URL: present, well formed, http or https, not banned, not one of our own short
-- domains (a short link to a short link loops). Returns it trimmed.
create function app.check_destination(p_url text) returns text
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_url text := btrim(p_url);
  v_scheme text;
  v_host text;
begin
  if v_url is null or v_url = '' then
    perform app.link_error('url_required');
  end if;
  v_scheme := lower(substring(v_url from '^([A-Za-z][A-Za-z0-9+.-]*):'));
  if v_scheme is null or char_length(v_url) > 2048 or v_url ~ '\s' then
    perform app.link_error('url_invalid');
  end if;
  if v_scheme not in ('http', 'https') then
    perform app.link_error('url_not_allowed');
  end if;
  -- scheme://[userinfo@]host[:port][/path][?query][#fragment]
  v_host := substring(v_url from '^[A-Za-z]+://(?:[^/?#@]*@)?([^/?#:]+)(?::[0-9]{1,5})?(?:[/?#]|$)');
  v_host := rtrim(lower(v_host), '.');
  if v_host is null or not (
    v_host ~ '^([a-z0-9\u00a1-\uffff]([a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?\.)+([a-z\u00a1-\uffff]{2,63}|xn--[a-z0-9-]{1,59})$'
    or v_host ~ '^((25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])$'
  ) then
    perform app.link_error('url_invalid');
  end if;
  if app.is_domain_banned(v_host) then
    perform app.link_error('url_banned');
  end if;
  if exists (select 1 from public.domains d where d.domain = v_host) then
    perform app.link_error('url_not_allowed');
  end if;
  return v_url;
end;
$$;

-- An alias the user typed: format, reserved words and uniqueness on the domain (p_except: the
-- link being renamed). p_random: the edge function's random draw, whose collision is reported
-- as a retryable 409. The comparisons name citext's operator: with an empty search_path a bare
-- `=` would resolve to text equality and compare case-sensitively.
create function app.check_alias(
  p_alias text, p_domain_id uuid, p_random boolean, p_except uuid default null
) returns text
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if p_alias is null or p_alias !~ '^[A-Za-z0-9_-]{1,50}$'
    or (p_random and p_alias !~ '^[a-z0-9]{6,12}$') then
    perform app.link_error('alias_invalid');
  end if;
  if exists (
    select 1 from public.reserved_aliases r
    where r.alias operator(extensions.=) p_alias::extensions.citext
  ) then
    perform app.link_error(case when p_random then 'random_alias_taken' else 'alias_reserved' end);
  end if;
  if exists (
    select 1 from public.aliases a
    where a.domain_id = p_domain_id and a.alias operator(extensions.=) p_alias::extensions.citext
      and a.id is distinct from p_except
  ) then
    perform app.link_error(case when p_random then 'random_alias_taken' else 'alias_taken' end);
  end if;
  return p_alias;
end;
$$;

-- Eight characters of [a-z0-9] from a secure source.
create function app.random_alias() returns text
language sql volatile security definer
set search_path = ''
as $$
  select string_agg(
    substr('abcdefghijklmnopqrstuvwxyz0123456789', 1 + get_byte(r.bytes, i) % 36, 1), ''
    order by i)
  from (select extensions.gen_random_bytes(8) as bytes) as r
  cross join generate_series(0, 7) as i
$$;

-- Whether a signed-in user may type their own alias: unverified users without a subscription
-- must verify first; everyone else needs the plan's use_custom_alias.
create function app.check_custom_alias_allowed(p_user_id uuid, p_feature_account_id uuid)
returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not app.is_verified(p_user_id) and not app.is_subscribed(p_user_id) then
    perform app.link_error('email_verification', 'alias');
  end if;
  if not app.account_has_feature(p_feature_account_id, 'use_custom_alias') then
    perform app.link_error('custom_alias_not_allowed');
  end if;
end;
$$;

-- Tags as the form sends them: lower-cased, spaces removed, empty ones dropped; each 2 to 45
-- characters and unique, with errors naming the index (tags.N, 0-based as the form's fields).
create function app.normalize_tags(p_tags text[]) returns text[]
language plpgsql immutable security definer
set search_path = ''
as $$
declare
  v_tag text;
  v_index integer := -1;
  v_result text[] := '{}';
begin
  foreach v_tag in array coalesce(p_tags, '{}') loop
    v_index := v_index + 1;
    v_tag := lower(regexp_replace(coalesce(v_tag, ''), '\s', '', 'g'));
    continue when v_tag = '';
    if char_length(v_tag) < 2 then
      perform app.link_error('tag_too_short', 'tags.' || v_index);
    elsif char_length(v_tag) > 45 then
      perform app.link_error('tag_too_long', 'tags.' || v_index);
    elsif v_tag = any (v_result) then
      perform app.link_error('tag_duplicate', 'tags.' || v_index);
    end if;
    v_result := v_result || v_tag;
  end loop;
  return v_result;
end;
$$;

-- An expiry from the form: only with the plan's manage_expiration; at least 5 minutes ahead
-- (compared to the minute, as the date picker does) and at most 5 years.
create function app.check_expiry(p_expires_at timestamptz, p_feature_account_id uuid)
returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if p_feature_account_id is null
    or not app.account_has_feature(p_feature_account_id, 'manage_expiration') then
    perform app.link_error('expiry_not_allowed');
  end if;
  if date_trunc('minute', p_expires_at) < date_trunc('minute', now() + interval '5 minutes') then
    perform app.link_error('expiry_too_soon');
  end if;
  if p_expires_at > now() + interval '5 years' then
    perform app.link_error('expiry_too_far');
  end if;
end;
$$;

-- A description from the form: organization mode only, at most 1000 characters. Returns it
-- trimmed, or null for an empty one.
create function app.check_description(p_description text, p_organization_mode boolean)
returns text
language plpgsql immutable security definer
set search_path = ''
as $$
declare
  v_description text := nullif(btrim(p_description), '');
begin
  if v_description is not null and not p_organization_mode then
    perform app.link_error('description_not_allowed');
  end if;
  if char_length(v_description) > 1000 then
    perform app.link_error('description_too_long');
  end if;
  return v_description;
end;
$$;

-- The account whose plan features gate a link: the organization's for a personal link made in
-- organization mode, otherwise the link's own account (a team inside an organization inherits
-- the organization's features in app.account_has_feature).
create function app.feature_account_id(p_account_id uuid, p_organization_id uuid) returns uuid
language sql stable security definer
set search_path = ''
as $$
  select case
    when p_organization_id is not null and exists (
      select 1 from public.accounts a where a.id = p_account_id and a.kind = 'personal'
    ) then (select o.account_id from public.organizations o where o.id = p_organization_id)
    else p_account_id
  end
$$;

-- Plan limits on creating (or reviving) a link in an account: active aliases (unless overage is
-- on for it), aliases this month, branded aliases this month, aliases in total. Counted live
-- under a per-account lock so that concurrent creates cannot overshoot.
create function app.check_link_limits(p_account_id uuid, p_branded boolean, p_new boolean)
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_active_limit bigint := app.account_limit(p_account_id, 'max_active_aliases');
  v_monthly_limit bigint := case when p_new then app.account_limit(p_account_id, 'max_aliases_per_month') end;
  v_branded_limit bigint := case when p_new and p_branded
    then app.account_limit(p_account_id, 'max_branded_aliases_per_month') end;
  v_total_limit bigint := case when p_new then app.account_limit(p_account_id, 'max_aliases') end;
  v_month_start timestamptz := date_trunc('month', now(), 'UTC');
  v_counts record;
begin
  if v_active_limit is null and v_monthly_limit is null and v_branded_limit is null
    and v_total_limit is null then
    return;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('links:' || p_account_id::text, 0));
  if exists (
    select 1 from public.account_usage u
    where u.account_id = p_account_id and u.name = 'max_active_aliases' and u.overage_enabled
  ) then
    v_active_limit := null;
  end if;
  select
    count(*) filter (where app.alias_is_active(a.status)
      and (a.expires_at is null or a.expires_at > now())) as active,
    count(*) filter (where a.created_at >= v_month_start) as monthly,
    count(*) filter (where a.created_at >= v_month_start and d.kind <> 'common') as branded,
    count(*) as total
  into v_counts
  from public.aliases a
  join public.domains d on d.id = a.domain_id
  where a.account_id = p_account_id;
  if v_counts.active >= v_active_limit or v_counts.monthly >= v_monthly_limit
    or v_counts.branded >= v_branded_limit or v_counts.total >= v_total_limit then
    perform app.link_error('plan_limit_reached');
  end if;
end;
$$;

-- Spends an operation's web credits when the account has a credit limit: the remaining credits
-- (limit minus used) must cover the cost. The spend is recorded in account_usage.
create function app.spend_credits(p_account_id uuid, p_operation text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_cost integer := (select c.credits from public.operation_costs c where c.operation = p_operation);
  v_limit bigint := app.account_limit(p_account_id, 'max_web_credits');
  v_used bigint;
begin
  if v_cost is null then
    raise exception 'spend_credits: unknown operation "%"', p_operation using errcode = '22023';
  end if;
  if v_limit is null or v_cost = 0 then
    return;
  end if;
  insert into public.account_usage (account_id, name) values (p_account_id, 'max_web_credits')
  on conflict (account_id, name) do nothing;
  select u.used into v_used from public.account_usage u
  where u.account_id = p_account_id and u.name = 'max_web_credits'
  for update;
  if v_limit - v_used < v_cost then
    perform app.link_error('not_enough_credits');
  end if;
  update public.account_usage set used = used + v_cost
  where account_id = p_account_id and name = 'max_web_credits';
end;
$$;

-- The long URL row of a destination in an account, created on first use. A destination staff
-- terminated cannot be linked to again.
create function app.upsert_long_url(p_account_id uuid, p_url text) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_status text;
begin
  insert into public.long_urls (account_id, url) values (p_account_id, p_url)
  on conflict (account_id, md5(url)) do update set updated_at = excluded.updated_at
  returning id, status into v_id, v_status;
  if v_status = 'terminated' then
    perform app.link_error('url_not_allowed');
  end if;
  return v_id;
end;
$$;

-- Replaces a link's tags with the given (normalized) names, creating missing tags.
create function app.set_link_tags(p_alias_id uuid, p_account_id uuid, p_tags text[]) returns void
language sql volatile security definer
set search_path = ''
as $$
  insert into public.tags (account_id, name)
  select p_account_id, t from unnest(p_tags) as t
  on conflict (account_id, name) do nothing;
  delete from public.alias_tags at
  where at.alias_id = p_alias_id
    and at.tag_id not in (
      select g.id from public.tags g where g.account_id = p_account_id and g.name = any (p_tags)
    );
  insert into public.alias_tags (alias_id, tag_id, account_id)
  select p_alias_id, g.id, p_account_id
  from public.tags g
  where g.account_id = p_account_id and g.name = any (p_tags)
  on conflict do nothing;
$$;

-- The created-link answer of the spec: an item with url and its aliases (domain, alias,
-- tiny_url, is_main, tags, affiliates), plus the fields the lists show.
create function app.link_json(p_alias_id uuid) returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'url', u.url,
    'aliases', jsonb_build_array(jsonb_build_object(
      'id', a.id,
      'domain', d.domain,
      'alias', a.alias::text,
      -- *.localhost domains are the local stack's; they have no certificate.
      'tiny_url', case when d.domain like '%.localhost' then 'http://' else 'https://' end
        || d.domain || '/' || a.alias::text,
      'is_main', a.is_main,
      'status', a.status,
      'expires_at', a.expires_at,
      'description', a.description,
      'tags', coalesce((
        select jsonb_agg(t.name order by t.name)
        from public.alias_tags at join public.tags t on t.id = at.tag_id
        where at.alias_id = a.id
      ), '[]'::jsonb),
      'affiliates', '[]'::jsonb,
      'account_id', a.account_id,
      'organization_id', a.organization_id,
      'created_at', a.created_at
    ))
  )
  from public.aliases a
  join public.long_urls u on u.id = a.long_url_id
  join public.domains d on d.id = a.domain_id
  where a.id = p_alias_id
$$;

-- The link a caller acts on: it must exist, not be deleted and be visible to them (else
-- alias_not_found); they must manage it (a link manager, or the member who made it) and it must
-- not be terminated (else permission_denied). Locks the row.
create function app.manageable_link(p_alias_id uuid) returns public.aliases
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_link public.aliases;
  v_uid uuid := (select auth.uid());
begin
  select * into v_link from public.aliases a where a.id = p_alias_id for update;
  if v_link.id is null or v_link.status = 'deleted' or v_uid is null or not (
    app.has_permission(v_link.account_id, 'links.read')
    or coalesce(v_link.organization_id in (select app.supervised_organization_ids()), false)
  ) then
    perform app.link_error('alias_not_found');
  end if;
  if not (
    app.has_permission(v_link.account_id, 'links.manage')
    or (v_link.created_by = v_uid and app.has_permission(v_link.account_id, 'links.create'))
  ) or v_link.status = 'terminated' then
    perform app.link_error('permission_denied');
  end if;
  return v_link;
end;
$$;

grant execute on function app.check_destination(text), app.check_alias(text, uuid, boolean, uuid),
  app.random_alias(), app.check_custom_alias_allowed(uuid, uuid), app.normalize_tags(text[]),
  app.check_expiry(timestamptz, uuid), app.check_description(text, boolean),
  app.feature_account_id(uuid, uuid), app.check_link_limits(uuid, boolean, boolean),
  app.spend_credits(uuid, text), app.upsert_long_url(uuid, text),
  app.set_link_tags(uuid, uuid, text[]), app.link_json(uuid), app.manageable_link(uuid)
  to service_role;

-- ---------------------------------------------------------------------------------------------
-- create_link

create function public.create_link(
  p_url text,
  p_domain text,
  p_alias text default null,
  -- The alias is the edge function's random draw, not the user's choice.
  p_alias_is_random boolean default false,
  -- The workspace: null for the caller's personal one, or a team's account.
  p_account_id uuid default null,
  -- Organization mode for a personal link (a team link takes its team's organization).
  p_organization_id uuid default null,
  p_tags text[] default null,
  p_description text default null,
  p_expires_at timestamptz default null
) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_guest boolean := v_uid is null;
  v_verified boolean := false;
  v_subscribed boolean := false;
  v_account_id uuid;
  v_account_kind text;
  v_team_id uuid;
  v_organization_id uuid;
  v_feature_account_id uuid;
  v_domain public.domains;
  v_url text;
  v_alias text := nullif(btrim(p_alias), '');
  -- No alias given: this function draws one (and draws again on a collision).
  v_draw boolean := nullif(btrim(p_alias), '') is null;
  v_random boolean := coalesce(p_alias_is_random, false);
  v_constraint text;
  v_tags text[];
  v_description text;
  v_long_url_id uuid;
  v_alias_id uuid;
  v_attempt integer := 0;
begin
  -- Who is creating, and in which workspace.
  if v_guest then
    if p_account_id is not null or p_organization_id is not null then
      perform app.link_error('permission_denied');
    end if;
  else
    v_verified := app.is_verified(v_uid);
    v_subscribed := app.is_subscribed(v_uid);
    v_account_id := coalesce(p_account_id,
      (select p.personal_account_id from public.profiles p where p.id = v_uid));
    select a.kind into v_account_kind from public.accounts a where a.id = v_account_id;
    if v_account_kind is null or v_account_kind = 'organization'
      or not app.has_permission(v_account_id, 'links.read') then
      perform app.link_error('unknown_team');
    end if;
    if not app.has_permission(v_account_id, 'links.create') then
      perform app.link_error('viewer_cannot_create');
    end if;
    if v_account_kind = 'team' then
      select t.id, t.organization_id into v_team_id, v_organization_id
      from public.teams t where t.account_id = v_account_id;
      if p_organization_id is not null and p_organization_id is distinct from v_organization_id then
        perform app.link_error('unknown_team');
      end if;
    elsif p_organization_id is not null then
      -- The personal workspace of an organization: its owner and users, and its teams' admins
      -- and members.
      if not (
        app.is_organization_member(p_organization_id, v_uid)
        or exists (
          select 1 from public.teams t
          where t.organization_id = p_organization_id
            and app.has_permission(t.account_id, 'links.create')
        )
      ) then
        perform app.link_error('organization_not_found');
      end if;
      v_organization_id := p_organization_id;
    end if;
    v_feature_account_id := app.feature_account_id(v_account_id, v_organization_id);
  end if;

  v_url := app.check_destination(p_url);

  -- The domain, as the create form's domain list decides selectability.
  select * into v_domain from public.domains d where d.domain = lower(btrim(p_domain));
  if v_domain.id is null or v_domain.is_disabled or v_domain.is_deleted or v_domain.is_blocked then
    perform app.link_error('domain_not_found');
  end if;
  if v_domain.kind = 'common' then
    if v_guest and not v_domain.allow_for_guests then
      perform app.link_error('domain_guests_only_logged_in');
    end if;
    if not v_guest and v_domain.require_email_verification and not v_verified
      and not v_subscribed then
      perform app.link_error('email_verification');
    end if;
    if not v_guest and v_domain.subscribed_only and v_organization_id is null
      and not v_subscribed then
      perform app.link_error('not_subscribed');
    end if;
  elsif v_domain.kind = 'branded' then
    if v_guest or v_domain.account_id <> v_account_id
      or v_domain.verification_status <> 'verified' then
      perform app.link_error('domain_not_found');
    end if;
    if not app.account_has_feature(v_feature_account_id, 'use_branded_domains') then
      perform app.link_error('not_subscribed');
    end if;
  else
    -- An organization domain: in that organization's mode, for all teams or for this team.
    if v_guest or v_domain.verification_status <> 'verified' or v_organization_id is null
      or v_domain.account_id <> (
        select o.account_id from public.organizations o where o.id = v_organization_id
      )
      or not (v_domain.for_all_teams or exists (
        select 1 from public.domain_teams dt
        where dt.domain_id = v_domain.id and dt.team_id = v_team_id
      )) then
      perform app.link_error('domain_not_found');
    end if;
  end if;

  -- The alias: typed by the user (needs permission), drawn by the edge function, or drawn here.
  if v_alias is not null and not v_random then
    if v_guest then
      if not v_domain.guest_can_use_custom_alias then
        perform app.link_error('custom_alias_not_allowed');
      end if;
    else
      perform app.check_custom_alias_allowed(v_uid, v_feature_account_id);
    end if;
  end if;
  if v_alias is not null then
    perform app.check_alias(v_alias, v_domain.id, v_random);
  end if;

  v_tags := app.normalize_tags(p_tags);
  if cardinality(v_tags) > 0 and (v_guest
    or not app.account_has_feature(v_feature_account_id, 'use_tags')) then
    perform app.link_error('tags_not_allowed');
  end if;
  v_description := app.check_description(p_description, v_organization_id is not null);
  if p_expires_at is not null then
    perform app.check_expiry(p_expires_at, v_feature_account_id);
  end if;

  if not v_guest then
    perform app.check_link_limits(v_account_id, v_domain.kind <> 'common', true);
    perform app.spend_credits(v_account_id, 'create_link');
  end if;

  v_long_url_id := app.upsert_long_url(v_account_id, v_url);
  loop
    v_attempt := v_attempt + 1;
    if v_draw then
      v_alias := app.random_alias();
      continue when exists (
        select 1 from public.reserved_aliases r
        where r.alias operator(extensions.=) v_alias::extensions.citext
      );
    end if;
    begin
      insert into public.aliases (long_url_id, account_id, domain_id, alias, is_main, expires_at,
        description, created_by, organization_id)
      values (v_long_url_id, v_account_id, v_domain.id, v_alias,
        not exists (select 1 from public.aliases a where a.long_url_id = v_long_url_id and a.is_main),
        p_expires_at, v_description, v_uid, v_organization_id)
      returning id into v_alias_id;
      exit;
    exception when unique_violation then
      get stacked diagnostics v_constraint = constraint_name;
      -- Someone took the alias between the check and the insert. A drawn alias is drawn again
      -- (a few times); a chosen one is reported.
      if v_constraint <> 'aliases_domain_id_alias_key' or (v_draw and v_attempt >= 5) then
        raise;
      elsif not v_draw then
        perform app.link_error(case when v_random then 'random_alias_taken' else 'alias_taken' end);
      end if;
    end;
  end loop;

  if cardinality(v_tags) > 0 then
    perform app.set_link_tags(v_alias_id, v_account_id, v_tags);
  end if;
  return jsonb_build_array(app.link_json(v_alias_id));
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- update_link: rename the alias, change the destination (paid only), the tags, the expiry and
-- the description. A null argument leaves that part alone; an empty tag list removes all tags,
-- an empty description removes it, p_remove_expiry removes the expiry.

create function public.update_link(
  p_alias_id uuid,
  p_alias text default null,
  p_url text default null,
  p_tags text[] default null,
  p_expires_at timestamptz default null,
  p_remove_expiry boolean default false,
  p_description text default null
) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_link public.aliases := app.manageable_link(p_alias_id);
  v_feature_account_id uuid := app.feature_account_id(v_link.account_id, v_link.organization_id);
  v_alias text := v_link.alias::text;
  v_long_url_id uuid := v_link.long_url_id;
  v_is_main boolean := v_link.is_main;
  v_expires_at timestamptz := v_link.expires_at;
  v_description text := v_link.description;
  v_url text;
  v_tags text[];
begin
  if p_alias is not null and p_alias is distinct from v_link.alias::text then
    perform app.check_custom_alias_allowed(v_uid, v_feature_account_id);
    v_alias := app.check_alias(btrim(p_alias), v_link.domain_id, false, v_link.id);
  end if;

  if p_url is not null then
    v_url := app.check_destination(p_url);
    if v_url <> (select u.url from public.long_urls u where u.id = v_link.long_url_id) then
      if not app.account_has_feature(v_feature_account_id, 'change_long_url') then
        perform app.link_error('paid_only');
      end if;
      v_long_url_id := app.upsert_long_url(v_link.account_id, v_url);
      v_is_main := not exists (
        select 1 from public.aliases a where a.long_url_id = v_long_url_id and a.is_main
      );
    end if;
  end if;

  if p_tags is not null then
    v_tags := app.normalize_tags(p_tags);
    if cardinality(v_tags) > 0
      and not app.account_has_feature(v_feature_account_id, 'use_tags') then
      perform app.link_error('tags_not_allowed');
    end if;
  end if;

  if p_remove_expiry then
    if not app.account_has_feature(v_feature_account_id, 'manage_expiration') then
      perform app.link_error('expiry_not_allowed');
    end if;
    v_expires_at := null;
  elsif p_expires_at is not null then
    perform app.check_expiry(p_expires_at, v_feature_account_id);
    v_expires_at := p_expires_at;
  end if;

  if p_description is not null then
    v_description := app.check_description(p_description, v_link.organization_id is not null);
  end if;

  begin
    update public.aliases
    set alias = v_alias, long_url_id = v_long_url_id, is_main = v_is_main,
      expires_at = v_expires_at, description = v_description
    where id = v_link.id;
  exception when unique_violation then
    perform app.link_error('alias_taken');
  end;
  -- The main alias moved to another destination: the oldest alias left on the old one is main.
  if v_link.is_main and v_long_url_id <> v_link.long_url_id then
    update public.aliases set is_main = true
    where id = (
      select a.id from public.aliases a
      where a.long_url_id = v_link.long_url_id
      order by a.created_at, a.id
      limit 1
    );
  end if;
  if v_tags is not null then
    perform app.set_link_tags(v_link.id, v_link.account_id, v_tags);
  end if;
  return app.link_json(v_link.id);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- archive_link (and unarchive), delete_link (soft), remove_link_tag.

create function public.archive_link(p_alias_id uuid, p_archived boolean default true)
returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_link public.aliases := app.manageable_link(p_alias_id);
begin
  if coalesce(p_archived, true) then
    update public.aliases set status = 'archived' where id = v_link.id and status <> 'archived';
  elsif v_link.status = 'archived' then
    -- Back among the active links: the active-alias limit applies again.
    perform app.check_link_limits(v_link.account_id, false, false);
    update public.aliases set status = 'active' where id = v_link.id;
  end if;
  return app.link_json(v_link.id);
end;
$$;

create function public.delete_link(p_alias_id uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_link public.aliases := app.manageable_link(p_alias_id);
begin
  -- The row stays (statistics, and nobody else may take the alias); the link stops working.
  update public.aliases set status = 'deleted' where id = v_link.id;
end;
$$;

create function public.remove_link_tag(p_alias_id uuid, p_tag text) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_link public.aliases := app.manageable_link(p_alias_id);
  v_tag text := lower(regexp_replace(coalesce(p_tag, ''), '\s', '', 'g'));
begin
  delete from public.alias_tags at
  using public.tags t
  where at.alias_id = v_link.id and t.id = at.tag_id and t.name = v_tag;
  if not found then
    perform app.link_error('tag_not_found');
  end if;
  return app.link_json(v_link.id);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- search_links: an account's links whose alias or destination contains the query, newest first.
--
-- Security definer with its own check (the caller reads the account's links, or is staff):
-- under row-level security ILIKE, which is not leakproof, may not run inside an index scan, so
-- the trigram indexes would go unused and every search would read the whole account.
--
-- Two strategies: a frequent term is found soonest by reading the account's newest links in
-- order until the page is full; a rare one through the trigram indexes (which, for a frequent
-- term, would fetch and sort thousands of matches). The first runs with a budget of links read,
-- and hands over to the second when the budget runs out before the page is full.

create function public.search_links(p_account_id uuid, p_query text, p_limit integer default 50)
returns setof public.aliases
language plpgsql stable security definer
set search_path = ''
as $$
declare
  -- The query matches literally: % and _ are not wildcards here.
  v_pattern text := '%' || replace(replace(replace(btrim(coalesce(p_query, '')), '\', '\\'),
    '%', '\%'), '_', '\_') || '%';
  v_limit integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  v_budget constant integer := 500;
  v_read integer := 0;
  v_ids uuid[] := '{}';
  v_link record;
begin
  if p_account_id is null
    or not (app.has_permission(p_account_id, 'links.read') or app.is_staff()) then
    return;
  end if;

  -- A loop over a query reads through a cursor: only the rows it gets to. The limit keeps the
  -- plan an ordered index walk rather than a sort of the whole account.
  for v_link in
    select a.id, a.alias::text as alias, u.url
    from public.aliases a
    join public.long_urls u on u.id = a.long_url_id
    where a.account_id = p_account_id and a.status <> 'deleted'
    order by a.created_at desc, a.id desc
    limit v_budget
  loop
    v_read := v_read + 1;
    if v_link.alias ilike v_pattern or v_link.url ilike v_pattern then
      v_ids := v_ids || v_link.id;
      exit when cardinality(v_ids) >= v_limit;
    end if;
    exit when v_read >= v_budget;
  end loop;
  -- A full page, or every link read: the answer is complete.
  if cardinality(v_ids) >= v_limit or v_read < v_budget then
    return query
      select a.* from public.aliases a where a.id = any (v_ids)
      order by a.created_at desc, a.id desc;
    return;
  end if;

  return query
    select a.*
    from public.aliases a
    where a.id in (
        select x.id from public.aliases x
        where x.account_id = p_account_id and x.alias::text ilike v_pattern
        union
        select x.id
        from public.long_urls u
        join public.aliases x on x.long_url_id = u.id
        where u.account_id = p_account_id and u.url ilike v_pattern
      )
      and a.status <> 'deleted'
    order by a.created_at desc, a.id desc
    limit v_limit;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- API tokens.

create function public.create_api_token(
  p_name text,
  p_abilities text[],
  p_account_id uuid default null,
  p_expires_at timestamptz default null
) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_account_id uuid := coalesce(p_account_id,
    (select p.personal_account_id from public.profiles p where p.id = v_uid));
  v_token text := 'slt_' || encode(extensions.gen_random_bytes(24), 'hex');
  v_id uuid;
begin
  if v_uid is null or v_account_id is null or not app.has_permission(v_account_id, 'api') then
    perform app.link_error('permission_denied');
  end if;
  -- The API settings page needs a verified e-mail address or a subscription.
  if not app.is_verified(v_uid) and not app.is_subscribed(v_uid) then
    perform app.link_error('email_verification', 'form');
  end if;
  if not app.account_has_feature(v_account_id, 'use_api') then
    perform app.link_error('feature_not_allowed');
  end if;
  if nullif(btrim(p_name), '') is null then
    perform app.raise_coded('name_required');
  end if;
  if p_abilities is null or cardinality(p_abilities) = 0
    or array_position(p_abilities, null) is not null
    or not p_abilities <@ app.api_token_abilities() then
    perform app.link_error('abilities_invalid');
  end if;
  if p_expires_at is not null and p_expires_at < now() + interval '5 minutes' then
    perform app.link_error('expiry_too_soon');
  end if;
  insert into public.api_tokens (account_id, created_by, name, token_hash, token_prefix,
    abilities, expires_at)
  values (v_account_id, v_uid, btrim(p_name), sha256(convert_to(v_token, 'UTF8')),
    left(v_token, 10), array(select distinct unnest(p_abilities) order by 1), p_expires_at)
  returning id into v_id;
  -- The only time the plain token leaves the database.
  return jsonb_build_object('id', v_id, 'token', v_token, 'token_prefix', left(v_token, 10));
end;
$$;

-- For the API edge function (service role): the account and abilities behind a token, or no
-- row for an unknown, revoked or expired one. Records the use.
create function app.authenticate_api_token(p_token text)
returns table (token_id uuid, account_id uuid, created_by uuid, abilities text[])
language sql volatile security definer
set search_path = ''
as $$
  update public.api_tokens t
  set last_used_at = now()
  where t.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    and (t.expires_at is null or t.expires_at > now())
  returning t.id, t.account_id, t.created_by, t.abilities
$$;

-- ---------------------------------------------------------------------------------------------
-- Privileges. Functions in public are executable by everyone by Supabase's default privileges;
-- each RPC is granted to exactly the callers it is for.

revoke execute on function
  public.create_link(text, text, text, boolean, uuid, uuid, text[], text, timestamptz),
  public.update_link(uuid, text, text, text[], timestamptz, boolean, text),
  public.archive_link(uuid, boolean), public.delete_link(uuid),
  public.remove_link_tag(uuid, text), public.search_links(uuid, text, integer),
  public.create_api_token(text, text[], uuid, timestamptz)
  from public, anon;
grant execute on function
  public.create_link(text, text, text, boolean, uuid, uuid, text[], text, timestamptz)
  to authenticated, service_role;
grant execute on function
  public.update_link(uuid, text, text, text[], timestamptz, boolean, text),
  public.archive_link(uuid, boolean), public.delete_link(uuid),
  public.remove_link_tag(uuid, text), public.search_links(uuid, text, integer),
  public.create_api_token(text, text[], uuid, timestamptz)
  to authenticated, service_role;
grant execute on function app.authenticate_api_token(text) to service_role;

-- Functions are executable by PUBLIC by default (per-schema default privileges cannot take
-- that away): only the grants above apply.
revoke execute on all functions in schema app from public;
