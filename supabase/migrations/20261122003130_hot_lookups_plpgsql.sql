-- Two lookups every link creation makes, planned once per connection instead of once per call.
-- As SQL functions that cannot be inlined (security definer), PostgreSQL 17 parses and plans
-- their queries on every call; PL/pgSQL keeps the plans for the session. Same queries, same
-- answers.
--
-- app.account_price_id decides every plan option (app.account_limit) and the redirect's plan
-- lookups: creating one link asked it four times (one per plan limit), about 2 ms each on the
-- loaded bench machine, a fifth of create_link. app.hosts_refused (our own and banned domains)
-- runs twice per link created (the destination's check and its long URL's trigger).

create or replace function app.account_price_id(p_account_id uuid) returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    with candidates as (
      select 0 as rank, p_account_id as account_id
      union all
      select 1, o.account_id
      from public.teams t join public.organizations o on o.id = t.organization_id
      where t.account_id = p_account_id
    )
    select coalesce(
      (
        select s.price_id
        from candidates c
        join public.subscriptions s on s.account_id = c.account_id
        where s.type = 'default' and s.price_id is not null
          and (s.period_starts_at is null or s.period_starts_at <= now())
          and (s.ends_at is null or s.ends_at > now())
        order by c.rank, s.created_at desc
        limit 1
      ),
      (
        select pp.id
        from public.plans p join public.plan_prices pp on pp.plan_id = p.id
        where p.name = 'free' and pp.active
        order by pp.interval = 'yearly' desc
        limit 1
      )
    )
  );
end;
$$;

create or replace function app.hosts_refused(p_hosts text[])
returns table (host text, code text, reason text)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select x.host,
      case when x.own then 'url_not_allowed' else 'url_banned' end,
      case when x.own then 'own_domain' else 'banned' end
    from (
      select h.host,
        bool_or(exists (
          select 1 from public.domains d
          where d.domain = c.name
            and (d.kind = 'common' or (c.n = 1 and d.verification_status = 'verified'))
        )) as own,
        bool_or(exists (select 1 from public.banned_domains b where b.domain = c.name)) as banned
      from (select distinct u.host from unnest(p_hosts) as u(host) where u.host is not null) as h
      cross join lateral unnest(app.host_and_parents(h.host)) with ordinality as c(name, n)
      group by h.host
    ) as x
    where x.own or x.banned;
end;
$$;
