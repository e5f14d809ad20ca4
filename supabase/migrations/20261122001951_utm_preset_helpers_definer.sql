-- The create_utm_preset helpers follow the app schema's rule (every app function is security
-- definer with an empty search_path; see supabase/tests/core/structure.test.ts). They read and
-- write nothing, so running as their owner changes no outcome.

alter function app.utm_preset_error(text, text) security definer;
alter function app.utm_preset_value(text, text, boolean, integer) security definer;

revoke execute on all functions in schema app from public;
