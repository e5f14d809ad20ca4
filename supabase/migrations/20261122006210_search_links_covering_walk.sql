-- search_links for middling words (issue 17, item 8): a word in about 5% of an account's links.
--
-- The newest-first walk (20261122003110) reads about 1,000 of the account's links to fill a page
-- of 50 such matches, in the order of aliases_account_page_idx, and for each read its aliases
-- row from the table (alias, status, long URL) and then its long URL. Links of an account are
-- spread over the table's pages (created over time among every other account's links), so each
-- link read cost two random page reads; on 1M links, more than the buffer cache holds, that was
-- most of the 47 ms.
--
-- The account's page index now carries what the walk and the link list's filter read (status,
-- long URL, alias) beside its key: the walk reads the aliases side from the index alone (its
-- entries for one account are adjacent, a few pages per thousand links), leaving one page read
-- per link, its long URL. Same key, so the link list's pages use it as before; no index is added.
-- Measured on bench/db.ts's data (1M links, an account of 100,000), backend CPU on a loaded
-- machine: 8.2 ms before, 7.3 ms after for "podcast"; the rest of a search's time there was the
-- wait for a core.

create index aliases_account_page_covering_idx on public.aliases
  (account_id, created_at desc, id desc) include (status, long_url_id, alias);
drop index public.aliases_account_page_idx;
alter index public.aliases_account_page_covering_idx rename to aliases_account_page_idx;

-- Every call planned with its own word. The rare-word query (trigram indexes, then a sort of the
-- few matches) is right only for rare words; after five calls in a session PL/pgSQL would switch
-- to a generic plan chosen without the word, and with the index above that plan walks the
-- account's whole page index (35 ms of CPU instead of 3 for a rare word on 1M links). Planning
-- the three statements costs well under a millisecond.
alter function public.search_links(uuid, text, integer) set plan_cache_mode = force_custom_plan;
