-- Links and what hangs off them: long URLs, aliases (the short links), tags, UTM presets, API
-- tokens, bulk jobs and alias routes (conditional redirects), plus the reserved alias list and
-- the credit costs of operations.
--
-- Links belong to an account (a personal workspace or a team). A guest's link belongs to no
-- account: account_id and created_by are both null, and only staff see it. Links are written by
-- the RPCs of migration 000230 (which check every rule of the create form) and by staff in the
-- kiosk; API users only read them here.

-- Substring search within one account reads one GIN index holding both the account and the
-- trigrams (a multicolumn GIN index also serves either column alone, e.g. staff's global search).
create extension if not exists btree_gin with schema extensions;

-- ---------------------------------------------------------------------------------------------
-- Reference data: reserved aliases and operation costs (read by everyone, kept by staff).

create table public.reserved_aliases (
  alias extensions.citext primary key,
  reason text not null default 'route' check (reason in ('route', 'brand', 'abuse')),
  created_at timestamptz not null default now()
);
comment on table public.reserved_aliases is
  'Aliases nobody may take: the app''s own paths, brand names, abuse-prone words.';

insert into public.reserved_aliases (alias, reason)
select a, 'route'
from unnest(array[
  'app', 'api', 'admin', 'kiosk', 'auth', 'rest', 'storage', 'functions', 'graphql', 'realtime',
  'login', 'logout', 'register', 'signup', 'signin', 'password', 'verify', 'email', 'settings',
  'pricing', 'plans', 'features', 'help', 'helpdesk', 'support', 'blog', 'terms', 'privacy',
  'cookies', 'accessibility', 'about', 'about-us', 'contact', 'preview', 'purchase',
  'shopping-cart', 'cart', 'checkout', 'billing', 'invoices', 'orders', 'subscription',
  'organization', 'organizations', 'org', 'team', 'teams', 'user', 'users', 'me', 'dashboard',
  'notifications', 'invitations', 'my-urls', 'freescout', 'affiliate-link', 'get-started',
  'domain-upsell', 'paddle', 'static', 'assets', 'favicon', 'robots', 'sitemap', 'well-known',
  'www', 'status', 'health', 'heartbeat'
]) as r(a)
union all
select a, 'brand' from unnest(array['shortlane', 'tinyurl']) as b(a);

-- What an operation costs in web credits (the spec's "operation costs" in the shared app state).
create table public.operation_costs (
  operation text primary key check (operation ~ '^[a-z_]{1,50}$'),
  credits integer not null check (credits >= 0),
  updated_at timestamptz not null default now()
);
insert into public.operation_costs (operation, credits) values ('create_link', 1);

-- ---------------------------------------------------------------------------------------------
-- Long URLs: one row per destination per account (guests share one pool), so that several
-- aliases of the same destination share it (max_aliases_per_url, "items with aliases").

create table public.long_urls (
  id uuid primary key default gen_random_uuid(),
  account_id uuid references public.accounts (id) on delete cascade,
  url text not null check (char_length(url) between 1 and 2048),
  -- The destination's host, for banned-domain checks and the kiosk's lists.
  host text not null generated always as (
    lower(substring(url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#:]*)'))
  ) stored,
  status text not null default 'active' check (status in ('terminated', 'active', 'inactive')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Lets aliases reference a long URL of their own account only.
  unique (id, account_id)
);
comment on column public.long_urls.account_id is 'Null for guests'' links.';
-- md5 keeps the key short for long URLs.
create unique index long_urls_account_url_idx on public.long_urls (account_id, md5(url))
  nulls not distinct;
create index long_urls_account_url_trgm_idx on public.long_urls
  using gin (account_id, url extensions.gin_trgm_ops);
create index long_urls_host_idx on public.long_urls (host);

-- ---------------------------------------------------------------------------------------------
-- Aliases: the short links.

create table public.aliases (
  id uuid primary key default gen_random_uuid(),
  long_url_id uuid not null references public.long_urls (id) on delete cascade,
  account_id uuid references public.accounts (id) on delete cascade,
  domain_id uuid not null references public.domains (id) on delete restrict,
  alias extensions.citext not null
    constraint aliases_alias_format check (alias ~ '^[A-Za-z0-9_-]{1,50}$'),
  -- The first alias of a long URL is its main one.
  is_main boolean not null default true,
  status text not null default 'active' check (status in (
    'deleted', 'terminated', 'archived', 'active', 'no_affiliate', 'can_affiliate'
  )),
  expires_at timestamptz,
  description text check (char_length(description) between 1 and 1000),
  created_by uuid references auth.users (id) on delete set null,
  -- The organization a link was made in (a personal link made in organization mode, or a team
  -- link of a team inside an organization).
  organization_id uuid references public.organizations (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (domain_id, alias),
  unique (id, account_id),
  foreign key (long_url_id, account_id) references public.long_urls (id, account_id),
  constraint aliases_guest_links_have_no_creator check (account_id is not null or created_by is null)
);
comment on table public.aliases is 'Short links: an alias on a domain pointing at a long URL.';
comment on column public.aliases.status is
  'deleted (soft), terminated (by staff), archived, or one of the active states: active, no_affiliate, can_affiliate.';
-- A 50-row page of an account's links, newest first.
create index aliases_account_page_idx on public.aliases (account_id, created_at desc, id desc);
create index aliases_account_alias_trgm_idx on public.aliases
  using gin (account_id, (alias::text) extensions.gin_trgm_ops);
create index aliases_long_url_id_idx on public.aliases (long_url_id);
create index aliases_created_by_idx on public.aliases (created_by);
create index aliases_organization_id_idx on public.aliases (organization_id, created_at desc);
create unique index aliases_one_main_per_long_url_idx on public.aliases (long_url_id) where is_main;

-- The states that count as a live link (and towards max_active_aliases).
create function app.alias_is_active(p_status text) returns boolean
language sql immutable security definer
set search_path = ''
as $$
  select p_status in ('active', 'no_affiliate', 'can_affiliate')
$$;

-- ---------------------------------------------------------------------------------------------
-- Tags.

create table public.tags (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  name text not null
    constraint tags_name_format check (
      name = lower(name) and name !~ '\s' and char_length(name) between 2 and 45
    ),
  created_at timestamptz not null default now(),
  unique (account_id, name),
  unique (id, account_id)
);

create table public.alias_tags (
  alias_id uuid not null,
  tag_id uuid not null,
  account_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (alias_id, tag_id),
  foreign key (alias_id, account_id) references public.aliases (id, account_id) on delete cascade,
  foreign key (tag_id, account_id) references public.tags (id, account_id) on delete cascade
);
create index alias_tags_tag_id_idx on public.alias_tags (tag_id);
create index alias_tags_account_id_idx on public.alias_tags (account_id);

-- ---------------------------------------------------------------------------------------------
-- UTM presets (the UTM builder's saved parameter sets), lengths as the spec's table.

create table public.utm_presets (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  utm_source text not null check (char_length(utm_source) between 1 and 100),
  utm_medium text not null check (char_length(utm_medium) between 1 and 50),
  utm_campaign text not null check (char_length(utm_campaign) between 1 and 150),
  utm_term text check (char_length(utm_term) between 1 and 50),
  utm_content text check (char_length(utm_content) between 1 and 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (account_id, name)
);
create index utm_presets_created_by_idx on public.utm_presets (created_by);

-- ---------------------------------------------------------------------------------------------
-- API tokens: only a SHA-256 of the token is stored; the plain token is shown once by
-- public.create_api_token and never again.

create function app.api_token_abilities() returns text[]
language sql immutable security definer
set search_path = ''
as $$
  select array[
    'links.read', 'links.create', 'links.update', 'links.archive', 'links.delete',
    'analytics.read', 'domains.read', 'tags.read'
  ]::text[]
$$;

create table public.api_tokens (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  created_by uuid references auth.users (id) on delete set null,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  token_hash bytea not null unique check (octet_length(token_hash) = 32),
  -- The token's first characters, so lists can tell tokens apart.
  token_prefix text not null check (char_length(token_prefix) between 4 and 12),
  abilities text[] not null default '{}'
    check (array_position(abilities, null) is null and abilities <@ app.api_token_abilities()),
  last_used_at timestamptz,
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index api_tokens_account_id_idx on public.api_tokens (account_id);
create index api_tokens_created_by_idx on public.api_tokens (created_by);

-- ---------------------------------------------------------------------------------------------
-- Bulk jobs: an uploaded file (object in the imports bucket) turned into links by an edge
-- function, which fills total, processed and the per-row errors.

create table public.bulk_jobs (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  created_by uuid not null default auth.uid() references auth.users (id) on delete cascade,
  organization_id uuid references public.organizations (id) on delete set null,
  domain_id uuid not null references public.domains (id) on delete restrict,
  -- The object's name in the imports bucket.
  file_path text not null check (char_length(file_path) between 1 and 1024 and file_path !~ '^/'),
  with_header boolean not null default true,
  status text not null default 'pending'
    check (status in ('pending', 'processing', 'completed', 'failed')),
  total integer not null default 0 check (total >= 0),
  processed integer not null default 0 check (processed >= 0),
  -- Per file row (1-based, as a string key): { "3": { "url": ["The url must be a valid URL."] } }.
  errors jsonb not null default '{}' check (jsonb_typeof(errors) = 'object'),
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now(),
  constraint bulk_jobs_processed_within_total check (processed <= total)
);
create index bulk_jobs_account_id_idx on public.bulk_jobs (account_id, created_at desc);
create index bulk_jobs_created_by_idx on public.bulk_jobs (created_by);
create index bulk_jobs_domain_id_idx on public.bulk_jobs (domain_id);
create index bulk_jobs_organization_id_idx on public.bulk_jobs (organization_id);

-- ---------------------------------------------------------------------------------------------
-- Alias routes: "if <value> <condition> <operation> <operands> then go to <url>". The builder's
-- vocabulary (the spec's "Alias-route builder data": values, conditions, operations,
-- urls_conditions) is reference data; each rule row references it, so a rule can only use words
-- the builder offers.

create table public.route_values (
  id text primary key check (id ~ '^[a-z_]{1,50}$'),
  name text not null,
  -- The kind of data the value yields; operations list the types they apply to.
  type text not null check (type in ('string', 'number', 'list', 'datetime')),
  -- Fixed choices the builder offers (country codes, device kinds…), or null for free input.
  "values" jsonb check ("values" is null or jsonb_typeof("values") = 'array'),
  -- The user may type values beyond the fixed choices.
  custom_values boolean not null default false,
  -- The fixed choices are a code-to-label object rather than a list.
  is_assoc boolean not null default false
);

create table public.route_conditions (
  id text primary key check (id ~ '^[a-z_]{1,50}$'),
  name text not null,
  has_operations boolean not null default true
);

create table public.route_operations (
  id text primary key check (id ~ '^[a-z_]{1,50}$'),
  name text not null,
  types text[] not null check (types <@ '{string,number,list,datetime}'::text[]),
  support_list boolean not null default false
);

create table public.route_url_conditions (
  id text primary key check (id ~ '^[a-z_]{1,50}$'),
  name text not null
);

insert into public.route_values (id, name, type, "values", custom_values, is_assoc) values
  ('country', 'Country', 'string', null, true, false),
  ('device', 'Device', 'string', '["desktop","mobile","tablet"]', false, false),
  ('os', 'Operating system', 'string', '["Windows","macOS","iOS","Android","Linux"]', true, false),
  ('browser', 'Browser', 'string', '["Chrome","Safari","Firefox","Edge","Opera"]', true, false),
  ('language', 'Language', 'string', null, true, false),
  ('referrer', 'Referrer', 'string', null, true, false),
  ('clicks', 'Number of clicks', 'number', null, true, false),
  ('date', 'Date and time', 'datetime', null, true, false);
insert into public.route_conditions (id, name, has_operations) values
  ('if', 'If', true),
  ('unless', 'Unless', true),
  ('always', 'Always', false);
insert into public.route_operations (id, name, types, support_list) values
  ('equals', 'equals', '{string,number,datetime}', false),
  ('not_equals', 'does not equal', '{string,number,datetime}', false),
  ('in', 'is one of', '{string,number}', true),
  ('not_in', 'is none of', '{string,number}', true),
  ('contains', 'contains', '{string}', false),
  ('greater_than', 'is greater than', '{number,datetime}', false),
  ('less_than', 'is less than', '{number,datetime}', false);
insert into public.route_url_conditions (id, name) values
  ('all', 'All rules match'),
  ('any', 'Any rule matches');

create table public.alias_routes (
  id uuid primary key default gen_random_uuid(),
  alias_id uuid not null,
  account_id uuid not null,
  -- Routes are tried in order; the first whose rules hold redirects.
  position smallint not null check (position >= 0),
  url public.http_url not null,
  url_condition_id text not null default 'all' references public.route_url_conditions (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (alias_id, position) deferrable initially immediate,
  unique (id, account_id),
  foreign key (alias_id, account_id) references public.aliases (id, account_id) on delete cascade
);
create index alias_routes_account_id_idx on public.alias_routes (account_id);
create index alias_routes_url_condition_id_idx on public.alias_routes (url_condition_id);

create table public.alias_route_rules (
  id uuid primary key default gen_random_uuid(),
  route_id uuid not null,
  account_id uuid not null,
  position smallint not null check (position >= 0),
  value_id text not null references public.route_values (id),
  condition_id text not null references public.route_conditions (id),
  operation_id text references public.route_operations (id),
  operands text[] not null default '{}'
    check (array_position(operands, null) is null and cardinality(operands) <= 500),
  unique (route_id, position) deferrable initially immediate,
  foreign key (route_id, account_id) references public.alias_routes (id, account_id)
    on delete cascade
);
create index alias_route_rules_account_id_idx on public.alias_route_rules (account_id);
create index alias_route_rules_value_id_idx on public.alias_route_rules (value_id);
create index alias_route_rules_condition_id_idx on public.alias_route_rules (condition_id);
create index alias_route_rules_operation_id_idx on public.alias_route_rules (operation_id);

-- A rule must make sense in the builder's terms: an operation exactly when the condition takes
-- one, an operation that applies to the value's type, one operand unless the operation takes a
-- list, and only the fixed choices when the value allows no custom ones.
create function app.check_route_rule() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_value public.route_values;
  v_condition public.route_conditions;
  v_operation public.route_operations;
  v_choices text[];
begin
  select * into v_value from public.route_values where id = new.value_id;
  select * into v_condition from public.route_conditions where id = new.condition_id;
  if v_condition.has_operations <> (new.operation_id is not null) then
    perform app.link_error('route_rule_invalid', 'rules.operation',
      case when v_condition.has_operations then 'The condition needs an operation.'
        else 'The condition takes no operation.' end);
  end if;
  if new.operation_id is null then
    return new;
  end if;
  select * into v_operation from public.route_operations where id = new.operation_id;
  if not v_value.type = any (v_operation.types) then
    perform app.link_error('route_rule_invalid', 'rules.operation',
      format('"%s" does not apply to %s.', v_operation.name, v_value.name));
  end if;
  if cardinality(new.operands) = 0
    or (cardinality(new.operands) > 1 and not v_operation.support_list) then
    perform app.link_error('route_rule_invalid', 'rules.operands',
      case when v_operation.support_list then 'Give at least one value.'
        else 'Give exactly one value.' end);
  end if;
  if not v_value.custom_values and v_value."values" is not null then
    v_choices := case when v_value.is_assoc
      then array(select jsonb_object_keys(v_value."values"))
      else array(select jsonb_array_elements_text(v_value."values")) end;
    if not new.operands <@ v_choices then
      perform app.link_error('route_rule_invalid', 'rules.operands',
        format('%s only takes: %s.', v_value.name, array_to_string(v_choices, ', ')));
    end if;
  end if;
  return new;
end;
$$;

create trigger alias_route_rules_check before insert or update on public.alias_route_rules
  for each row execute function app.check_route_rule();

-- ---------------------------------------------------------------------------------------------
-- updated_at and protected columns.

create trigger long_urls_touch_updated_at before update on public.long_urls
  for each row execute function app.touch_updated_at();
create trigger aliases_touch_updated_at before update on public.aliases
  for each row execute function app.touch_updated_at();
create trigger utm_presets_touch_updated_at before update on public.utm_presets
  for each row execute function app.touch_updated_at();
create trigger api_tokens_touch_updated_at before update on public.api_tokens
  for each row execute function app.touch_updated_at();
create trigger bulk_jobs_touch_updated_at before update on public.bulk_jobs
  for each row execute function app.touch_updated_at();
create trigger alias_routes_touch_updated_at before update on public.alias_routes
  for each row execute function app.touch_updated_at();
create trigger operation_costs_touch_updated_at before update on public.operation_costs
  for each row execute function app.touch_updated_at();

create trigger long_urls_protect_columns before update on public.long_urls
  for each row execute function app.protect_columns('nobody', 'id', 'account_id');
create trigger aliases_protect_columns before update on public.aliases
  for each row execute function app.protect_columns('nobody', 'id', 'account_id', 'created_by');
create trigger tags_protect_columns before update on public.tags
  for each row execute function app.protect_columns('nobody', 'id', 'account_id');
create trigger utm_presets_protect_columns before update on public.utm_presets
  for each row execute function app.protect_columns('nobody', 'id', 'account_id', 'created_by');
create trigger api_tokens_protect_columns before update on public.api_tokens
  for each row execute function app.protect_columns(
    'nobody', 'id', 'account_id', 'created_by', 'token_hash', 'token_prefix', 'last_used_at'
  );
create trigger alias_routes_protect_columns before update on public.alias_routes
  for each row execute function app.protect_columns('nobody', 'id', 'alias_id', 'account_id');
create trigger alias_route_rules_protect_columns before update on public.alias_route_rules
  for each row execute function app.protect_columns('nobody', 'id', 'route_id', 'account_id');

-- ---------------------------------------------------------------------------------------------
-- Helpers for policies.

-- Organizations whose links the caller supervises (the owner, and roles with `supervisor`).
create function app.supervised_organization_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select o.id from public.organizations o
  where o.account_id in (select app.accounts_with_permission('supervisor'))
$$;

-- Accounts where the caller holds a permission and the account's plan has a feature.
create function app.accounts_with_permission_and_feature(p_permission text, p_feature text)
returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select a.id from app.accounts_with_permission(p_permission) as a(id)
  where app.account_has_feature(a.id, p_feature)
$$;

-- The links (and their long URLs) made in organizations the caller supervises. Functions rather
-- than subqueries in the policies: the planner then costs them once (ROWS says they are few)
-- instead of pricing a subquery on aliases into every index lookup, which made it scan whole
-- tables for a 50-row page.
create function app.supervised_alias_ids() returns setof uuid
language sql stable security definer
set search_path = ''
rows 100
as $$
  select a.id from public.aliases a
  where a.organization_id in (select app.supervised_organization_ids())
$$;

create function app.supervised_long_url_ids() returns setof uuid
language sql stable security definer
set search_path = ''
rows 100
as $$
  select a.long_url_id from public.aliases a
  where a.organization_id in (select app.supervised_organization_ids())
$$;

grant execute on function app.alias_is_active(text), app.api_token_abilities(),
  app.supervised_organization_ids(), app.accounts_with_permission_and_feature(text, text),
  app.supervised_alias_ids(), app.supervised_long_url_ids()
  to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Row-level security.

alter table public.reserved_aliases enable row level security;
alter table public.operation_costs enable row level security;
alter table public.long_urls enable row level security;
alter table public.aliases enable row level security;
alter table public.tags enable row level security;
alter table public.alias_tags enable row level security;
alter table public.utm_presets enable row level security;
alter table public.api_tokens enable row level security;
alter table public.bulk_jobs enable row level security;
alter table public.route_values enable row level security;
alter table public.route_conditions enable row level security;
alter table public.route_operations enable row level security;
alter table public.route_url_conditions enable row level security;
alter table public.alias_routes enable row level security;
alter table public.alias_route_rules enable row level security;

-- Reference data: readable by every caller (it is the product's vocabulary, not tenant data).
create policy "Anyone can read the reserved aliases" on public.reserved_aliases
  for select to anon, authenticated using (true);
create policy "Anyone can read the operation costs" on public.operation_costs
  for select to anon, authenticated using (true);
create policy "Signed-in users can read the route values" on public.route_values
  for select to authenticated using (true);
create policy "Signed-in users can read the route conditions" on public.route_conditions
  for select to authenticated using (true);
create policy "Signed-in users can read the route operations" on public.route_operations
  for select to authenticated using (true);
create policy "Signed-in users can read the route URL conditions" on public.route_url_conditions
  for select to authenticated using (true);

create policy "Staff can manage the reserved aliases" on public.reserved_aliases
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));
create policy "Staff can manage the operation costs" on public.operation_costs
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));
create policy "Staff can manage the route values" on public.route_values
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));
create policy "Staff can manage the route conditions" on public.route_conditions
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));
create policy "Staff can manage the route operations" on public.route_operations
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));
create policy "Staff can manage the route URL conditions" on public.route_url_conditions
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));

