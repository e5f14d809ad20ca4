-- The facts behind the `get-started` checklist (issue 13, item 4): which first steps the caller
-- has taken in their own (personal) account. One call answers them all, so the page does not
-- need read access to clicks, factors or other people's invitations: the function reads them
-- as its owner and answers only yes or no about the caller.

create function public.onboarding_progress()
returns table (
  link_created boolean,
  click_received boolean,
  domain_added boolean,
  two_factor_enabled boolean,
  team_invited boolean
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_account uuid;
begin
  select p.personal_account_id into v_account from public.profiles p where p.id = v_uid;
  return query select
    -- aliases_account_page_idx: the first row of the account's page.
    exists (select 1 from public.aliases a where a.account_id = v_account),
    -- Rolled-up hours first (primary key); raw clicks of the last day cover what the periodic
    -- rollup has not reached yet (the BRIN on time keeps that read short).
    exists (select 1 from public.account_click_stats_hourly s
            where s.account_id = v_account and s.clicks > s.bot_clicks)
      or exists (select 1 from public.clicks c
                 where c.account_id = v_account and not c.is_bot
                   and c.time >= now() - interval '1 day'),
    -- A branded domain or a vanity subdomain of the account's own, verified or not yet.
    exists (select 1 from public.domains d
            where d.account_id = v_account and d.kind = 'branded' and not d.is_deleted),
    app.has_verified_factor(v_uid),
    -- Anyone invited to a team (or an organization) by the caller, or a team the caller owns
    -- that has a member besides them.
    exists (select 1 from public.invitations i where i.inviter_id = v_uid)
      or exists (select 1 from public.teams t
                 join public.accounts ta on ta.id = t.account_id
                 join public.team_members m on m.team_id = t.id
                 where ta.owner_id = v_uid and m.user_id <> v_uid);
end;
$$;
comment on function public.onboarding_progress() is
  'The get-started checklist of the caller''s personal account: five first steps, taken or not.';
revoke execute on function public.onboarding_progress() from public, anon;
grant execute on function public.onboarding_progress() to authenticated;
