-- Demo data: plans, users, an organization with teams, billing, notifications, kiosk data.
--
-- Every demo user's password is: password123 (all e-mails confirmed unless noted)
--
--   id                                    e-mail                          who
--   00000000-0000-4000-8000-000000000101  free@shortlane.test             free plan
--   00000000-0000-4000-8000-000000000102  paid@shortlane.test             Pro, yearly, active
--   00000000-0000-4000-8000-000000000103  trial@shortlane.test            Pro, monthly, on trial (5 days left)
--   00000000-0000-4000-8000-000000000104  pastdue@shortlane.test          Pro, past-due trial user
--   00000000-0000-4000-8000-000000000105  staff@shortlane.test            staff (developer flag: kiosk)
--   00000000-0000-4000-8000-000000000106  owner@shortlane.test            owns organization "Acme" (Enterprise); Business personally
--   00000000-0000-4000-8000-000000000107  orguser@shortlane.test          Acme user with the limited role "Analyst" (audit, domains)
--   00000000-0000-4000-8000-000000000108  admin@shortlane.test            Marketing admin, Sales viewer
--   00000000-0000-4000-8000-000000000109  member@shortlane.test           Marketing member, Sales admin
--   00000000-0000-4000-8000-000000000110  viewer@shortlane.test           Marketing viewer, Sales member
--   00000000-0000-4000-8000-000000000111  unverified@shortlane.test       free plan, e-mail NOT confirmed
--
-- Organization Acme (slug acme):        00000000-0000-4000-8000-000000000201, account …-000000000301
-- Team Marketing (slug marketing):      00000000-0000-4000-8000-000000000501, account …-000000000311
-- Team Sales (slug sales):              00000000-0000-4000-8000-000000000502, account …-000000000312
-- Roles: Analyst …-000000000401 (audit, domains), Supervisor …-000000000402 (supervisor, teams)
-- Personal accounts are created by the sign-up trigger: find them through
-- profiles.personal_account_id.

-- ---------------------------------------------------------------------------------------------
-- Plans (figures for Enterprise from the spec, app-shell 9). Teams need the support_teams
-- feature (Business, Enterprise); Business caps them with max_teams / max_members, and an option
-- a price leaves out is unlimited.

insert into public.plans (id, name, "group", slide, popular, hidden, active, type, trial_days,
  trial_delay, trial_available, force_payment_method, custom, allow_interval_downgrade,
  force_billing_address)
values
  ('00000000-0000-4000-8000-000000000601', 'free', 'free', 0, false, false, true, 'user', 0, 0,
    false, false, false, true, false),
  ('00000000-0000-4000-8000-000000000602', 'pro', 'pro', 1, true, false, true, 'user', 7, 0,
    true, true, false, true, false),
  ('00000000-0000-4000-8000-000000000603', 'business', 'business', 2, false, false, true, 'user',
    7, 0, true, true, false, true, true),
  ('00000000-0000-4000-8000-000000000604', 'enterprise', 'enterprise', 3, false, false, true,
    'user', 0, 0, false, true, false, false, true);

insert into public.plan_prices (id, plan_id, interval, amount, currency, features, options,
  metered_by)
select v.id::uuid, v.plan_id::uuid, v.interval, v.amount, 'USD', v.features::public.feature_list,
  v.options::jsonb, v.metered_by
