-- Tables the kiosk (staff back-office) manages: banned domains, IP blocks, the password
-- dictionary, TLD prices and overprice, access invitations, DNS zones and provider webhook
-- events; plus the domain shopping cart, which its owner fills and staff can inspect.
-- Everything here is staff-only over the API except the owner's own cart; rules that need
-- these tables (banned URLs, blocked IPs, cart prices) read them through `app` helpers.

-- A lower-case DNS name with at least two labels. (The link migrations define the same rule as
-- public.hostname for link domains; this one came first in a parallel build and has its own name.)
create domain public.domain_name as text
  check (
    char_length(value) <= 253
    and value = lower(value)
    and value ~ '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$'
  );

-- ---------------------------------------------------------------------------------------------

create table public.banned_domains (
  id uuid primary key default gen_random_uuid(),
  -- Bans the domain and every subdomain of it.
  domain public.domain_name not null unique,
  reason text check (char_length(reason) <= 1000),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index banned_domains_created_by_idx on public.banned_domains (created_by);

create table public.ip_blocks (
  id uuid primary key default gen_random_uuid(),
  -- A single address (/32, /128) or a range.
  range cidr not null unique,
  reason text check (char_length(reason) <= 1000),
  expires_at timestamptz,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index ip_blocks_range_idx on public.ip_blocks using gist (range inet_ops);
create index ip_blocks_created_by_idx on public.ip_blocks (created_by);

create table public.password_dictionary (
  word text primary key check (word = lower(word) and char_length(word) between 1 and 128),
  created_at timestamptz not null default now()
);

create table public.tld_prices (
  tld text primary key check (tld ~ '^[a-z0-9-]+(\.[a-z0-9-]+)*$'),
  currency public.currency_code,
  -- Minor units per year: what the registrar charges, and our overprice on top.
  cost_amount bigint not null check (cost_amount >= 0),
  overprice_amount bigint not null default 0 check (overprice_amount >= 0),
  price_amount bigint not null generated always as (cost_amount + overprice_amount) stored,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.access_invitations (
  id uuid primary key default gen_random_uuid(),
  email text not null check (email ~ '^[^@\s]+@[^@\s]+$' and char_length(email) <= 255),
  -- Only a hash of the invitation token is kept.
  token_hash text not null unique,
  note text check (char_length(note) <= 1000),
  invited_by uuid default auth.uid() references auth.users (id) on delete set null,
  expires_at timestamptz,
  accepted_at timestamptz,
  created_at timestamptz not null default now()
);
create unique index access_invitations_email_idx on public.access_invitations (lower(email));
create index access_invitations_invited_by_idx on public.access_invitations (invited_by);

create table public.dns_zones (
  id uuid primary key default gen_random_uuid(),
  -- The DNS provider's zone id.
  zone_id text not null unique check (char_length(zone_id) between 1 and 100),
  name public.domain_name not null unique,
  status text not null default 'pending' check (status in ('pending', 'active', 'moved', 'deleted')),
  nameservers text[] not null default '{}',
  account_id uuid references public.accounts (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index dns_zones_account_id_idx on public.dns_zones (account_id);

create table public.webhook_events (
  id uuid primary key default gen_random_uuid(),
  -- billing-1, billing-2 (the two billing providers), dns, …
  provider text not null check (provider ~ '^[a-z0-9-]{1,50}$'),
  event_id text not null check (char_length(event_id) between 1 and 255),
  type text not null check (char_length(type) between 1 and 255),
  payload jsonb not null,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  error text,
  -- A provider retries deliveries: the same event is stored (and handled) once.
  unique (provider, event_id)
);
create index webhook_events_unprocessed_idx on public.webhook_events (received_at)
  where processed_at is null;

-- The domain shopping cart: one per user; item prices come from tld_prices, never the client.
create table public.shopping_carts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique default auth.uid() references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.cart_items (
  id uuid primary key default gen_random_uuid(),
  cart_id uuid not null references public.shopping_carts (id) on delete cascade,
  domain public.domain_name not null,
  years integer not null default 1 check (years between 1 and 10),
  amount bigint not null default 0 check (amount >= 0),
  currency public.currency_code,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Also the index the cart policies read cart_id through.
  unique (cart_id, domain)
);

create trigger tld_prices_touch_updated_at before update on public.tld_prices
  for each row execute function app.touch_updated_at();
create trigger dns_zones_touch_updated_at before update on public.dns_zones
  for each row execute function app.touch_updated_at();
create trigger shopping_carts_touch_updated_at before update on public.shopping_carts
  for each row execute function app.touch_updated_at();
create trigger cart_items_touch_updated_at before update on public.cart_items
  for each row execute function app.touch_updated_at();
create trigger shopping_carts_protect_columns before update on public.shopping_carts
  for each row execute function app.protect_columns('nobody', 'id', 'user_id');
create trigger cart_items_protect_columns before update on public.cart_items
  for each row execute function app.protect_columns('nobody', 'id', 'cart_id', 'domain');

-- ---------------------------------------------------------------------------------------------
-- Helpers.

-- The cart item's price: the TLD's yearly price times the years. An unknown or inactive TLD is
-- refused with tld_not_available.
create function app.price_cart_item() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_price public.tld_prices;
begin
  select p.* into v_price
  from public.tld_prices p
  where p.active and (new.domain = p.tld or new.domain like '%.' || p.tld)
  order by char_length(p.tld) desc
  limit 1;
  if not found then
    raise exception using errcode = 'PT422', message = 'tld_not_available',
      detail = 'This domain extension is not available.', hint = 'domain';
  end if;
  new.amount := v_price.price_amount * new.years;
  new.currency := v_price.currency;
  return new;
end;
$$;

create trigger cart_items_price before insert or update on public.cart_items
  for each row execute function app.price_cart_item();

-- True when the host or one of its parent domains is banned.
create function app.is_domain_banned(p_host text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.banned_domains b
    where lower(p_host) = b.domain or lower(p_host) like '%.' || b.domain
  )
$$;

-- True when the address falls in a block that has not expired.
create function app.is_ip_blocked(p_ip inet) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.ip_blocks b
    where b.range >>= p_ip and (b.expires_at is null or b.expires_at > now())
  )
$$;

grant execute on function app.is_domain_banned(text), app.is_ip_blocked(inet)
  to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Row-level security.

alter table public.banned_domains enable row level security;
alter table public.ip_blocks enable row level security;
alter table public.password_dictionary enable row level security;
alter table public.tld_prices enable row level security;
alter table public.access_invitations enable row level security;
alter table public.dns_zones enable row level security;
alter table public.webhook_events enable row level security;
alter table public.shopping_carts enable row level security;
alter table public.cart_items enable row level security;

create policy "Staff can manage banned domains" on public.banned_domains
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Staff can manage IP blocks" on public.ip_blocks
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Staff can manage the password dictionary" on public.password_dictionary
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Staff can manage TLD prices" on public.tld_prices
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Staff can manage access invitations" on public.access_invitations
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Staff can manage DNS zones" on public.dns_zones
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Staff can read webhook events" on public.webhook_events
  for select to authenticated
  using ((select app.is_staff()));

create policy "Users can manage their own cart" on public.shopping_carts
  for all to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "Staff can read every cart" on public.shopping_carts
  for select to authenticated
  using ((select app.is_staff()));

create policy "Users can manage the items in their own cart" on public.cart_items
  for all to authenticated
  using (cart_id in (select c.id from public.shopping_carts c where c.user_id = (select auth.uid())))
  with check (cart_id in (
    select c.id from public.shopping_carts c where c.user_id = (select auth.uid())
  ));

create policy "Staff can read every cart item" on public.cart_items
  for select to authenticated
  using ((select app.is_staff()));

revoke all on public.banned_domains, public.ip_blocks, public.password_dictionary,
  public.tld_prices, public.access_invitations, public.dns_zones, public.webhook_events,
  public.shopping_carts, public.cart_items from anon;
revoke truncate, references, trigger on public.banned_domains, public.ip_blocks,
  public.password_dictionary, public.tld_prices, public.access_invitations, public.dns_zones,
  public.webhook_events, public.shopping_carts, public.cart_items from authenticated;
-- Webhook events are stored by edge functions (service role) only.
revoke insert, update, delete on public.webhook_events from authenticated;

-- Nothing in `app` is executable by PUBLIC; the grants above are the deliberate ones.
revoke execute on all functions in schema app from public;
