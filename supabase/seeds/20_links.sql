-- Demo data for the link side: domains, links with tags, expiries and statuses, UTM presets, an
-- API token, a bulk job, an alias route, and about 300,000 clicks over the last 30 days (set-based,
-- then rolled up). Runs after 10_accounts.sql, whose fixed user, team and organization ids it uses.
--
-- Common domains (all verified; *.localhost resolves to this machine):
--   shrt.localhost   guests may use it, and may type their own alias
--   tiny.localhost   guests may use it, random aliases only
--   go.localhost     needs a verified e-mail address (or a subscription)
--   pro.localhost    subscribers only (outside organizations)
--   old.localhost    disabled: hidden from every domain list
-- Branded: pat-links.localhost (Pat, Pro). Vanity subdomain: olivia.shrt.localhost (Olivia,
-- Business). Organization Acme: acme.localhost (all teams), mkt.acme.localhost (Marketing only).
--
-- Demo API token for Pat (local use only): slt_demo_pat_0000000000000000000000000000000000000000

select setseed(0.2026);

-- ---------------------------------------------------------------------------------------------
-- Who is who (personal accounts come from the sign-up trigger).

create temporary table demo_people on commit drop as
select v.key, v.user_id::uuid as user_id, coalesce(p.personal_account_id, v.account_id::uuid) as account_id
from (values
  ('fran', '00000000-0000-4000-8000-000000000101', null),
  ('pat', '00000000-0000-4000-8000-000000000102', null),
  ('tess', '00000000-0000-4000-8000-000000000103', null),
  ('olivia', '00000000-0000-4000-8000-000000000106', null),
  ('uma', '00000000-0000-4000-8000-000000000111', null),
  -- Team links: made by a team member, owned by the team's account.
  ('marketing-admin', '00000000-0000-4000-8000-000000000108', '00000000-0000-4000-8000-000000000311'),
  ('marketing-member', '00000000-0000-4000-8000-000000000109', '00000000-0000-4000-8000-000000000311'),
  ('sales-admin', '00000000-0000-4000-8000-000000000109', '00000000-0000-4000-8000-000000000312'),
  ('sales-member', '00000000-0000-4000-8000-000000000110', '00000000-0000-4000-8000-000000000312'),
  -- Olivia's personal links made in Acme's organization mode.
  ('olivia-in-acme', '00000000-0000-4000-8000-000000000106', null),
  ('guest', null, null)
) as v(key, user_id, account_id)
left join public.profiles p on p.id = v.user_id::uuid and v.account_id is null;

-- ---------------------------------------------------------------------------------------------
-- Domains.

insert into public.domains (id, domain, kind, account_id, base_domain_id, is_disabled,
  require_email_verification, subscribed_only, allow_for_guests, guest_can_use_custom_alias,
  for_all_teams, root_redirect_url, not_found_redirect_url, redirect_status,
  verification_status, verified_at)
values
  ('00000000-0000-4000-8000-000000001001', 'shrt.localhost', 'common', null, null, false, false,
    false, true, true, true, null, null, 301, 'verified', now()),
  ('00000000-0000-4000-8000-000000001002', 'tiny.localhost', 'common', null, null, false, false,
    false, true, false, true, null, null, 301, 'verified', now()),
  ('00000000-0000-4000-8000-000000001003', 'go.localhost', 'common', null, null, false, true,
    false, false, false, true, null, null, 301, 'verified', now()),
  ('00000000-0000-4000-8000-000000001004', 'pro.localhost', 'common', null, null, false, false,
    true, false, false, true, null, null, 302, 'verified', now()),
  ('00000000-0000-4000-8000-000000001005', 'old.localhost', 'common', null, null, true, false,
    false, true, false, true, null, null, 301, 'verified', now());

insert into public.domains (id, domain, kind, account_id, base_domain_id, for_all_teams,
  root_redirect_url, not_found_redirect_url, redirect_status, verification_status, verified_at)
select v.id::uuid, v.domain, v.kind, p.account_id, v.base::uuid, v.for_all_teams, v.root, v.not_found,
  v.status, 'verified', now()
from (values
  ('00000000-0000-4000-8000-000000001011', 'pat-links.localhost', 'branded', 'pat', null, true,
    'https://pat.example.com/', null, 301),
  ('00000000-0000-4000-8000-000000001012', 'olivia.shrt.localhost', 'branded', 'olivia',
    '00000000-0000-4000-8000-000000001001', true, null, null, 301)
) as v(id, domain, kind, owner, base, for_all_teams, root, not_found, status)
join demo_people p on p.key = v.owner;