-- Aliases: readers of the account; supervisors of the organization a link was made in; staff.
-- Writes go through the link RPCs (create_link, update_link, archive_link, delete_link), which
-- check the create form's rules; staff edit in the kiosk.
create policy "Members can read their accounts' links" on public.aliases
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));

create policy "Supervisors can read links made in their organization" on public.aliases
  for select to authenticated
  using (organization_id in (select app.supervised_organization_ids()));

create policy "Staff can manage every link" on public.aliases
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));

-- Long URLs: visible with the links that use them.
create policy "Members can read their accounts' long URLs" on public.long_urls
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));

create policy "Supervisors can read long URLs of links made in their organization" on public.long_urls
  for select to authenticated
  using (id in (select app.supervised_long_url_ids()));

create policy "Staff can manage every long URL" on public.long_urls
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));

-- Tags: readers see them; link managers with the tags feature rename or delete them (links are
-- tagged through the link RPCs).
create policy "Members can read their accounts' tags" on public.tags
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));

create policy "Link managers can add tags" on public.tags
  for insert to authenticated
  with check (account_id in (select app.accounts_with_permission_and_feature('links.manage', 'use_tags')));

create policy "Link managers can rename tags" on public.tags
  for update to authenticated
  using (account_id in (select app.accounts_with_permission_and_feature('links.manage', 'use_tags')))
  with check (account_id in (select app.accounts_with_permission_and_feature('links.manage', 'use_tags')));

