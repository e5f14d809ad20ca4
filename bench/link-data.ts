/**
 * Realistic links at scale for the benchmarks (bench/db.ts, bench/api.ts), set-based: one
 * statement plans every link, one inserts the long URLs and one the aliases. Destinations mix
 * hosts and words (a word in about 5% of links, "newsletter" in a third through utm_source,
 * "spring-sale" in one in 10,000), aliases are 8 hex characters with one in a thousand a custom
 * word alias, 2% are archived and 1% deleted, and creation times spread over the last year.
 *
 * The accounts come from a table bench.accounts (n integer primary key, user_id, account_id)
 * the caller fills; account 1 is the heavy customer and takes the first `heavyLinks` links, the
 * rest go round the other accounts.
 */
import type pg from 'pg';

/** Words for destinations and custom aliases; "spring-sale" is rare on purpose (search target). */
export const WORDS = [
  'pricing',
  'blog',
  'docs',
  'careers',
  'products',
  'shoes',
  'jackets',
  'summer',
  'winter',
  'webinar',
  'podcast',
  'release',
  'guide',
  'tutorial',
  'report',
  'invoice',
  'events',
  'store',
  'catalog',
  'newsletter',
  'about',
  'contact',
  'support',
  'download',
  'pricing-plans',
  'deals',
  'landing',
  'signup',
  'checkout',
  'gallery',
  'press',
  'partners',
  'security',
  'status',
  'roadmap',
  'community',
  'forum',
  'videos',
  'recipes',
  'travel',
];
const HOSTS = [
  'example.com',
  'shop.example.com',
  'blog.example.org',
  'docs.example.net',
  'news.example.io',
  'store.example.co.uk',
  'app.example.dev',
  'media.example.tv',
  'events.example.de',
  'learn.example.edu',
];

// Aliases are a bijection of g (multiplicative hashing mod 2^32), so they are unique without
// checking.
const PLAN_LINKS = `
  create unlogged table bench.links as
  select g, gen_random_uuid() as id, gen_random_uuid() as long_url_id, a.account_id, a.user_id,
    case when g % 1000 = 0 then ($3::text[])[1 + g % cardinality($3::text[])] || '-' || g
      else lpad(to_hex((g::bigint * 2654435761) % 4294967296), 8, '0') end as alias,
    'https://' || ($4::text[])[1 + g % cardinality($4::text[])] || '/'
      || ($3::text[])[1 + (g * 7) % cardinality($3::text[])] || '/'
      || case when g % 10000 = 0 then 'spring-sale-' else '' end
      || ($3::text[])[1 + (g * 13) % cardinality($3::text[])] || '-' || g
      || case when g % 3 = 0 then '?utm_source=newsletter&utm_medium=email' else '' end as url,
    ($5::uuid[])[1 + g % cardinality($5::uuid[])] as domain_id,
    case when g % 50 = 0 then 'archived' when g % 97 = 0 then 'deleted' else 'active' end as status,
    now() - random() * interval '365 days' as created_at
  from generate_series(1, $1::integer) as g
  join bench.accounts a on a.n = case when g <= $2::integer then 1
    else 2 + g % greatest((select count(*) from bench.accounts) - 1, 1) end`;

const INSERT_LONG_URLS = `
  insert into public.long_urls (id, account_id, url, created_at, updated_at)
  select long_url_id, account_id, url, created_at, created_at from bench.links`;

const INSERT_ALIASES = `
  insert into public.aliases (id, long_url_id, account_id, domain_id, alias, is_main, status,
    created_by, created_at, updated_at)
  select id, long_url_id, account_id, domain_id, alias, true, status, user_id, created_at,
    created_at
  from bench.links`;

export interface LinkPlan {
  links: number;
  /** How many of them account 1 owns. */
  heavyLinks: number;
  /** The domains links spread over (ids of public.domains). */
  domainIds: string[];
  /** Reports each step's duration. */
  timed: <T>(label: string, work: () => Promise<T>) => Promise<T>;
}

/** Inserts the links (bench.accounts must exist); analyzes the tables afterwards. */
export async function generateLinks(db: pg.Client, plan: LinkPlan): Promise<void> {
  const { links, heavyLinks, domainIds, timed } = plan;
  await db.query(`set work_mem = '256MB'; set maintenance_work_mem = '512MB';
    set synchronous_commit = off`);
  await timed(`plan ${links} links`, () =>
    db.query(PLAN_LINKS, [links, heavyLinks, WORDS, HOSTS, domainIds]),
  );
  await timed(`${links} long URLs`, () => db.query(INSERT_LONG_URLS));
  await timed(`${links} aliases`, () => db.query(INSERT_ALIASES));
  await db.query(`drop table bench.links`);
  await timed('vacuum and analyze links', () =>
    db.query('vacuum (analyze) public.aliases, public.long_urls'),
  );
}