insert into public.domains (id, domain, kind, account_id, for_all_teams, root_redirect_url,
  not_found_redirect_url, redirect_status, verification_status, verified_at)
values
  ('00000000-0000-4000-8000-000000001021', 'acme.localhost', 'organization',
    '00000000-0000-4000-8000-000000000301', true, 'https://acme.example.com/',
    'https://acme.example.com/not-found', 301, 'verified', now()),
  ('00000000-0000-4000-8000-000000001022', 'mkt.acme.localhost', 'organization',
    '00000000-0000-4000-8000-000000000301', false, null, null, 302, 'verified', now());
insert into public.domain_teams (domain_id, team_id) values
  ('00000000-0000-4000-8000-000000001022', '00000000-0000-4000-8000-000000000501');

-- ---------------------------------------------------------------------------------------------
-- Hand-written links: the ones screens and tests talk about.

create temporary table demo_links on commit drop as
select v.id::uuid as id, v.owner, v.domain, v.alias, v.url, v.status, v.tags::text[] as tags,
  case when v.expires is null then null else now() + v.expires::interval end as expires_at,
  v.description, now() - v.age::interval as created_at
from (values
  -- Fran (free): random aliases on guest-friendly domains.
  ('00000000-0000-4000-8000-000000002001', 'fran', 'shrt.localhost', 'k3v9x2ab', 'https://en.wikipedia.org/wiki/URL_shortening', 'active', '{}', null, null, '40 days'),
  ('00000000-0000-4000-8000-000000002002', 'fran', 'shrt.localhost', 'p8q2m7cd', 'https://developer.mozilla.org/en-US/docs/Web/HTTP/Redirections', 'active', '{}', null, null, '33 days'),
  ('00000000-0000-4000-8000-000000002003', 'fran', 'tiny.localhost', 'z5r1t6ef', 'https://www.openstreetmap.org/#map=12/52.5200/13.4050', 'active', '{}', null, null, '21 days'),
  ('00000000-0000-4000-8000-000000002004', 'fran', 'go.localhost', 'h4n8w3gh', 'https://news.ycombinator.com/item?id=1', 'archived', '{}', null, null, '50 days'),
  ('00000000-0000-4000-8000-000000002005', 'fran', 'shrt.localhost', 'b7c2d9ij', 'https://example.org/old-page', 'deleted', '{}', null, null, '55 days'),
  -- Pat (Pro): custom aliases, tags, expiries, a branded domain.
  ('00000000-0000-4000-8000-000000002101', 'pat', 'pat-links.localhost', 'spring-launch', 'https://pat.example.com/launch?utm_source=newsletter&utm_medium=email&utm_campaign=spring', 'active', '{launch,newsletter}', null, null, '45 days'),
  ('00000000-0000-4000-8000-000000002102', 'pat', 'pat-links.localhost', 'portfolio', 'https://pat.example.com/portfolio', 'active', '{social}', null, null, '44 days'),
  ('00000000-0000-4000-8000-000000002103', 'pat', 'pro.localhost', 'webinar-oct', 'https://events.example.com/webinars/october', 'active', '{marketing,q4-campaign}', '20 days', null, '38 days'),
  ('00000000-0000-4000-8000-000000002104', 'pat', 'pro.localhost', 'black-friday', 'https://shop.example.com/deals/black-friday', 'active', '{marketing,q4-campaign}', '3 days', null, '30 days'),
  ('00000000-0000-4000-8000-000000002105', 'pat', 'shrt.localhost', 'pat-cv', 'https://pat.example.com/cv.pdf', 'active', '{}', null, null, '60 days'),
  ('00000000-0000-4000-8000-000000002106', 'pat', 'pat-links.localhost', 'summer-sale', 'https://shop.example.com/summer', 'archived', '{marketing}', null, null, '80 days'),
  ('00000000-0000-4000-8000-000000002107', 'pat', 'pro.localhost', 'flash-sale', 'https://shop.example.com/flash', 'active', '{marketing}', '-2 days', null, '25 days'),
  ('00000000-0000-4000-8000-000000002108', 'pat', 'go.localhost', 'typo-link', 'https://pat.example.com/typo', 'deleted', '{}', null, null, '15 days'),
  ('00000000-0000-4000-8000-000000002109', 'pat', 'pat-links.localhost', 'podcast', 'https://podcast.example.com/episodes/42', 'active', '{social,launch}', null, null, '12 days'),
  ('00000000-0000-4000-8000-000000002110', 'pat', 'pat-links.localhost', 'newsletter', 'https://pat.example.com/newsletter/subscribe', 'can_affiliate', '{newsletter}', null, null, '9 days'),
  ('00000000-0000-4000-8000-000000002111', 'pat', 'pro.localhost', 'reported', 'https://sketchy.example.net/free-money', 'terminated', '{}', null, null, '70 days'),
  -- Tess (trial) and Uma (unverified).
  ('00000000-0000-4000-8000-000000002201', 'tess', 'pro.localhost', 'tess-demo', 'https://tess.example.com/demo', 'active', '{}', null, null, '2 days'),
  ('00000000-0000-4000-8000-000000002202', 'uma', 'shrt.localhost', 'u4m9a2kk', 'https://uma.example.com/', 'active', '{}', null, null, '5 days'),
  -- Olivia (Business) personally, on her vanity subdomain.
  ('00000000-0000-4000-8000-000000002301', 'olivia', 'olivia.shrt.localhost', 'talk', 'https://olivia.example.com/talks/keynote', 'active', '{talks}', null, null, '35 days'),
  ('00000000-0000-4000-8000-000000002302', 'olivia', 'olivia.shrt.localhost', 'book', 'https://olivia.example.com/book', 'no_affiliate', '{}', null, null, '31 days'),
  -- Olivia's personal link made in Acme (organization mode: a description).
  ('00000000-0000-4000-8000-000000002303', 'olivia-in-acme', 'acme.localhost', 'board-deck', 'https://docs.example.com/acme/board-deck', 'active', '{}', null, 'Quarterly board deck', '10 days'),
  -- Marketing (Acme): descriptions, tags, the team-only domain.
  ('00000000-0000-4000-8000-000000002401', 'marketing-admin', 'mkt.acme.localhost', 'spring-sale', 'https://acme.example.com/spring-sale?utm_source=ads&utm_medium=cpc&utm_campaign=spring', 'active', '{spring-sale,ads}', '90 days', 'Paid search landing page', '42 days'),
  ('00000000-0000-4000-8000-000000002402', 'marketing-admin', 'acme.localhost', 'newsletter-nov', 'https://acme.example.com/newsletter/november', 'active', '{email}', null, 'November newsletter', '28 days'),
  ('00000000-0000-4000-8000-000000002403', 'marketing-member', 'acme.localhost', 'webinar', 'https://acme.example.com/webinar', 'active', '{email,ads}', '30 days', 'Webinar sign-up', '20 days'),
  ('00000000-0000-4000-8000-000000002404', 'marketing-member', 'mkt.acme.localhost', 'old-promo', 'https://acme.example.com/promo-2025', 'archived', '{ads}', null, null, '85 days'),
  -- Sales (Acme).
  ('00000000-0000-4000-8000-000000002501', 'sales-admin', 'acme.localhost', 'pricing', 'https://acme.example.com/pricing', 'active', '{}', null, 'Pricing page for prospects', '37 days'),
  ('00000000-0000-4000-8000-000000002502', 'sales-member', 'acme.localhost', 'demo-booking', 'https://calendar.example.com/acme/demo', 'active', '{}', null, null, '16 days'),
  -- Guests.
  ('00000000-0000-4000-8000-000000002601', 'guest', 'shrt.localhost', 'g7h2k9mn', 'https://www.example.com/guest-page', 'active', '{}', null, null, '26 days'),
  ('00000000-0000-4000-8000-000000002602', 'guest', 'tiny.localhost', 'r2d2c3po', 'https://www.example.com/another-guest-page', 'active', '{}', null, null, '7 days')
) as v(id, owner, domain, alias, url, status, tags, expires, description, age);

