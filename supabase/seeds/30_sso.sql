-- Single sign-on is an Enterprise feature (migration 20261122005000 adds `sso` to the known
-- features); Acme, on Enterprise, may set it up with the stack's sandbox identity provider.
update public.plan_prices
set features = (features || '{sso}'::text[])::public.feature_list
where plan_id = '00000000-0000-4000-8000-000000000604' and not 'sso' = any (features);
