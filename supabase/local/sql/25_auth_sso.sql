-- GoTrue's SSO tables (its SAML migrations), idempotent: the bootstrap creates them on a new
-- database and the Auth service runs this again at start when [auth.saml] is enabled, as GoTrue
-- migrates its own schema, so a database bootstrapped before SSO existed gains them too.

set role supabase_auth_admin;

create table if not exists auth.sso_providers (
  id uuid primary key,
  resource_id text,
  disabled boolean,
  created_at timestamptz,
  updated_at timestamptz,
  constraint "resource_id not empty" check (resource_id = null or char_length(resource_id) > 0)
);
create unique index if not exists sso_providers_resource_id_idx
  on auth.sso_providers (lower(resource_id));

create table if not exists auth.sso_domains (
  id uuid primary key,
  sso_provider_id uuid not null references auth.sso_providers (id) on delete cascade,
  domain text not null,
  created_at timestamptz,
  updated_at timestamptz,
  constraint "domain not empty" check (char_length(domain) > 0)
);
create index if not exists sso_domains_sso_provider_id_idx on auth.sso_domains (sso_provider_id);
create unique index if not exists sso_domains_domain_idx on auth.sso_domains (lower(domain));

create table if not exists auth.saml_providers (
  id uuid primary key,
  sso_provider_id uuid not null references auth.sso_providers (id) on delete cascade,
  entity_id text not null unique,
  metadata_xml text not null,
  metadata_url text,
  attribute_mapping jsonb,
  name_id_format text,
  created_at timestamptz,
  updated_at timestamptz,
  constraint "entity_id not empty" check (char_length(entity_id) > 0),
  constraint "metadata_xml not empty" check (char_length(metadata_xml) > 0),
  constraint "metadata_url not empty" check (metadata_url = null or char_length(metadata_url) > 0)
);
create index if not exists saml_providers_sso_provider_id_idx
  on auth.saml_providers (sso_provider_id);

create table if not exists auth.saml_relay_states (
  id uuid primary key,
  sso_provider_id uuid not null references auth.sso_providers (id) on delete cascade,
  request_id text not null,
  for_email text,
  redirect_to text,
  flow_state_id uuid references auth.flow_state (id) on delete cascade,
  created_at timestamptz,
  updated_at timestamptz,
  constraint "request_id not empty" check (char_length(request_id) > 0)
);
create index if not exists saml_relay_states_sso_provider_id_idx
  on auth.saml_relay_states (sso_provider_id);
create index if not exists saml_relay_states_created_at_idx
  on auth.saml_relay_states (created_at desc);

do $$
declare
  name text;
begin
  foreach name in array array['sso_providers', 'sso_domains', 'saml_providers', 'saml_relay_states']
  loop
    execute format('alter table auth.%I enable row level security', name);
    execute format('grant select on auth.%I to postgres with grant option', name);
    execute format('grant all on auth.%I to postgres, dashboard_user', name);
  end loop;
end $$;

reset role;
