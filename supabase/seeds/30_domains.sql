-- Vanity subdomains are offered under shrt.localhost (name.shrt.localhost), as the demo's
-- olivia.shrt.localhost already is.
update public.domains set is_base = true where id = '00000000-0000-4000-8000-000000001001';