create policy "Link managers can delete tags" on public.tags
  for delete to authenticated
  using (account_id in (select app.accounts_with_permission('links.manage')));

create policy "Staff can manage every tag" on public.tags
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));

create policy "Members can read their accounts' link tags" on public.alias_tags
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));

create policy "Supervisors can read tags of links made in their organization" on public.alias_tags
  for select to authenticated
  using (alias_id in (select app.supervised_alias_ids()));

create policy "Staff can manage every link tag" on public.alias_tags
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));

-- UTM presets: whoever may create links uses and saves them; a member edits their own.
create policy "Members can read their accounts' UTM presets" on public.utm_presets
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));

create policy "Link creators can save UTM presets" on public.utm_presets
  for insert to authenticated
  with check (
    account_id in (select app.accounts_with_permission('links.create'))
    and created_by = (select auth.uid())
  );

create policy "Link managers and a preset's author can change it" on public.utm_presets
  for update to authenticated
  using (
    account_id in (select app.accounts_with_permission('links.manage'))
    or (created_by = (select auth.uid())
        and account_id in (select app.accounts_with_permission('links.create')))
  )
  with check (
    account_id in (select app.accounts_with_permission('links.manage'))
    or (created_by = (select auth.uid())
        and account_id in (select app.accounts_with_permission('links.create')))
  );

