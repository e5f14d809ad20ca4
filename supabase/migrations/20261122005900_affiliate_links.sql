-- The affiliate-link option (issue 13, item 5; route affiliate-link, named affiliateOptionPop):
-- whether the product may turn a person's short links to shops with an affiliate programme into
-- affiliate links (the aliases' can_affiliate / no_affiliate states). Status flag 4 ("no
-- affiliate", profiles.status) is the person's "no"; staff set it in the kiosk, and the person
-- changes it here on their own account, like flag 8 for mailings (set_my_mailings).

create function public.set_my_affiliate_links(p_allow boolean) returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id uuid := (select auth.uid());
begin
  if v_user_id is null then
    raise exception using errcode = 'PT403', message = 'login_required',
      detail = 'Log in to change your affiliate link setting.';
  end if;
  if p_allow is null then
    raise exception using errcode = 'PT422', message = 'allow_required',
      detail = 'Say whether to allow affiliate links.', hint = 'allow';
  end if;
  update public.profiles
  set status = case when p_allow then status & ~4 else status | 4 end
  where id = v_user_id;
  return p_allow;
end;
$$;
comment on function public.set_my_affiliate_links(boolean) is
  'The caller allows (true) or refuses (false: status flag 4, no affiliate) affiliate links.';
revoke execute on function public.set_my_affiliate_links(boolean) from public, anon;
grant execute on function public.set_my_affiliate_links(boolean) to authenticated;
