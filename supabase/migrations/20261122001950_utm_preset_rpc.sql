-- create_utm_preset: the UTM builder's "save as preset" (link-creation 4, 5, 7 and 8).
--
-- The builder shows a 422 answer as field errors on its form, so the rules are checked here with
-- the builder's messages ('The utm {field} field is required.', 'The utm {field} must not be
-- greater than {n}.') instead of leaving them to the table's check constraints, whose 400/409
-- answers name no field. Every refusal is errcode PT422, message 'utm_preset_invalid', the
-- sentence in detail and the field in hint.
--
-- Security invoker: the insert policy on utm_presets already says who may save a preset (those
-- who may create links in the account); the explicit permission check only gives that refusal
-- the 'permission_denied' code instead of a bare RLS error.

create function app.utm_preset_error(p_field text, p_message text) returns void
language plpgsql volatile
set search_path = ''
as $$
begin
  raise exception using errcode = 'PT422', message = 'utm_preset_invalid', detail = p_message,
    hint = p_field;
end;
$$;

-- A trimmed value within its length; null when empty and optional.
create function app.utm_preset_value(
  p_field text, p_value text, p_required boolean, p_max_length integer
) returns text
language plpgsql immutable
set search_path = ''
as $$
declare
  v_value text := nullif(btrim(coalesce(p_value, '')), '');
  -- "utm_source" is called "utm source" in the messages.
  v_label text := replace(p_field, '_', ' ');
begin
  if v_value is null then
    if p_required then
      perform app.utm_preset_error(p_field, format('The %s field is required.', v_label));
    end if;
    return null;
  end if;
  if char_length(v_value) > p_max_length then
    perform app.utm_preset_error(
      p_field, format('The %s must not be greater than %s.', v_label, p_max_length));
  end if;
  return v_value;
end;
$$;

create function public.create_utm_preset(
  p_account_id uuid,
  p_name text,
  p_utm_source text,
  p_utm_medium text,
  p_utm_campaign text,
  p_utm_term text default null,
  p_utm_content text default null
) returns public.utm_presets
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_name text := nullif(btrim(coalesce(p_name, '')), '');
  v_source text := app.utm_preset_value('utm_source', p_utm_source, true, 100);
  v_medium text := app.utm_preset_value('utm_medium', p_utm_medium, true, 50);
  v_campaign text := app.utm_preset_value('utm_campaign', p_utm_campaign, true, 150);
  v_term text := app.utm_preset_value('utm_term', p_utm_term, false, 50);
  v_content text := app.utm_preset_value('utm_content', p_utm_content, false, 100);
  v_preset public.utm_presets;
begin
  if v_name is null then
    perform app.utm_preset_error('name', 'The name field is required.');
  end if;
  if char_length(v_name) > 100 then
    perform app.utm_preset_error('name', 'The name must not be greater than 100.');
  end if;
  if p_account_id is null or not app.has_permission(p_account_id, 'links.create') then
    raise exception using errcode = 'PT403', message = 'permission_denied',
      detail = 'Permission denied', hint = 'form';
  end if;
  begin
    insert into public.utm_presets (account_id, created_by, name, utm_source, utm_medium,
      utm_campaign, utm_term, utm_content)
    values (p_account_id, auth.uid(), v_name, v_source, v_medium, v_campaign, v_term, v_content)
    returning * into v_preset;
  exception when unique_violation then
    perform app.utm_preset_error('name', 'The name has already been taken.');
  end;
  return v_preset;
end;
$$;

revoke execute on function public.create_utm_preset(uuid, text, text, text, text, text, text)
  from public, anon;
grant execute on function public.create_utm_preset(uuid, text, text, text, text, text, text)
  to authenticated, service_role;
grant execute on function app.utm_preset_error(text, text),
  app.utm_preset_value(text, text, boolean, integer) to authenticated, service_role;

revoke execute on all functions in schema app from public;