create policy "Link managers and a preset's author can delete it" on public.utm_presets
  for delete to authenticated
  using (
    account_id in (select app.accounts_with_permission('links.manage'))
    or (created_by = (select auth.uid())
        and account_id in (select app.accounts_with_permission('links.create')))
  );

create policy "Staff can manage every UTM preset" on public.utm_presets
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));

-- API tokens: holders of the api permission list, rename and revoke (delete) them; tokens are
-- minted by public.create_api_token only, so the hash is always the server's.
create policy "API managers can read their accounts' tokens" on public.api_tokens
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('api')));

create policy "API managers can rename their accounts' tokens" on public.api_tokens
  for update to authenticated
  using (account_id in (select app.accounts_with_permission('api')))
  with check (account_id in (select app.accounts_with_permission('api')));

create policy "API managers can revoke their accounts' tokens" on public.api_tokens
  for delete to authenticated
  using (account_id in (select app.accounts_with_permission('api')));

create policy "Staff can read every token" on public.api_tokens
  for select to authenticated
  using ((select app.is_staff()));

create policy "Staff can revoke every token" on public.api_tokens
  for delete to authenticated
  using ((select app.is_staff()));

-- Bulk jobs: a link creator with the bulk feature schedules one for their account; the edge
-- function (service role) processes it.
create policy "Members can read their accounts' bulk jobs" on public.bulk_jobs
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));