-- Pat also has a long list (more than one 50-row page).
insert into demo_links (id, owner, domain, alias, url, status, tags, expires_at, description, created_at)
select gen_random_uuid(), 'pat', 'pat-links.localhost', 'post-' || g,
  'https://blog.example.com/posts/' || g || '-notes-on-' ||
    (array['redirects', 'analytics', 'branding', 'qr-codes', 'campaigns'])[1 + g % 5],
  case when g % 17 = 0 then 'archived' else 'active' end,
  case when g % 3 = 0 then '{blog}'::text[] else '{}'::text[] end,
  null, null, now() - make_interval(days => 90 - g, hours => g % 24)
from generate_series(1, 72) as g;

insert into public.long_urls (account_id, url, status, created_at)
select distinct on (p.account_id, l.url) p.account_id, l.url,
  case when l.status = 'terminated' then 'terminated' else 'active' end, l.created_at
from demo_links l join demo_people p on p.key = l.owner
order by p.account_id, l.url, l.created_at;

insert into public.aliases (id, long_url_id, account_id, domain_id, alias, is_main, status,
  expires_at, description, created_by, organization_id, created_at, updated_at)
select l.id, u.id, p.account_id, d.id, l.alias,
  row_number() over (partition by u.id order by l.created_at) = 1,
  l.status, l.expires_at, l.description, p.user_id,
  case when p.key like 'marketing-%' or p.key like 'sales-%' or p.key = 'olivia-in-acme'
    then '00000000-0000-4000-8000-000000000201'::uuid end,
  l.created_at, l.created_at