from (values
  ('00000000-0000-4000-8000-000000000611', '00000000-0000-4000-8000-000000000601', 'monthly', 0,
    '{create_tiny_url}',
    '{"max_redirects": 1000, "max_recent_urls": 10, "alias_lifetime": "P30D",
      "audit_retention": "P30D", "analytics_enabled": false, "analytics_public": false, "max_web_credits": 100,
      "max_active_aliases": 100, "max_aliases": 1000, "max_aliases_per_url": 1,
      "max_api_credits": 0, "max_aliases_per_month": 100, "max_trackable_clicks": 1000}', null),
  ('00000000-0000-4000-8000-000000000612', '00000000-0000-4000-8000-000000000601', 'yearly', 0,
    '{create_tiny_url}',
    '{"max_redirects": 1000, "max_recent_urls": 10, "alias_lifetime": "P30D",
      "audit_retention": "P30D", "analytics_enabled": false, "analytics_public": false, "max_web_credits": 100,
      "max_active_aliases": 100, "max_aliases": 1000, "max_aliases_per_url": 1,
      "max_api_credits": 0, "max_aliases_per_month": 100, "max_trackable_clicks": 1000}', null),
  ('00000000-0000-4000-8000-000000000621', '00000000-0000-4000-8000-000000000602', 'monthly', 1299,
    '{create_tiny_url,update_tiny_url,change_long_url,use_custom_alias,use_tags,use_analytics,manage_expiration,archive_tiny_url,delete_tiny_url,use_api,use_branded_domains,add_branded_domains,share_analytics}',
    '{"max_redirects": 50000, "max_recent_urls": 100, "alias_lifetime": "P1Y",
      "audit_retention": "P90D", "analytics_enabled": true, "analytics_public": false, "analytics_period": "P1Y",
      "max_web_credits": 5000, "max_active_aliases": 5000, "max_aliases": 20000,
      "max_aliases_per_url": 10, "max_api_credits": 5000, "max_domains": 1,
      "max_domains_subdomains": 1, "max_trackable_clicks": 50000,
      "max_branded_aliases_per_month": 500, "max_aliases_per_month": 500}', 'max_active_aliases'),
  ('00000000-0000-4000-8000-000000000622', '00000000-0000-4000-8000-000000000602', 'yearly', 12900,
    '{create_tiny_url,update_tiny_url,change_long_url,use_custom_alias,use_tags,use_analytics,manage_expiration,archive_tiny_url,delete_tiny_url,use_api,use_branded_domains,add_branded_domains,share_analytics}',
    '{"max_redirects": 50000, "max_recent_urls": 100, "alias_lifetime": "P1Y",
      "audit_retention": "P90D", "analytics_enabled": true, "analytics_public": false, "analytics_period": "P1Y",
      "max_web_credits": 5000, "max_active_aliases": 5000, "max_aliases": 20000,
      "max_aliases_per_url": 10, "max_api_credits": 5000, "max_domains": 1,
      "max_domains_subdomains": 1, "max_trackable_clicks": 50000,
      "max_branded_aliases_per_month": 500, "max_aliases_per_month": 500}', 'max_active_aliases'),
  ('00000000-0000-4000-8000-000000000631', '00000000-0000-4000-8000-000000000603', 'monthly', 4999,
    '{create_tiny_url,update_tiny_url,change_long_url,use_custom_alias,use_tags,use_analytics,manage_expiration,archive_tiny_url,delete_tiny_url,use_api,use_branded_domains,add_branded_domains,purchase_branded_domains,add_vanity_subdomains,share_analytics,use_bulk,download_logs,redirect_routes,domain_root_redirect,domain_404_redirect,support_teams}',
    '{"max_redirects": 500000, "max_recent_urls": 500, "alias_lifetime": "P1Y",
      "audit_retention": "P1Y", "analytics_enabled": true, "analytics_public": true, "analytics_period": "P1Y",
      "max_web_credits": 50000, "max_active_aliases": 50000, "max_aliases": 200000,
      "max_aliases_per_url": 50, "max_api_credits": 50000, "discounted_domain_count": 1,
      "max_vanity_subdomains": 1, "max_domains": 5, "max_subdomains": 5,
      "max_domains_subdomains": 10, "max_trackable_clicks": 500000,
      "max_branded_aliases_per_month": 5000, "max_aliases_per_month": 5000, "max_teams": 3,
      "max_members": 10}', 'max_active_aliases'),
  ('00000000-0000-4000-8000-000000000632', '00000000-0000-4000-8000-000000000603', 'yearly', 49900,
    '{create_tiny_url,update_tiny_url,change_long_url,use_custom_alias,use_tags,use_analytics,manage_expiration,archive_tiny_url,delete_tiny_url,use_api,use_branded_domains,add_branded_domains,purchase_branded_domains,add_vanity_subdomains,share_analytics,use_bulk,download_logs,redirect_routes,domain_root_redirect,domain_404_redirect,support_teams}',
    '{"max_redirects": 500000, "max_recent_urls": 500, "alias_lifetime": "P1Y",
      "audit_retention": "P1Y", "analytics_enabled": true, "analytics_public": true, "analytics_period": "P1Y",
      "max_web_credits": 50000, "max_active_aliases": 50000, "max_aliases": 200000,
      "max_aliases_per_url": 50, "max_api_credits": 50000, "discounted_domain_count": 1,
      "max_vanity_subdomains": 1, "max_domains": 5, "max_subdomains": 5,
      "max_domains_subdomains": 10, "max_trackable_clicks": 500000,
      "max_branded_aliases_per_month": 5000, "max_aliases_per_month": 5000, "max_teams": 3,
      "max_members": 10}', 'max_active_aliases'),
  -- Enterprise: 1799.00 / 17988.00 USD; 5,000,000 redirects, active aliases, API credits,
  -- trackable clicks, branded aliases per month and aliases per month; 15,000,000 aliases;
  -- alias lifetime 90 days; analytics period 2 years; 3 discounted domains; 1 vanity
  -- subdomain; 25 domains and subdomains; no trial.
  ('00000000-0000-4000-8000-000000000641', '00000000-0000-4000-8000-000000000604', 'monthly', 179900,
    '{create_tiny_url,update_tiny_url,change_long_url,archive_tiny_url,delete_tiny_url,use_api,use_branded_domains,purchase_branded_domains,add_branded_domains,add_vanity_subdomains,use_custom_alias,use_tags,use_analytics,share_analytics,domain_root_redirect,domain_404_redirect,webhooks,download_logs,use_bulk,manage_expiration,redirect_routes,support,dedicated_manager,emergency_phone,uptime_guarantee,support_teams}',
    '{"max_redirects": 5000000, "max_active_aliases": 5000000, "max_api_credits": 5000000,
      "max_trackable_clicks": 5000000, "max_branded_aliases_per_month": 5000000,
      "max_aliases_per_month": 5000000, "max_aliases": 15000000, "alias_lifetime": "P90D",
      "audit_retention": "P2Y",
      "analytics_enabled": true, "analytics_public": true, "analytics_period": "P2Y",
      "discounted_domain_count": 3, "max_vanity_subdomains": 1, "max_domains_subdomains": 25}',
    null),
  ('00000000-0000-4000-8000-000000000642', '00000000-0000-4000-8000-000000000604', 'yearly', 1798800,
    '{create_tiny_url,update_tiny_url,change_long_url,archive_tiny_url,delete_tiny_url,use_api,use_branded_domains,purchase_branded_domains,add_branded_domains,add_vanity_subdomains,use_custom_alias,use_tags,use_analytics,share_analytics,domain_root_redirect,domain_404_redirect,webhooks,download_logs,use_bulk,manage_expiration,redirect_routes,support,dedicated_manager,emergency_phone,uptime_guarantee,support_teams}',
    '{"max_redirects": 5000000, "max_active_aliases": 5000000, "max_api_credits": 5000000,
      "max_trackable_clicks": 5000000, "max_branded_aliases_per_month": 5000000,
      "max_aliases_per_month": 5000000, "max_aliases": 15000000, "alias_lifetime": "P90D",
      "audit_retention": "P2Y",
      "analytics_enabled": true, "analytics_public": true, "analytics_period": "P2Y",
      "discounted_domain_count": 3, "max_vanity_subdomains": 1, "max_domains_subdomains": 25}',
    null)
) as v(id, plan_id, interval, amount, features, options, metered_by);