create policy "Link creators with bulk can schedule bulk jobs" on public.bulk_jobs
  for insert to authenticated
  with check (
    account_id in (select app.accounts_with_permission_and_feature('links.create', 'use_bulk'))
    and created_by = (select auth.uid())
    and status = 'pending' and processed = 0 and total = 0 and errors = '{}'::jsonb
    and started_at is null and finished_at is null
  );

create policy "Staff can read every bulk job" on public.bulk_jobs
  for select to authenticated
  using ((select app.is_staff()));

-- Alias routes: readers of the link see them; whoever manages the link (a link manager, or the
-- member who made it) and whose plan has redirect routes edits them.
create function app.manageable_alias_ids_with_feature(p_feature text) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select a.id
  from public.aliases a
  where (
      a.account_id in (select app.accounts_with_permission('links.manage'))
      or (a.created_by = (select auth.uid())
          and a.account_id in (select app.accounts_with_permission('links.create')))
    )
    and a.account_id in (select app.accounts_with_permission_and_feature('links.read', p_feature))
    and app.alias_is_active(a.status)
$$;
grant execute on function app.manageable_alias_ids_with_feature(text) to authenticated, service_role;

create policy "Members can read their accounts' alias routes" on public.alias_routes
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));

create policy "Link managers with redirect routes can add alias routes" on public.alias_routes
  for insert to authenticated
  with check (alias_id in (select app.manageable_alias_ids_with_feature('redirect_routes')));

