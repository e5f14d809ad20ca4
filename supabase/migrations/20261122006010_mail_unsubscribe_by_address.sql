-- The unsubscribe link of product e-mails addressed by e-mail address (an invitation names an
-- address, not a person): the mailing token of the person with that address, made on first use,
-- or null when no account has it (such a mail is a one-off to someone who never signed up, and
-- carries no unsubscribe link). For the mail senders (service role) only.
create function app.mailing_unsubscribe_token_for_email(p_email text) returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_user_id uuid;
begin
  select u.id into v_user_id from auth.users u
  where lower(u.email) = lower(btrim(p_email))
  order by u.created_at
  limit 1;
  if v_user_id is null then
    return null;
  end if;
  return app.mailing_unsubscribe_token(v_user_id);
end;
$$;
revoke execute on function app.mailing_unsubscribe_token_for_email(text) from public;
grant execute on function app.mailing_unsubscribe_token_for_email(text) to service_role;
