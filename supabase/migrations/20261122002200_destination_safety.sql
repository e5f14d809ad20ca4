-- One destination-safety rule, in the database: app.judge_destination decides whether a URL may
-- be stored as a link's destination (or a domain's root or 404 redirect, or a redirect route) and
-- in which normalised form. Every path goes through it: create_link and update_link (through
-- app.check_destination), bulk import (app.bulk_create_links, migration 002210), the links edge
-- function (which calls create_link), and direct table writes by the kiosk, the service role or
-- anyone else (the triggers below). The redirect stops serving stored destinations it refuses,
-- as it does for banned domains (app.resolve_short_links below).
--
-- The rule mirrors supabase/functions/_shared/url-safety.ts (the edge functions' pre-check), and
-- both are tested on one list of hostile and safe URLs (supabase/tests/fixtures/
-- hostile-destinations.json):
--   - text: no control characters (CR, LF, tab…, NEL, LS, PS), at most 8192 bytes as given;
--   - http or https with `//`; nothing that reads as credentials (`@` in the authority) or a
--     backslash ending the authority (parsers disagree about both);
--   - the host as a browser reads it (WHATWG URL): percent-decoded, case-folded (NFKC), IDN as
--     punycode (RFC 3492), IPv4 in every notation (decimal 2130706433, hex 0x7f.1, octal
--     0177.0.0.1, short 127.1), IPv6 with IPv4 inside (mapped, compatible, NAT64, 6to4);
--   - no address in a special-purpose range (loopback, private, CGNAT, link-local, unique local,
--     multicast, documentation, benchmarking, reserved, broadcast; IANA registries);
--   - no single-label name, no localhost / .localhost / .local / .localdomain / .internal /
--     .arpa name, no cloud metadata name;
--   - not one of our short domains: a common domain (the product's own) or a subdomain of one
--     (vanity subdomains live there), or any verified domain (the redirect serves it: a link
--     there loops or launders);
--   - not a banned domain nor a subdomain of one;
--   - the normalised form at most 2048 characters (the columns' limit).
-- The stored form is the WHATWG serialisation: lower-case scheme and host, punycode, IPv4 dotted,
-- IPv6 compressed, no default port, dot segments resolved, `/` for an empty path, and the code
-- points WHATWG percent-encodes in the path, query and fragment encoded.
--
-- Cost: a URL already in its stored form takes a fast path (tens of microseconds); the redirect
-- judges in full only long URLs without a current mark in app.destination_checks (rows written
-- around the triggers, e.g. before this migration or by a superuser in replica mode).

-- ---------------------------------------------------------------------------------------------
-- Hosts.

-- RFC 3492 Punycode of one label (no `xn--` prefix).
create function app.punycode_encode(p_label text) returns text
language plpgsql immutable strict security definer
set search_path = ''
as $$
declare
  c_base constant integer := 36;
  v_digits constant text := 'abcdefghijklmnopqrstuvwxyz0123456789';
  v_points integer[] := array(select ascii(c) from regexp_split_to_table(p_label, '') as c);
  v_input_length integer := cardinality(v_points);
  v_output text := '';
  v_n integer := 128;
  v_delta bigint := 0;
  v_bias integer := 72;
  v_basic integer;
  v_handled integer;
  v_m integer;
  v_q bigint;
  v_k integer;
  v_t integer;
  v_point integer;
  v_d bigint;
  v_first boolean;
begin
  foreach v_point in array v_points loop
    if v_point < 128 then
      v_output := v_output || chr(v_point);
    end if;
  end loop;
  v_basic := char_length(v_output);
  v_handled := v_basic;
  if v_basic > 0 then
    v_output := v_output || '-';
  end if;
  v_first := true;
  while v_handled < v_input_length loop
    select min(p) into v_m from unnest(v_points) as p where p >= v_n;
    v_delta := v_delta + (v_m - v_n)::bigint * (v_handled + 1);
    v_n := v_m;
    foreach v_point in array v_points loop
      if v_point < v_n then
        v_delta := v_delta + 1;
      elsif v_point = v_n then
        v_q := v_delta;
        v_k := c_base;
        loop
          v_t := case when v_k <= v_bias then 1 when v_k >= v_bias + 26 then 26 else v_k - v_bias end;
          exit when v_q < v_t;
          v_output := v_output || substr(v_digits, 1 + (v_t + (v_q - v_t) % (c_base - v_t))::integer, 1);
          v_q := (v_q - v_t) / (c_base - v_t);
          v_k := v_k + c_base;
        end loop;
        v_output := v_output || substr(v_digits, 1 + v_q::integer, 1);
        -- Bias adaptation (RFC 3492 6.1).
        v_d := case when v_first then v_delta / 700 else v_delta / 2 end;
        v_d := v_d + v_d / (v_handled + 1);
        v_k := 0;
        while v_d > ((c_base - 1) * 26) / 2 loop
          v_d := v_d / (c_base - 1);
          v_k := v_k + c_base;
        end loop;
        v_bias := v_k + ((c_base - 1 + 1) * v_d) / (v_d + 38);
        v_first := false;
        v_delta := 0;
        v_handled := v_handled + 1;
      end if;
    end loop;
    v_delta := v_delta + 1;
    v_n := v_n + 1;
  end loop;
  return v_output;
end;
$$;

-- RFC 3492 decoding of one label (no `xn--` prefix); null when it is not valid Punycode.
create function app.punycode_decode(p_label text) returns text
language plpgsql immutable strict security definer
set search_path = ''
as $$
declare
  c_base constant integer := 36;
  v_split integer := length(p_label) - position('-' in reverse(p_label)) + 1;
  v_output integer[] := '{}';
  v_n integer := 128;
  v_i bigint := 0;
  v_bias integer := 72;
  v_pos integer := 1;
  v_old_i bigint;
  v_w bigint;
  v_k integer;
  v_t integer;
  v_digit integer;
  v_c text;
  v_delta bigint;
  v_count integer;
begin
  if position('-' in p_label) = 0 then
    v_split := 0;
  end if;
  if v_split > 0 then
    if substr(p_label, 1, v_split - 1) ~ '[^\x01-\x7f]' then
      return null;
    end if;
    v_output := array(select ascii(c) from regexp_split_to_table(substr(p_label, 1, v_split - 1), '') as c);
    v_pos := v_split + 1;
  end if;
  while v_pos <= length(p_label) loop
    v_old_i := v_i;
    v_w := 1;
    v_k := c_base;
    loop
      if v_pos > length(p_label) then
        return null;
      end if;
      v_c := substr(p_label, v_pos, 1);
      v_pos := v_pos + 1;
      v_digit := case
        when v_c between 'a' and 'z' then ascii(v_c) - 97
        when v_c between 'A' and 'Z' then ascii(v_c) - 65
        when v_c between '0' and '9' then ascii(v_c) - 22
      end;
      if v_digit is null then
        return null;
      end if;
      v_i := v_i + v_digit * v_w;
      if v_i > 1114111 * 100 then
        return null;
      end if;
      v_t := case when v_k <= v_bias then 1 when v_k >= v_bias + 26 then 26 else v_k - v_bias end;
      exit when v_digit < v_t;
      v_w := v_w * (c_base - v_t);
      v_k := v_k + c_base;
    end loop;
    v_count := cardinality(v_output) + 1;
    -- Bias adaptation (RFC 3492 6.1); the first one divides by damp (700).
    v_delta := case when v_old_i = 0 then (v_i - v_old_i) / 700 else (v_i - v_old_i) / 2 end;
    v_delta := v_delta + v_delta / v_count;
    v_k := 0;
    while v_delta > ((c_base - 1) * 26) / 2 loop
      v_delta := v_delta / (c_base - 1);
      v_k := v_k + c_base;
    end loop;
    v_bias := v_k + (c_base * v_delta) / (v_delta + 38);
    v_n := v_n + (v_i / v_count)::integer;
    v_i := v_i % v_count;
    if v_n > 1114111 or v_n between 55296 and 57343 then
      return null;
    end if;
    v_output := v_output[1 : v_i] || v_n || v_output[v_i + 1 :];
    v_i := v_i + 1;
  end loop;
  return array_to_string(array(select chr(p) from unnest(v_output) as p), '');
end;
$$;

-- One IPv4 number as WHATWG reads it (0x… hex, 0… octal, else decimal); null when it is none.
create function app.whatwg_ipv4_number(p_part text) returns numeric
language sql immutable strict security definer
set search_path = ''
as $$
  select case
    when p_part ~* '^0x[0-9a-f]*$' then
      (select coalesce(sum((position(lower(c) in '0123456789abcdef') - 1)::numeric
          * power(16::numeric, char_length(p_part) - 2 - o)), 0)
       from regexp_split_to_table(substr(p_part, 3), '') with ordinality as d(c, o))
    when p_part ~ '^0[0-7]+$' then
      (select sum(c::numeric * power(8::numeric, char_length(p_part) - 1 - o))
       from regexp_split_to_table(substr(p_part, 2), '') with ordinality as d(c, o))
    when p_part ~ '^(0|[1-9][0-9]*)$' then p_part::numeric
  end
$$;

-- A host that WHATWG reads as IPv4 (its last label is a number): the dotted quad, or 'invalid'
-- when it is not a valid one (the URL is then refused). Null: not an IPv4 host.
create function app.whatwg_ipv4(p_host text) returns text
language plpgsql immutable strict security definer
set search_path = ''
as $$
declare
  v_parts text[] := string_to_array(p_host, '.');
  v_count integer;
  v_numbers numeric[] := '{}';
  v_number numeric;
  v_address bigint;
begin
  -- The common case first: a last label that is no number (WHATWG's "ends in a number").
  if p_host !~ '(^|\.)(0[xX][0-9A-Fa-f]*|[0-9]+)\.?$' then
    return null;
  end if;
  if cardinality(v_parts) > 1 and v_parts[cardinality(v_parts)] = '' then
    v_parts := v_parts[1 : cardinality(v_parts) - 1];
  end if;
  v_count := cardinality(v_parts);
  if v_parts[v_count] !~ '^[0-9]+$' and app.whatwg_ipv4_number(v_parts[v_count]) is null then
    return null;
  end if;
  if v_count > 4 then
    return 'invalid';
  end if;
  for i in 1 .. v_count loop
    v_number := app.whatwg_ipv4_number(v_parts[i]);
    if v_number is null or (i < v_count and v_number > 255) then
      return 'invalid';
    end if;
    v_numbers := v_numbers || v_number;
  end loop;
  if v_numbers[v_count] >= power(256::numeric, 5 - v_count) then
    return 'invalid';
  end if;
  v_address := v_numbers[v_count]::bigint;
  for i in 1 .. v_count - 1 loop
    v_address := v_address + v_numbers[i]::bigint * (256::bigint ^ (4 - i))::bigint;
  end loop;
  return concat_ws('.', v_address / 16777216, v_address / 65536 % 256, v_address / 256 % 256,
    v_address % 256);
end;
$$;

-- The eight 16-bit pieces of an IPv6 address as WHATWG parses it (the text between the
-- brackets); null when it is not one. Zone identifiers (`%eth0`) are refused.
create function app.whatwg_ipv6(p_text text) returns integer[]
language plpgsql immutable strict security definer
set search_path = ''
as $$
declare
  v_halves text[];
  v_head integer[] := '{}';
  v_tail integer[] := '{}';
  v_pieces text[];
  v_piece text;
  v_octets text[];
  v_groups integer[];
  v_missing integer;
begin
  if p_text !~ '^[0-9A-Fa-f:.]+$' then
    return null;
  end if;
  v_halves := string_to_array(p_text, '::');
  if cardinality(v_halves) > 2 then
    return null;
  end if;
  for h in 1 .. cardinality(v_halves) loop
    v_groups := '{}';
    if v_halves[h] <> '' then
      v_pieces := string_to_array(v_halves[h], ':');
      for i in 1 .. cardinality(v_pieces) loop
        v_piece := v_pieces[i];
        if h = cardinality(v_halves) and i = cardinality(v_pieces) and v_piece like '%.%' then
          -- An IPv4 address may end the text: four decimal numbers without leading zeros.
          v_octets := string_to_array(v_piece, '.');
          if cardinality(v_octets) <> 4
            or exists (select 1 from unnest(v_octets) as o where o !~ '^(0|[1-9][0-9]{0,2})$' or o::integer > 255)
          then
            return null;
          end if;
          v_groups := v_groups || (v_octets[1]::integer * 256 + v_octets[2]::integer)
            || (v_octets[3]::integer * 256 + v_octets[4]::integer);
        elsif v_piece ~ '^[0-9A-Fa-f]{1,4}$' then
          v_groups := v_groups || ('x' || lpad(v_piece, 8, '0'))::bit(32)::integer;
        else
          return null;
        end if;
      end loop;
    end if;
    if h = 1 then
      v_head := v_groups;
    else
      v_tail := v_groups;
    end if;
  end loop;
  v_missing := 8 - cardinality(v_head) - cardinality(v_tail);
  if (cardinality(v_halves) = 2 and v_missing < 1) or (cardinality(v_halves) = 1 and v_missing <> 0) then
    return null;
  end if;
  return v_head || array_fill(0, array[v_missing]) || v_tail;
end;
$$;

-- WHATWG's IPv6 serialisation (the first longest run of two or more zero pieces as `::`).
create function app.format_ipv6(p_groups integer[]) returns text
language plpgsql immutable strict security definer
set search_path = ''
as $$
declare
  v_best_start integer := 0;
  v_best_length integer := 1;
  v_start integer := 1;
  v_end integer;
  v_hex text[] := array(select to_hex(g) from unnest(p_groups) as g);
begin
  while v_start <= 8 loop
    if p_groups[v_start] <> 0 then
      v_start := v_start + 1;
      continue;
    end if;
    v_end := v_start;
    while v_end <= 8 and p_groups[v_end] = 0 loop
      v_end := v_end + 1;
    end loop;
    if v_end - v_start > v_best_length then
      v_best_start := v_start;
      v_best_length := v_end - v_start;
    end if;
    v_start := v_end;
  end loop;
  if v_best_start = 0 then
    return array_to_string(v_hex, ':');
  end if;
  return array_to_string(v_hex[1 : v_best_start - 1], ':') || '::'
    || array_to_string(v_hex[v_best_start + v_best_length : 8], ':');
end;
$$;

-- The IPv4 address an IPv6 address stands for: IPv4-mapped (::ffff:0:0/96), IPv4-compatible
-- (::/96 but :: and ::1, deprecated yet still routed by some stacks), NAT64 (64:ff9b::/96) and
-- 6to4 (2002::/16). Null for the others.
create function app.ipv6_embedded_ipv4(p_groups integer[]) returns inet
language sql immutable strict security definer
set search_path = ''
as $$
  select case
    when p_groups[1:5] = '{0,0,0,0,0}' and p_groups[6] in (0, 65535)
        and not (p_groups[6] = 0 and p_groups[7] = 0 and p_groups[8] <= 1)
      or p_groups[1:6] = '{100,65435,0,0,0,0}'
      then concat_ws('.', p_groups[7] / 256, p_groups[7] % 256, p_groups[8] / 256, p_groups[8] % 256)::inet
    when p_groups[1] = 8194
      then concat_ws('.', p_groups[2] / 256, p_groups[2] % 256, p_groups[3] / 256, p_groups[3] % 256)::inet
  end
$$;

-- The special-purpose range an address is in (IANA IPv4 and IPv6 Special-Purpose Address
-- Registries; the names of ip-address.ts), or 'public'.
create function app.ip_range(p_ip inet) returns text
language sql immutable strict security definer
set search_path = ''
as $$
  select coalesce((
    select r.name
    from (values
      ('0.0.0.0/8', 'unspecified'), ('10.0.0.0/8', 'private'), ('100.64.0.0/10', 'shared'),
      ('127.0.0.0/8', 'loopback'), ('169.254.0.0/16', 'link-local'), ('172.16.0.0/12', 'private'),
      ('192.0.0.0/24', 'reserved'), ('192.0.2.0/24', 'documentation'),
      ('192.88.99.0/24', 'reserved'), ('192.168.0.0/16', 'private'), ('198.18.0.0/15', 'reserved'),
      ('198.51.100.0/24', 'documentation'), ('203.0.113.0/24', 'documentation'),
      ('224.0.0.0/4', 'multicast'), ('240.0.0.0/4', 'reserved'),
      ('::/128', 'unspecified'), ('::1/128', 'loopback'), ('64:ff9b:1::/48', 'private'),
      ('100::/64', 'reserved'), ('2001::/32', 'reserved'), ('2001:db8::/32', 'documentation'),
      ('3fff::/20', 'documentation'), ('fc00::/7', 'unique-local'), ('fe80::/10', 'link-local'),
      ('fec0::/10', 'private'), ('ff00::/8', 'multicast')
    ) as r(range, name)
    where family(p_ip) = family(r.range::inet) and p_ip <<= r.range::inet
    limit 1
  ), 'public')
$$;

-- A host's domain labels in the form DNS and every comparison use: UTS #46 mapping as browsers
-- apply it (NFKC case folding, the ideographic full stops as dots, the ignored code points
-- dropped), then each non-ASCII label as punycode. Null when a label cannot be a host name's.
create function app.normalise_domain_labels(p_host text) returns text
language plpgsql immutable strict security definer
set search_path = ''
as $$
declare
  v_host text := lower(normalize(lower(p_host), NFKC));
  v_labels text[];
  v_label text;
  v_decoded text;
begin
  v_host := translate(v_host, U&'\3002\FF0E\FF61', '...');
  v_host := regexp_replace(v_host,
    U&'[\00AD\034F\180B-\180D\200B\2060\FE00-\FE0F\FEFF]', '', 'g');
  if v_host like '%.' then
    v_host := left(v_host, -1);
  end if;
  v_labels := string_to_array(v_host, '.');
  for i in 1 .. cardinality(v_labels) loop
    v_label := v_labels[i];
    if v_label ~ '[^\x01-\x7f]' then
      -- Unicode that is no letter of a name (symbols that map to ASCII punctuation, spaces,
      -- controls) leaves the label invalid below.
      if v_label ~ U&'[\0080-\00A0]' then
        return null;
      end if;
      v_label := 'xn--' || app.punycode_encode(v_label);
    elsif v_label like 'xn--%' then
      -- Punycode as typed must decode to a Unicode label already in mapped form.
      v_decoded := app.punycode_decode(substr(v_label, 5));
      if v_decoded is null or v_decoded !~ '[^\x01-\x7f]' or v_decoded ~ U&'[\0080-\00A0]'
        or lower(normalize(v_decoded, NFKC)) <> v_decoded then
        return null;
      end if;
    end if;
    if v_label !~ '^[a-z0-9_-]{1,63}$' then
      return null;
    end if;
    v_labels[i] := v_label;
  end loop;
  v_host := array_to_string(v_labels, '.');
  return case when char_length(v_host) <= 253 then v_host end;
end;
$$;

-- Percent-encodes, as UTF-8, every non-ASCII code point and every character of p_set.
create function app.percent_encode(p_text text, p_set text) returns text
language plpgsql immutable strict security definer
set search_path = ''
as $$
declare
  v_out text := '';
  v_char text;
begin
  if p_text ~ '^[\x21-\x7e]*$' and translate(p_text, p_set, '') = p_text then
    return p_text;
  end if;
  foreach v_char in array regexp_split_to_array(p_text, '') loop
    if ascii(v_char) > 126 or position(v_char in p_set) > 0 then
      v_out := v_out || upper(regexp_replace(encode(convert_to(v_char, 'UTF8'), 'hex'),
        '(..)', '%\1', 'g'));
    else
      v_out := v_out || v_char;
    end if;
  end loop;
  return v_out;
end;
$$;

-- A special URL's path as WHATWG serialises it: `\` read as `/`, dot segments (also
-- percent-encoded ones) resolved, the path percent-encode set encoded, `/` when empty.
create function app.normalise_url_path(p_path text) returns text
language plpgsql immutable strict security definer
set search_path = ''
as $$
declare
  v_segments text[] := string_to_array(substr(replace(p_path, '\', '/'), 2), '/');
  v_out text[] := '{}';
  v_segment text;
  v_last boolean;
begin
  if p_path = '' then
    return '/';
  end if;
  for i in 1 .. cardinality(v_segments) loop
    v_segment := lower(v_segments[i]);
    v_last := i = cardinality(v_segments);
    if v_segment in ('..', '.%2e', '%2e.', '%2e%2e') then
      v_out := v_out[1 : cardinality(v_out) - 1];
      if v_last then
        v_out := v_out || ''::text;
      end if;
    elsif v_segment in ('.', '%2e') then
      if v_last then
        v_out := v_out || ''::text;
      end if;
    else
      v_out := v_out || v_segments[i];
    end if;
  end loop;
  return app.percent_encode('/' || array_to_string(v_out, '/'), ' "<>`{}');
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Our own and banned domains (the part of the rule that changes with the tables).

-- A host and each parent domain, most specific first; an IP address is only itself.
create function app.host_and_parents(p_host text) returns text[]
language plpgsql immutable strict security definer
set search_path = ''
as $$
declare
  v_names text[] := array[p_host];
  v_rest text := p_host;
begin
  if p_host ~ '^\[|^[0-9.]+$' then
    return v_names;
  end if;
  while position('.' in v_rest) > 0 loop
    v_rest := substr(v_rest, position('.' in v_rest) + 1);
    v_names := v_names || v_rest;
  end loop;
  return v_names;
end;
$$;

-- As before (the host or a parent domain is banned), by equality on the unique index for the
-- handful of candidate names rather than a LIKE over the whole table (the kiosk's lists ask per
-- link); plpgsql, so that its plan is prepared once per connection.
create or replace function app.is_domain_banned(p_host text) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (
    select 1
    from unnest(app.host_and_parents(lower(p_host))) as c(name)
    join public.banned_domains b on b.domain = c.name
  );
end;
$$;

-- Which of these hosts (normalised) are our short domains or banned, with the code and reason
-- of the refusal. Our short domains: the product's own (common) ones and their subdomains, where
-- vanity subdomains live, and every other domain the redirect serves (verified: a link there loops
-- or launders). A customer's domain is theirs beyond the one name we serve, and one still pending
-- verification is not served (nor can anyone block links to a site by claiming its name). A ban
-- covers the domain and its subdomains (as app.is_domain_banned). Set-based, each candidate name
-- on a unique index: a bulk import asks for a chunk's hosts at once.
create function app.hosts_refused(p_hosts text[])
returns table (host text, code text, reason text)
language sql stable security definer
set search_path = ''
as $$
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
  where x.own or x.banned
$$;

-- Why a host (normalised) is refused for what it names rather than how it is written: a name
-- that only ever reaches this machine, its network or a cloud metadata service (single labels
-- resolve through the local search domain; `.arpa`: reverse lookups, home.arpa), then (with
-- p_tables) one of our short domains or a banned domain. Null when none.
create function app.host_refusal(
  p_host text, p_is_name boolean, p_tables boolean, out code text, out reason text
)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if p_is_name and (position('.' in p_host) = 0
      or p_host in ('metadata.google.internal', 'metadata.goog')
      or p_host ~ '\.(localhost|local|localdomain|internal|arpa)$') then
    code := 'url_not_allowed'; reason := 'internal_host';
  elsif p_tables then
    select r.code, r.reason into code, reason from app.hosts_refused(array[p_host]) as r;
  end if;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- The rule.

-- The verdict on a destination: its normalised form and host, or why it is refused: code (the
-- error codes the apps map: url_required, url_invalid, url_not_allowed, url_banned) and reason
-- (url-safety.ts's UrlRefusalReason), and for an internal address its range.
-- p_tables false leaves out our own and banned domains (the caller asks app.hosts_refused for
-- many hosts at once).
create function app.judge_destination(
  p_url text, p_tables boolean default true,
  out url text, out host text, out code text, out reason text, out range text
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_text text;
  v_scheme text;
  v_rest text;
  v_authority text;
  v_host_part text;
  v_port text;
  v_tail text;
  v_path text;
  v_query text;
  v_fragment text;
  v_groups integer[];
  v_ip inet;
  v_bytes bytea;
begin
  -- The common case, and what every table write sees again after the RPCs and bulk import
  -- normalised it: a URL already in its stored form (lower-case name host without punycode or
  -- port; a path, query and fragment WHATWG leaves as they are, without dot segments). It is its
  -- own normal form: only what its host names is left to judge.
  if char_length(p_url) <= 2048 and p_url ~ (
      '^https?://[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*\.[a-z_-][a-z0-9_-]{0,62}'
      || '/[!$%&(-;=@-\[\]^_a-z|~]*(\?[!$%&(-;=?@-\[\]^_a-z|~]*)?(#[!#$%&(-;=?@-\[\]^_a-z|~]*)?$')
  then
    host := substring(p_url from '^https?://([^/]+)');
    if char_length(host) <= 253 and host !~ '(^|\.)xn--'
      and substring(p_url from '^https?://[^/]+(/[^?#]*)') !~* '/(\.|%2e){1,2}(/|$)' then
      select * into code, reason from app.host_refusal(host, true, p_tables);
      if code is null then
        url := p_url;
      else
        host := null;
      end if;
      return;
    end if;
    host := null;
  end if;

  if p_url is null then
    code := 'url_required'; reason := 'empty'; return;
  end if;
  -- C0 controls (NUL cannot be in text), DEL, and the Unicode line breaks (NEL, LS, PS): URL
  -- parsers drop or encode some of them silently, which is how header and log injection slips by.
  if p_url ~ U&'[\0001-\001F\007F\0085\2028\2029]' then
    code := 'url_invalid'; reason := 'control_character'; return;
  end if;
  v_text := regexp_replace(p_url, '^ +| +$', '', 'g');
  if v_text = '' then
    code := 'url_required'; reason := 'empty'; return;
  end if;
  if octet_length(v_text) > 8192 then
    code := 'url_invalid'; reason := 'too_long'; return;
  end if;
  v_scheme := lower(substring(v_text from '^([A-Za-z][A-Za-z0-9+.-]*):'));
  if v_scheme is null then
    code := 'url_invalid'; reason := 'malformed'; return;
  end if;
  if v_scheme not in ('http', 'https') then
    code := 'url_not_allowed'; reason := 'scheme'; return;
  end if;
  -- `http:example.com` and `http:/\example.com` parse, but no one means them.
  if v_text !~* '^https?://' then
    code := 'url_invalid'; reason := 'malformed'; return;
  end if;
  v_rest := substr(v_text, char_length(v_scheme) + 4);
  -- The authority as written, then as a parser reads it (slashes after `//` skipped): parsers
  -- disagree about `\` and `@` in it, and a credential prefix (https://bank.com@evil.example)
  -- exists only to mislead the reader.
  for pass in 1 .. 2 loop
    if pass = 2 then
      v_rest := regexp_replace(v_rest, '^[/\\]+', '');
    end if;
    v_authority := substring(v_rest from '^[^/?#\\]*');
    if substr(v_rest, char_length(v_authority) + 1, 1) = '\' then
      code := 'url_not_allowed'; reason := 'ambiguous_authority'; return;
    end if;
    if position('@' in v_authority) > 0 then
      code := 'url_not_allowed'; reason := 'userinfo'; return;
    end if;
  end loop;
  v_tail := substr(v_rest, char_length(v_authority) + 1);

  -- Host and port.
  if v_authority like '[%' then
    v_host_part := substring(v_authority from '^\[[^\]]*\]');
  else
    v_host_part := substring(v_authority from '^[^:]*');
  end if;
  v_port := substr(v_authority, coalesce(char_length(v_host_part), 0) + 1);
  if v_host_part is null or v_host_part = '' or not (v_port = '' or v_port ~ '^:[0-9]*$')
    or (v_port ~ '[0-9]' and substr(v_port, 2)::numeric > 65535) then
    code := 'url_invalid'; reason := 'malformed'; return;
  end if;
  v_port := case when v_port ~ '[0-9]' then substr(v_port, 2)::numeric::integer::text else '' end;
  if (v_scheme = 'http' and v_port = '80') or (v_scheme = 'https' and v_port = '443') then
    v_port := '';
  end if;

  if v_host_part like '[%' then
    v_groups := app.whatwg_ipv6(substr(v_host_part, 2, char_length(v_host_part) - 2));
    if v_groups is null then
      code := 'url_invalid'; reason := 'malformed'; return;
    end if;
    host := '[' || app.format_ipv6(v_groups) || ']';
    v_ip := coalesce(app.ipv6_embedded_ipv4(v_groups), app.format_ipv6(v_groups)::inet);
  else
    -- Percent-encoded bytes of the host are read as UTF-8 (WHATWG host parsing).
    if position('%' in v_host_part) > 0 then
      if v_host_part ~ '%($|[^0-9A-Fa-f]|.$|.[^0-9A-Fa-f])' then
        code := 'url_invalid'; reason := 'malformed'; return;
      end if;
      select string_agg(case when p like '\%%' then decode(substr(p, 2), 'hex')
          else convert_to(p, 'UTF8') end, ''::bytea order by o)
      into v_bytes
      from regexp_matches(v_host_part, '%[0-9A-Fa-f]{2}|[^%]+', 'g') with ordinality as m(a, o),
        lateral (select a[1] as p) as x;
      begin
        -- Invalid UTF-8 (and NUL) raise here.
        v_host_part := convert_from(v_bytes, 'UTF8');
      exception when character_not_in_repertoire or untranslatable_character then
        code := 'url_invalid'; reason := 'malformed'; return;
      end;
    end if;
    host := lower(normalize(lower(v_host_part), NFKC));
    host := translate(host, U&'\3002\FF0E\FF61', '...');
    -- Forbidden domain code points (WHATWG).
    if host ~ '[\x01-\x20#%/:<>?@\[\\\]^|\x7f]' then
      code := 'url_invalid'; reason := 'malformed'; host := null; return;
    end if;
    host := app.whatwg_ipv4(host);
    if host = 'invalid' then
      code := 'url_invalid'; reason := 'malformed'; host := null; return;
    end if;
    if host is not null then
      v_ip := host::inet;
    else
      host := app.normalise_domain_labels(v_host_part);
      if host is null then
        code := 'url_invalid'; reason := 'malformed'; return;
      end if;
    end if;
  end if;
  if v_ip is not null then
    range := app.ip_range(v_ip);
    if range <> 'public' then
      code := 'url_not_allowed'; reason := 'internal_address'; host := null; return;
    end if;
    range := null;
  end if;
  select * into code, reason from app.host_refusal(host, v_ip is null, p_tables);
  if code is not null then
    host := null; return;
  end if;

  v_path := substring(v_tail from '^[^?#]*');
  v_query := substring(v_tail from '^[^#]*' ) ;
  v_query := substr(v_query, char_length(v_path) + 1);
  v_fragment := substr(v_tail, char_length(v_path) + char_length(v_query) + 1);
  url := v_scheme || '://' || host || case when v_port <> '' then ':' || v_port else '' end
    || app.normalise_url_path(v_path)
    || app.percent_encode(v_query, ' "<>''')
    || case when v_fragment <> '' then '#' || app.percent_encode(substr(v_fragment, 2), ' "<>`')
       else '' end;
  -- Percent-encoding grows the text: the stored form must fit the columns.
  if char_length(url) > 2048 then
    url := null; host := null; code := 'url_invalid'; reason := 'too_long'; return;
  end if;
end;
$$;

-- The rule as the RPCs use it: the normalised destination, or the coded error the apps map.
create or replace function app.check_destination(p_url text) returns text
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_verdict record;
begin
  select * into v_verdict from app.judge_destination(p_url);
  if v_verdict.code is not null then
    perform app.link_error(v_verdict.code);
  end if;
  return v_verdict.url;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Every write of a destination column goes through the rule: RPCs, the kiosk (PostgREST), the
-- service role and direct SQL alike. The stored value is the normalised form.

-- A link's destination (long_urls.url) and a redirect route's (alias_routes.url): the form's
-- `url` field. Long URLs are judged on their text here, and on what their hosts name once per
-- statement (app.check_long_url_hosts), so that a bulk insert asks the tables once.
create function app.check_url_column() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_verdict record;
begin
  if tg_op = 'INSERT' or new.url is distinct from old.url then
    select * into v_verdict
    from app.judge_destination(new.url, tg_table_name <> 'long_urls');
    if v_verdict.code is not null then
      perform app.link_error(v_verdict.code);
    end if;
    new.url := v_verdict.url;
  end if;
  return new;
end;
$$;

-- A domain's root and 404 redirects, each reported on its own column.
create function app.check_domain_redirects() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_verdict record;
begin
  if new.root_redirect_url is not null
    and (tg_op = 'INSERT' or new.root_redirect_url is distinct from old.root_redirect_url) then
    select * into v_verdict from app.judge_destination(new.root_redirect_url);
    if v_verdict.code is not null then
      perform app.link_error(v_verdict.code, 'root_redirect_url');
    end if;
    new.root_redirect_url := v_verdict.url;
  end if;
  if new.not_found_redirect_url is not null
    and (tg_op = 'INSERT' or new.not_found_redirect_url is distinct from old.not_found_redirect_url) then
    select * into v_verdict from app.judge_destination(new.not_found_redirect_url);
    if v_verdict.code is not null then
      perform app.link_error(v_verdict.code, 'not_found_redirect_url');
    end if;
    new.not_found_redirect_url := v_verdict.url;
  end if;
  return new;
end;
$$;

create trigger long_urls_check_destination before insert or update of url on public.long_urls
  for each row execute function app.check_url_column();
create trigger alias_routes_check_destination before insert or update of url
  on public.alias_routes
  for each row execute function app.check_url_column();
create trigger domains_check_destinations
  before insert or update of root_redirect_url, not_found_redirect_url on public.domains
  for each row execute function app.check_domain_redirects();

-- ---------------------------------------------------------------------------------------------
-- What the redirect asks per link must stay cheap: a long URL written through the rule is marked
-- as passed (the md5 of the url judged), and the redirect judges in full only the rows without a
-- current mark (written before this migration, or around the triggers by a superuser in replica
-- mode). Marks live in `app`, which no API exposes, and only the triggers write them. What can
-- turn a passed URL into a refused one later is a new short domain or a new ban: those drop the
-- marks of the rows they touch. A later migration that makes the rule stricter must drop them
-- all (delete from app.destination_checks).

create table app.destination_checks (
  long_url_id uuid primary key references public.long_urls (id) on delete cascade,
  url_md5 text not null
);
comment on table app.destination_checks is
  'Long URLs whose url (by md5) passed app.judge_destination; the redirect judges the others.';
alter table app.destination_checks enable row level security;
revoke all on app.destination_checks from public, anon, authenticated;

-- After a statement's row triggers judged each new or changed url's text: the hosts they name,
-- all at once (own and banned domains refuse the whole statement, as the row triggers do), then
-- the marks.
create function app.check_long_url_hosts() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_code text;
  v_ids uuid[];
begin
  if tg_op = 'INSERT' then
    v_ids := array(select n.id from new_long_urls n);
  else
    v_ids := array(
      select n.id from new_long_urls n join old_long_urls o on o.id = n.id
      where n.url is distinct from o.url
    );
  end if;
  if cardinality(v_ids) = 0 then
    return null;
  end if;
  -- url_not_allowed (our own domain) before url_banned, as the rule orders them.
  select r.code into v_code
  from app.hosts_refused(array(
    select distinct l.host from public.long_urls l where l.id = any (v_ids)
  )) as r
  order by r.code desc
  limit 1;
  if v_code is not null then
    perform app.link_error(v_code);
  end if;
  insert into app.destination_checks (long_url_id, url_md5)
  select l.id, md5(l.url) from public.long_urls l where l.id = any (v_ids)
  on conflict (long_url_id) do update set url_md5 = excluded.url_md5;
  return null;
end;
$$;

-- After the row triggers: the before trigger refused or normalised every url in the statement.
create trigger long_urls_check_hosts_inserts after insert on public.long_urls
  referencing new table as new_long_urls
  for each statement execute function app.check_long_url_hosts();
create trigger long_urls_check_hosts_updates after update on public.long_urls
  referencing old table as old_long_urls new table as new_long_urls
  for each statement execute function app.check_long_url_hosts();

-- A domain that becomes ours, or a ban: the destinations on it (or under it) are judged again.
create function app.unmark_destinations_on_domain() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  -- A ban covers subdomains, and so does a common domain (vanity subdomains).
  v_subdomains boolean := true;
begin
  if tg_table_name = 'domains' then
    if new.kind <> 'common' and new.verification_status <> 'verified' then
      return null;
    end if;
    v_subdomains := new.kind = 'common';
  end if;
  delete from app.destination_checks c
  using public.long_urls l
  where l.id = c.long_url_id
    and (l.host = new.domain or (v_subdomains and l.host like '%.' || new.domain));
  return null;
end;
$$;

create trigger domains_unmark_destinations
  after insert or update of domain, kind, verification_status on public.domains
  for each row execute function app.unmark_destinations_on_domain();
create trigger banned_domains_unmark_destinations after insert or update of domain
  on public.banned_domains
  for each row execute function app.unmark_destinations_on_domain();

-- Existing rows: marked where the rule passes them as stored (nothing is rewritten).
insert into app.destination_checks (long_url_id, url_md5)
select l.id, md5(l.url) from public.long_urls l
where (select j.code from app.judge_destination(l.url) j) is null;

-- ---------------------------------------------------------------------------------------------
-- The redirect: destinations stored before this rule (or written around it) that it refuses
-- stop redirecting as banned ones do (the `r` function's 410 "blocked" page), and a domain's
-- root or 404 redirect it refuses is ignored (the plain home or 404 page answers). Redirect URLs
-- are judged once per domain of a batch, destinations once per unmarked row.

create or replace function app.resolve_short_links(p_domains text[], p_aliases text[])
returns table (
  domain text,
  alias text,
  domain_usable boolean,
  redirect_status smallint,
  root_redirect_url text,
  not_found_redirect_url text,
  alias_id uuid,
  account_id uuid,
  alias_status text,
  expires_at timestamptz,
  url text,
  url_status text,
  destination_banned boolean
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    with wanted as (
      select distinct k.domain, k.alias
      from unnest(p_domains, p_aliases) as k(domain, alias)
      where k.domain is not null and k.alias is not null
    ),
    domains as materialized (
      select d.id, d.domain::text as domain,
        not (d.is_disabled or d.is_deleted or d.is_blocked)
          and d.verification_status = 'verified' as usable,
        d.redirect_status,
        case when (select v.code from app.judge_destination(d.root_redirect_url) v) is null
          then d.root_redirect_url::text end as root_redirect_url,
        case when (select v.code from app.judge_destination(d.not_found_redirect_url) v) is null
          then d.not_found_redirect_url::text end as not_found_redirect_url
      from public.domains d
      where d.domain in (select w.domain from wanted w)
    )
    select w.domain, w.alias, d.usable, d.redirect_status, d.root_redirect_url,
      d.not_found_redirect_url,
      a.id, a.account_id, a.status, a.expires_at, l.url, l.status,
      l.id is not null and c.url_md5 is distinct from md5(l.url)
        and (select v.code from app.judge_destination(l.url) v) is not null
    from wanted w
    join domains d on d.domain = w.domain
    -- citext's equality lives in schema extensions, outside this function's search path.
    left join public.aliases a on a.domain_id = d.id
      and a.alias operator(extensions.=) w.alias::extensions.citext and w.alias <> ''
    left join public.long_urls l on l.id = a.long_url_id
    left join app.destination_checks c on c.long_url_id = l.id;
end;
$$;

grant execute on function app.judge_destination(text, boolean) to service_role;

-- Functions are executable by PUBLIC by default (per-schema default privileges cannot take
-- that away): only the grants above apply.
revoke execute on all functions in schema app from public;