create policy "Link managers with redirect routes can change alias routes" on public.alias_routes
  for update to authenticated
  using (alias_id in (select app.manageable_alias_ids_with_feature('redirect_routes')))
  with check (alias_id in (select app.manageable_alias_ids_with_feature('redirect_routes')));

create policy "Link managers with redirect routes can remove alias routes" on public.alias_routes
  for delete to authenticated
  using (alias_id in (select app.manageable_alias_ids_with_feature('redirect_routes')));

create policy "Staff can manage every alias route" on public.alias_routes
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));

create policy "Members can read their accounts' alias route rules" on public.alias_route_rules
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));

create policy "Link managers with redirect routes can add route rules" on public.alias_route_rules
  for insert to authenticated
  with check (route_id in (
    select r.id from public.alias_routes r
    where r.alias_id in (select app.manageable_alias_ids_with_feature('redirect_routes'))
  ));

create policy "Link managers with redirect routes can change route rules" on public.alias_route_rules
  for update to authenticated
  using (route_id in (
    select r.id from public.alias_routes r
    where r.alias_id in (select app.manageable_alias_ids_with_feature('redirect_routes'))
  ))
  with check (route_id in (
    select r.id from public.alias_routes r
    where r.alias_id in (select app.manageable_alias_ids_with_feature('redirect_routes'))
  ));