-- ---------------------------------------------------------------------------------------------
-- Users, as GoTrue stores them (password grant works against these rows).

insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
  email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', v.id::uuid, 'authenticated', 'authenticated',
  v.email, extensions.crypt('password123', extensions.gen_salt('bf')),
  case when v.confirmed then now() end,
  '{"provider": "email", "providers": ["email"]}',
  jsonb_build_object('name', v.name), now(), now()
from (values
  ('00000000-0000-4000-8000-000000000101', 'free@shortlane.test', 'Fran Free', true),
  ('00000000-0000-4000-8000-000000000102', 'paid@shortlane.test', 'Pat Paid', true),
  ('00000000-0000-4000-8000-000000000103', 'trial@shortlane.test', 'Tess Trial', true),
  ('00000000-0000-4000-8000-000000000104', 'pastdue@shortlane.test', 'Dan Due', true),
  ('00000000-0000-4000-8000-000000000105', 'staff@shortlane.test', 'Sam Staff', true),
  ('00000000-0000-4000-8000-000000000106', 'owner@shortlane.test', 'Olivia Owner', true),
  ('00000000-0000-4000-8000-000000000107', 'orguser@shortlane.test', 'Oscar Orguser', true),
  ('00000000-0000-4000-8000-000000000108', 'admin@shortlane.test', 'Ada Admin', true),
  ('00000000-0000-4000-8000-000000000109', 'member@shortlane.test', 'Mia Member', true),
  ('00000000-0000-4000-8000-000000000110', 'viewer@shortlane.test', 'Vic Viewer', true),
  ('00000000-0000-4000-8000-000000000111', 'unverified@shortlane.test', 'Uma Unverified', false)
) as v(id, email, name, confirmed);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at,
  created_at, updated_at)