from demo_links l
join demo_people p on p.key = l.owner
join public.domains d on d.domain = l.domain
join public.long_urls u on u.account_id is not distinct from p.account_id and u.url = l.url;

insert into public.tags (account_id, name)
select distinct p.account_id, t
from demo_links l join demo_people p on p.key = l.owner cross join unnest(l.tags) as t;

insert into public.alias_tags (alias_id, tag_id, account_id)
select l.id, t.id, p.account_id
from demo_links l
join demo_people p on p.key = l.owner
cross join unnest(l.tags) as n(name)
join public.tags t on t.account_id = p.account_id and t.name = n.name;

-- ---------------------------------------------------------------------------------------------
-- UTM presets (the spec's two fixed demo presets, A and B), an API token, a bulk job, a route.

insert into public.utm_presets (account_id, created_by, name, utm_source, utm_medium,
  utm_campaign, utm_term, utm_content)
select p.account_id, p.user_id, v.name, v.source, v.medium, v.campaign, v.term, v.content
from (values
  ('pat', 'Preset A', 'newsletter', 'email', 'spring_launch', null, 'header_link'),
  ('pat', 'Preset B', 'facebook', 'social', 'black_friday', 'deals', null),
  ('marketing-admin', 'Paid search', 'google', 'cpc', 'spring_sale', 'running shoes', 'ad_1')
) as v(owner, name, source, medium, campaign, term, content)
join demo_people p on p.key = v.owner;

insert into public.api_tokens (account_id, created_by, name, token_hash, token_prefix, abilities,
  last_used_at)
select p.account_id, p.user_id, 'Zapier', sha256(convert_to(
    'slt_demo_pat_0000000000000000000000000000000000000000', 'UTF8')),
  'slt_demo_p', '{analytics:read,links:read,links:write}', now() - interval '3 hours'
from demo_people p where p.key = 'pat';

insert into public.bulk_jobs (account_id, created_by, organization_id, domain_id, file_path,
  with_header, status, total, processed, errors, created_at, started_at, finished_at)
select p.account_id, p.user_id, '00000000-0000-4000-8000-000000000201',
  '00000000-0000-4000-8000-000000001021', p.user_id || '/spring-campaign.csv', true, 'completed',
  12, 12, '{"4": {"url": ["The url must be a valid URL."]}, "9": {"alias": ["The new alias is not unique"]}}',
  now() - interval '6 days', now() - interval '6 days', now() - interval '6 days' + interval '40 seconds'
from demo_people p where p.key = 'marketing-admin';

insert into public.alias_routes (id, alias_id, account_id, position, url, url_condition_id)
values ('00000000-0000-4000-8000-000000003001', '00000000-0000-4000-8000-000000002401',
  '00000000-0000-4000-8000-000000000311', 0, 'https://acme.example.com/de/spring-sale', 'any');
insert into public.alias_route_rules (route_id, account_id, position, value_id, condition_id,
  operation_id, operands)
values
  ('00000000-0000-4000-8000-000000003001', '00000000-0000-4000-8000-000000000311', 0, 'country',
    'if', 'in', '{DE,AT,CH}'),
  ('00000000-0000-4000-8000-000000003001', '00000000-0000-4000-8000-000000000311', 1, 'device',
    'if', 'equals', '{mobile}');

-- ---------------------------------------------------------------------------------------------
-- Clicks: demo.add_clicks(n) adds n clicks over the last 30 days to the live links, with a long
-- tail (a few links get most clicks), more in daytime (UTC) and more recently, realistic
-- countries, devices, browsers, operating systems and referrers, about 5% bots and 6% QR scans.
-- Set-based and reusable: bench/db.ts calls it on a far larger link set. Schema `demo` exists
-- only where seeds ran (local stacks), never in production.

create schema if not exists demo;
revoke all on schema demo from public;

create or replace function demo.add_clicks(p_count integer, p_days integer default 30)
returns bigint
language plpgsql
set search_path = ''
-- The targets' hash table (one row per live link) stays in memory.
set work_mem = '256MB'
as $$
declare
  v_inserted bigint;
begin
  with targets as materialized (
    -- A stable shuffle: which links are popular does not follow creation order.
    select a.id, a.account_id, (row_number() over (order by md5(a.id::text)))::integer as rank
    from public.aliases a
    where a.status not in ('deleted', 'terminated')
  ),
  draws as (
    select
      -- The power skews clicks towards the first ranks: a long tail.
      1 + floor(power(random(), 2.5) * (select count(*) from targets))::integer as rank,
      -- A day (recent ones likelier) and a UTC hour (daytime likelier).
      date_trunc('day', now(), 'UTC')
        - make_interval(days => floor(power(random(), 1.3) * p_days)::integer)
        + make_interval(hours => (array[0, 1, 5, 6, 7, 8, 8, 9, 9, 10, 10, 11, 12, 12, 13, 13,
            14, 14, 15, 15, 16, 16, 17, 18, 19, 19, 20, 20, 21, 22, 23])[1 + floor(random() * 31)::integer])
        + random() * interval '1 hour' as slot,
      random() as r_country, random() as r_agent, random() as r_referrer, random() as r_qr,
      random() as r_visitor
    from generate_series(1, p_count)
  ),
  inserted as (
    insert into public.clicks (time, alias_id, account_id, country, device, browser, os,
      referrer_host, is_bot, is_qr, ip_hash)
    select
      -- A time still ahead today moves to yesterday.
      case when d.slot > now() then d.slot - interval '1 day' else d.slot end, t.id, t.account_id,
      nullif(countries[1 + floor(d.r_country * cardinality(countries))::integer], ''),
      split_part(agent, '|', 1), split_part(agent, '|', 3), split_part(agent, '|', 2),
      case when d.r_qr < 0.06 then null
        else nullif(referrers[1 + floor(d.r_referrer * cardinality(referrers))::integer], '') end,
      split_part(agent, '|', 4) = 'bot',
      d.r_qr < 0.06 and split_part(agent, '|', 4) <> 'bot',
      sha256(int4send(floor(d.r_visitor * 60000)::integer))
    from draws d
    join targets t on t.rank = d.rank
    cross join lateral (select
      array['US', 'US', 'US', 'US', 'US', 'US', 'US', 'US', 'GB', 'GB', 'GB', 'DE', 'DE', 'DE',
        'IN', 'IN', 'IN', 'FR', 'FR', 'BR', 'BR', 'CA', 'CA', 'AU', 'JP', 'NL', 'ES', 'IT', 'MX',
        'PL', 'SE', 'CH', 'AT', 'NG', 'ZA', 'KR', ''] as countries,
      array['', '', '', '', '', '', '', 'google.com', 'google.com', 'google.com', 'google.com',
        't.co', 't.co', 'facebook.com', 'facebook.com', 'linkedin.com', 'linkedin.com',
        'instagram.com', 'reddit.com', 'youtube.com', 'bing.com', 'duckduckgo.com',
        'mail.google.com', 'slack.com', 'news.ycombinator.com', 'outlook.live.com'] as referrers
    ) as lists
    cross join lateral (select (array[
      'desktop|Windows|Chrome|', 'desktop|Windows|Chrome|', 'desktop|Windows|Chrome|',
      'desktop|Windows|Edge|', 'desktop|Windows|Firefox|', 'desktop|macOS|Chrome|',
      'desktop|macOS|Safari|', 'desktop|macOS|Safari|', 'desktop|Linux|Firefox|',
      'mobile|iOS|Safari|', 'mobile|iOS|Safari|', 'mobile|iOS|Safari|', 'mobile|iOS|Chrome|',
      'mobile|Android|Chrome|', 'mobile|Android|Chrome|', 'mobile|Android|Chrome|',
      'mobile|Android|Samsung Internet|', 'tablet|iPadOS|Safari|', 'tablet|Android|Chrome|',
      'desktop|Windows|Opera|', 'other|Linux|Googlebot|bot'
      ])[1 + floor(d.r_agent * 21)::integer] as agent
    ) as agents
    returning 1
  )
  select count(*) into v_inserted from inserted;
  return v_inserted;
end;
$$;

select demo.add_clicks(300000);
select app.rollup_clicks(now() - interval '31 days', now() + interval '1 hour');