create policy "Link managers with redirect routes can remove route rules" on public.alias_route_rules
  for delete to authenticated
  using (route_id in (
    select r.id from public.alias_routes r
    where r.alias_id in (select app.manageable_alias_ids_with_feature('redirect_routes'))
  ));

create policy "Staff can manage every alias route rule" on public.alias_route_rules
  for all to authenticated
  using ((select app.is_staff())) with check ((select app.is_staff()));

-- ---------------------------------------------------------------------------------------------
-- Privileges. Anonymous callers read only the reference lists; TRUNCATE, REFERENCES and
-- TRIGGER would bypass row-level security and are never granted to API roles. Tables written
-- only by RPCs, staff or the service role lose the matching privileges for good measure.

revoke all on public.long_urls, public.aliases, public.tags, public.alias_tags,
  public.utm_presets, public.api_tokens, public.bulk_jobs, public.route_values,
  public.route_conditions, public.route_operations, public.route_url_conditions,
  public.alias_routes, public.alias_route_rules from anon;
revoke insert, update, delete, truncate, references, trigger
  on public.reserved_aliases, public.operation_costs from anon;
revoke truncate, references, trigger on public.reserved_aliases, public.operation_costs,
  public.long_urls, public.aliases, public.tags, public.alias_tags, public.utm_presets,
  public.api_tokens, public.bulk_jobs, public.route_values, public.route_conditions,
  public.route_operations, public.route_url_conditions, public.alias_routes,
  public.alias_route_rules from authenticated;
revoke insert on public.api_tokens from authenticated;
revoke update on public.bulk_jobs from authenticated;
revoke delete on public.bulk_jobs from authenticated;

-- Functions are executable by PUBLIC by default (per-schema default privileges cannot take
-- that away): only the grants above apply.
revoke execute on all functions in schema app from public;