select u.id::text, u.id,
  jsonb_build_object('sub', u.id::text, 'email', u.email,
    'email_verified', u.email_confirmed_at is not null, 'phone_verified', false),
  'email', null, now(), now()
from auth.users u
where u.email like '%@shortlane.test';

update public.profiles set is_developer = true
where id = '00000000-0000-4000-8000-000000000105';
-- Fran opted out of mailings (status bit 8).
update public.profiles set status = 8
where id = '00000000-0000-4000-8000-000000000101';

-- ---------------------------------------------------------------------------------------------
-- Organization Acme with two roles, one organization user and two teams.

insert into public.accounts (id, kind, owner_id, name) values
  ('00000000-0000-4000-8000-000000000301', 'organization', '00000000-0000-4000-8000-000000000106', 'Acme'),
  ('00000000-0000-4000-8000-000000000311', 'team', '00000000-0000-4000-8000-000000000106', 'Marketing'),
  ('00000000-0000-4000-8000-000000000312', 'team', '00000000-0000-4000-8000-000000000106', 'Sales');

insert into public.organizations (id, account_id, slug, name) values
  ('00000000-0000-4000-8000-000000000201', '00000000-0000-4000-8000-000000000301', 'acme', 'Acme');

insert into public.organization_roles (id, organization_id, name, permissions) values
  ('00000000-0000-4000-8000-000000000401', '00000000-0000-4000-8000-000000000201', 'Analyst',
    '{audit,domains}'),
  ('00000000-0000-4000-8000-000000000402', '00000000-0000-4000-8000-000000000201', 'Supervisor',
    '{supervisor,teams}');

insert into public.organization_users (organization_id, user_id, role_id) values
  ('00000000-0000-4000-8000-000000000201', '00000000-0000-4000-8000-000000000107',
    '00000000-0000-4000-8000-000000000401');

insert into public.teams (id, account_id, organization_id, slug, name) values
  ('00000000-0000-4000-8000-000000000501', '00000000-0000-4000-8000-000000000311',
    '00000000-0000-4000-8000-000000000201', 'marketing', 'Marketing'),
  ('00000000-0000-4000-8000-000000000502', '00000000-0000-4000-8000-000000000312',
    '00000000-0000-4000-8000-000000000201', 'sales', 'Sales');

insert into public.team_members (team_id, user_id, role) values
  ('00000000-0000-4000-8000-000000000501', '00000000-0000-4000-8000-000000000108', 'admin'),
  ('00000000-0000-4000-8000-000000000501', '00000000-0000-4000-8000-000000000109', 'member'),
  ('00000000-0000-4000-8000-000000000501', '00000000-0000-4000-8000-000000000110', 'viewer'),
  ('00000000-0000-4000-8000-000000000502', '00000000-0000-4000-8000-000000000109', 'admin'),
  ('00000000-0000-4000-8000-000000000502', '00000000-0000-4000-8000-000000000110', 'member'),
  ('00000000-0000-4000-8000-000000000502', '00000000-0000-4000-8000-000000000108', 'viewer');

update public.profiles set current_team_id = '00000000-0000-4000-8000-000000000501', team_mode = true
where id = '00000000-0000-4000-8000-000000000108';

-- Fran has a pending invitation to Sales, sent by the Sales admin.
insert into public.invitations (id, team_id, email, team_role, message, inviter_id) values
  ('00000000-0000-4000-8000-000000000701', '00000000-0000-4000-8000-000000000502',
    'free@shortlane.test', 'member', 'Join us on Sales!', '00000000-0000-4000-8000-000000000109');

-- ---------------------------------------------------------------------------------------------
-- Subscriptions, billing customers, orders and invoices.

insert into public.subscriptions (account_id, plan_id, price_id, type, name, "group",
  billing_type, billing_id, interval, amount, currency, billing_status, trial_ends_at,
  period_starts_at, period_ends_at)
