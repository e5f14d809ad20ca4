-- The cart read (public.shopping_cart(), the portal's "cart refresh") needs a base common domain
-- (app-shell 8, "Cart refresh without base common domains: rejected with 'Permission denied'"):
-- while the service offers none (every `is_base` common domain disabled, deleted or blocked,
-- e.g. during a move of its domains), the cart answers 403 permission_denied, the contract's
-- coded error, instead of a cart that could not be served. Otherwise as in 20261122005700.

create or replace function public.shopping_cart() returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.domains d
      where d.kind = 'common' and d.is_base
        and not (d.is_disabled or d.is_deleted or d.is_blocked)) then
    perform app.raise_coded('permission_denied');
  end if;
  return (
    select jsonb_build_object(
      'items', coalesce(jsonb_agg(jsonb_build_object('id', l.id, 'domain', l.domain,
        'years', l.years, 'yearly_amount', l.yearly_amount, 'discount', l.discount,
        'amount', l.amount, 'currency', l.currency) order by l.created_at, l.domain), '[]'),
      'total', coalesce(sum(l.amount), 0),
      'currency', coalesce(min(l.currency), 'USD'),
      'discounts_left', app.domain_discounts_left(app.user_personal_account(auth.uid())))
    from app.cart_lines(auth.uid()) l
    where auth.uid() is not null);
end;
$$;