select coalesce(p.personal_account_id, v.account_id::uuid), pp.plan_id, pp.id, 'default', pl.name,
  pl."group", v.billing_type, v.billing_id, pp.interval, pp.amount, pp.currency,
  v.billing_status, v.trial_ends_at, v.period_starts_at, v.period_ends_at
from (values
  -- Pat: Pro yearly, active.
  ('00000000-0000-4000-8000-000000000102', null, '00000000-0000-4000-8000-000000000622', 1::smallint,
    'sub_demo_paid', 'active', null::timestamptz, now() - interval '30 days',
    now() + interval '335 days'),
  -- Tess: Pro monthly, trialing with 5 days left.
  ('00000000-0000-4000-8000-000000000103', null, '00000000-0000-4000-8000-000000000621', 2::smallint,
    'sub_demo_trial', 'trialing', now() + interval '5 days', now() - interval '2 days',
    now() + interval '5 days'),
  -- Dan: past-due trial user (trial end equals period start).
  ('00000000-0000-4000-8000-000000000104', null, '00000000-0000-4000-8000-000000000621', 1::smallint,
    'sub_demo_pastdue', 'past_due', date_trunc('day', now()) - interval '3 days',
    date_trunc('day', now()) - interval '3 days', date_trunc('day', now()) + interval '27 days'),
  -- Olivia personally: Business yearly (support_teams: she may create organizations).
  ('00000000-0000-4000-8000-000000000106', null, '00000000-0000-4000-8000-000000000632', 1::smallint,
    'sub_demo_owner', 'active', null, now() - interval '60 days', now() + interval '305 days'),
  -- Acme: Enterprise yearly.
  (null, '00000000-0000-4000-8000-000000000301', '00000000-0000-4000-8000-000000000642', 1::smallint,
    'sub_demo_acme', 'active', null, now() - interval '90 days', now() + interval '275 days')
) as v(user_id, account_id, price_id, billing_type, billing_id, billing_status, trial_ends_at,
  period_starts_at, period_ends_at)
join public.plan_prices pp on pp.id = v.price_id::uuid
join public.plans pl on pl.id = pp.plan_id
left join public.profiles p on p.id = v.user_id::uuid;

insert into public.billing_customers (account_id, billing_type, billing_id, pm_type,
  pm_last_four, pm_expiration, pm_country, is_preferred)
select p.personal_account_id, 1, 'cus_demo_paid', 'visa', '4242', '12/2030', 'US', true
from public.profiles p where p.id = '00000000-0000-4000-8000-000000000102'
union all
select p.personal_account_id, 2, 'ctm_demo_trial', 'mastercard', '4444', '06/2029', 'DE', true
from public.profiles p where p.id = '00000000-0000-4000-8000-000000000103'
union all
select '00000000-0000-4000-8000-000000000301', 1, 'cus_demo_acme', 'amex', '0005', '01/2031', 'US',
  true;

insert into public.orders (id, account_id, user_id, status, billing_type, billing_id, amount,
  currency, purchase_source)
select '00000000-0000-4000-8000-000000000801'::uuid, p.personal_account_id, p.id, 48, 1,
  'ord_demo_paid', 12900, 'USD', 'default'
from public.profiles p where p.id = '00000000-0000-4000-8000-000000000102'
union all
select '00000000-0000-4000-8000-000000000802'::uuid, p.personal_account_id, p.id, 19, 1,
  'ord_demo_review', 2598, 'USD', 'default'
from public.profiles p where p.id = '00000000-0000-4000-8000-000000000102';

insert into public.order_items (order_id, kind, description, quantity, amount) values
  ('00000000-0000-4000-8000-000000000801', 'subscription', 'Pro (yearly)', 1, 12900),
  ('00000000-0000-4000-8000-000000000802', 'domain', 'pat-links.com (2 years)', 1, 2598);

insert into public.invoices (account_id, subscription_id, order_id, billing_type, billing_id,
  number, amount, currency, status, issued_at, paid_at)
select s.account_id, s.id, '00000000-0000-4000-8000-000000000801', 1, 'in_demo_paid',
  'SL-2026-0001', 12900, 'USD', 'paid', now() - interval '30 days', now() - interval '30 days'
from public.subscriptions s where s.billing_id = 'sub_demo_paid';

-- The sale coupon has no dates of its own: the billing function applies it during the sale
-- calendar's phases only (shared/src/sale-calendar.ts), whose dates configuration may move.
insert into public.coupons (code, percent_off, intervals, starts_at, ends_at) values
  ('BLACKFRIDAY2024', 30, '{yearly}', null, null),
  ('WELCOME10', 10, '{monthly,yearly}', null, null);
insert into public.coupons (code, amount_off, currency) values ('SAVE5', 500, 'USD');

-- Fran is close to the free plan's active-alias limit.
insert into public.account_usage (account_id, name, used, soft_limit)
select p.personal_account_id, 'max_active_aliases', 80, 90
from public.profiles p where p.id = '00000000-0000-4000-8000-000000000101';

-- ---------------------------------------------------------------------------------------------
-- Notifications, announcements and the onboarding survey.

insert into public.notifications (user_id, type, title, body, read_at) values
  ('00000000-0000-4000-8000-000000000101', 'bulk.finished', 'Your import has finished',
    '12 links were created.', null),
  ('00000000-0000-4000-8000-000000000101', 'usage.warning', 'You have used 80% of your links',
    'Upgrade to keep shortening.', now() - interval '1 day'),
  ('00000000-0000-4000-8000-000000000102', 'billing.renewed', 'Your subscription renewed', null,
    null);

insert into public.announcements (title, body, published_at, created_by) values
  ('Tags are here', 'Organise your links with tags.', now() - interval '7 days',
    '00000000-0000-4000-8000-000000000105'),
  ('Branded domains', 'Use your own domain for short links.', now() - interval '1 day',
    '00000000-0000-4000-8000-000000000105'),
  ('Coming soon (draft)', 'Not published yet.', null, '00000000-0000-4000-8000-000000000105');

insert into public.surveys (id, name, title, is_active) values
  ('00000000-0000-4000-8000-000000000901', 'onboarding', 'Tell us about you', true);
insert into public.survey_questions (survey_id, position, prompt, kind, choices, required) values
  ('00000000-0000-4000-8000-000000000901', 0, 'What will you use short links for?', 'single',
    '{Marketing,"Social media",Personal,Other}', true),
  ('00000000-0000-4000-8000-000000000901', 1, 'Which features matter to you?', 'multiple',
    '{Analytics,"Branded domains",API,"Bulk creation"}', false),
  ('00000000-0000-4000-8000-000000000901', 2, 'Anything else?', 'text', '{}', false);

-- ---------------------------------------------------------------------------------------------
-- Kiosk data.

insert into public.tld_prices (tld, currency, cost_amount, overprice_amount) values
  ('com', 'USD', 1099, 200),
  ('net', 'USD', 1299, 200),
  ('io', 'USD', 3999, 500),
  ('co.uk', 'USD', 899, 200);

insert into public.banned_domains (domain, reason, created_by) values
  ('malware.test', 'Distributes malware', '00000000-0000-4000-8000-000000000105'),
  ('phishing.test', 'Phishing', '00000000-0000-4000-8000-000000000105');

insert into public.ip_blocks (range, reason, created_by) values
  ('203.0.113.0/24', 'Abuse from this range', '00000000-0000-4000-8000-000000000105'),
  ('198.51.100.7/32', 'Spam', '00000000-0000-4000-8000-000000000105');

insert into public.password_dictionary (word) values
  ('password'), ('123456'), ('qwerty'), ('letmein'), ('shortlane');

insert into public.dns_zones (zone_id, name, status, nameservers) values
  ('zone_demo_1', 'shl.test', 'active', '{ns1.example.net,ns2.example.net}');

insert into public.access_invitations (email, token_hash, note, invited_by) values
  ('beta@shortlane.test', encode(extensions.digest('demo-access-token', 'sha256'), 'hex'),
    'Beta tester', '00000000-0000-4000-8000-000000000105');

insert into public.shopping_carts (id, user_id) values
  ('00000000-0000-4000-8000-000000000951', '00000000-0000-4000-8000-000000000102');
insert into public.cart_items (cart_id, domain, years) values
  ('00000000-0000-4000-8000-000000000951', 'pat-links.io', 1);

insert into public.webhook_events (provider, event_id, type, payload, processed_at) values
  ('billing-1', 'evt_demo_1', 'subscription.created', '{"subscription": "sub_demo_paid"}', now());
