import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../shared/src/errors.ts';
import { destinations } from '../../tests/fixtures/hostile-destinations.ts';
import { closeDatabase, database } from './auth-helpers.ts';
import {
  bulkUser,
  type BulkUser,
  commonDomain,
  csv,
  finishedJob,
  linksOn,
  spreadsheet,
  upload,
} from './bulk-helpers.ts';

/**
 * The bulk-import function over HTTP (link-creation 7 and 9): each file type with and without a
 * header end to end, mixed good and bad rows with their per-row errors, and the notification.
 * Limits, hostile files, permissions and the result download are in the other bulk-*.test.ts.
 */

let owner: BulkUser;
let domain: string;

beforeAll(async () => {
  owner = await bulkUser('bulk-types');
  domain = await commonDomain();
});
afterAll(closeDatabase);

const HEADER = ['url', 'alias', 'tags'];

describe.each(['csv', 'xlsx', 'ods', 'xls'] as const)('a %s file', (type) => {
  const file = (rows: string[][]) => (type === 'csv' ? csv(rows) : spreadsheet(type, rows));

  it.each([true, false])(
    'with header %s becomes links, with tags and custom aliases',
    async (withHeader) => {
      const suffix = `${type}${withHeader ? 'h' : 'n'}${Date.now().toString(36)}`;
      const data = [
        [`https://${suffix}.example.com/one`, `one-${suffix}`, 'News, Sport'],
        [`https://${suffix}.example.com/two`, '', ''],
      ];
      const answer = await upload(file(withHeader ? [HEADER, ...data] : data), {
        token: owner.token,
        domain,
        withHeader: String(withHeader),
        fileName: `links.${type}`,
      });
      expect(answer).toEqual({ status: 200, body: { total: 2, job_id: expect.any(String) } });

      const job = await finishedJob(answer.body.job_id!);
      expect(job).toMatchObject({
        status: 'completed',
        total: 2,
        processed: 2,
        created: 2,
        errors: {},
      });
      expect(job.file_path).toBe(`${owner.id}/${answer.body.job_id}.${type}`);
      const links = (await linksOn(domain, owner.id)).filter((link) => link.url.includes(suffix));
      expect(links.sort((a, b) => a.url.localeCompare(b.url))).toEqual([
        {
          alias: `one-${suffix}`,
          url: `https://${suffix}.example.com/one`,
          is_main: true,
          tags: ['news', 'sport'],
          organization_id: null,
        },
        {
          alias: expect.stringMatching(/^[A-Za-z0-9]{7}$/),
          url: `https://${suffix}.example.com/two`,
          is_main: true,
          tags: [],
          organization_id: null,
        },
      ]);
    },
  );
});

describe('mixed good and bad rows', () => {
  it('creates the good rows and keeps an error per bad row, by row number and field', async () => {
    const tag = Date.now().toString(36);
    const taken = `taken-${tag}`;
    await database().query(`insert into public.banned_domains (domain) values ($1)`, [
      `banned-${tag}.example`,
    ]);
    // An alias someone already has on the domain.
    const other = await bulkUser('bulk-other');
    const seeded = await upload(
      csv([
        ['url', 'alias'],
        ['https://seed.example/', taken],
      ]),
      {
        token: other.token,
        domain,
      },
    );
    await finishedJob(seeded.body.job_id!);

    const rows = [
      HEADER,
      [`https://good-${tag}.example/a`, `good-${tag}`, 'alpha'], // 2
      ['http://169.254.169.254/latest/meta-data', '', ''], // 3 metadata address
      [`https://www.banned-${tag}.example/x`, '', ''], // 4 subdomain of a banned domain
      [`https://${domain}/loop`, '', ''], // 5 our own short domain
      [`https://good-${tag}.example/b`, 'admin', ''], // 6 reserved
      [`https://good-${tag}.example/c`, taken.toUpperCase(), ''], // 7 taken (case-insensitive)
      [`https://good-${tag}.example/d`, 'bad alias!', ''], // 8 format
      [`https://good-${tag}.example/e`, `dup-${tag}`, ''], // 9
      [`https://good-${tag}.example/f`, `DUP-${tag}`, ''], // 10 same alias as row 9
      [`https://good-${tag}.example/g`, '', `ok,${'x'.repeat(46)}`], // 11 tag too long
      ['', 'no-url', ''], // 12 no url
      ['', '', ''], // 13 blank: skipped
      [`https://good-${tag}.example/a`, '', ''], // 14 second alias of row 2's destination
    ];
    const answer = await upload(csv(rows), { token: owner.token, domain });
    expect(answer.body.total).toBe(12);

    const job = await finishedJob(answer.body.job_id!);
    expect(job).toMatchObject({ status: 'completed', total: 12, processed: 12, created: 3 });
    expect(job.errors).toEqual({
      '3': { url: ['This URL is not allowed.'] },
      '4': { url: ['This domain is banned.'] },
      '5': { url: ['This URL is not allowed.'] },
      '6': { alias: ['This alias is reserved.'] },
      '7': { alias: ['The new alias is not unique'] },
      '8': { alias: ['The alias may only contain letters, numbers, dashes and underscores.'] },
      '10': { alias: ['The new alias is not unique'] },
      '11': { 'tags.1': ['The tag must not be greater than 45 characters.'] },
      '12': { url: ['The URL field is required.'] },
    });
    const links = (await linksOn(domain, owner.id)).filter((link) => link.url.includes(tag));
    expect(links.map(({ alias, url, is_main, tags }) => ({ alias, url, is_main, tags }))).toEqual(
      expect.arrayContaining([
        {
          alias: `good-${tag}`,
          url: `https://good-${tag}.example/a`,
          is_main: true,
          tags: ['alpha'],
        },
        { alias: `dup-${tag}`, url: `https://good-${tag}.example/e`, is_main: true, tags: [] },
        {
          alias: expect.stringMatching(/^[A-Za-z0-9]{7}$/),
          url: `https://good-${tag}.example/a`,
          is_main: false,
          tags: [],
        },
      ]),
    );
    expect(links).toHaveLength(3);
  });

  it('applies the plan: no custom aliases or tags without the features', async () => {
    const basic = await bulkUser('bulk-basic', ['create_tiny_url', 'use_bulk']);
    const tag = Date.now().toString(36);
    const answer = await upload(
      csv([
        HEADER,
        [`https://plain-${tag}.example/`, '', ''],
        [`https://alias-${tag}.example/`, `mine-${tag}`, ''],
        [`https://tags-${tag}.example/`, '', 'news'],
      ]),
      { token: basic.token, domain },
    );
    const job = await finishedJob(answer.body.job_id!);
    expect(job.created).toBe(1);
    expect(job.errors).toEqual({
      '3': { alias: ['custom_alias_not_allowed'] },
      '4': { tags: ['Your plan does not allow tags.'] },
    });
  });

  it('stops at the plan limit: the first rows in file order are created', async () => {
    const limited = await bulkUser('bulk-limited');
    await database().query(
      `insert into public.account_usage (account_id, name, "limit") values ($1, 'max_aliases', 2)`,
      [limited.personalAccountId],
    );
    const tag = Date.now().toString(36);
    const urls = [1, 2, 3, 4].map((n) => [`https://limit-${tag}.example/${n}`]);
    const answer = await upload(csv([['url'], ...urls]), { token: limited.token, domain });
    const job = await finishedJob(answer.body.job_id!);
    expect(job.created).toBe(2);
    const limitMessage = ["You've hit your plan's limit for creating links"];
    expect(job.errors).toEqual({ '4': { form: limitMessage }, '5': { form: limitMessage } });
  });
});

describe('when the job is done', () => {
  it('notifies its owner, who reads the notification through the API', async () => {
    const answer = await upload(csv([['url'], ['https://notify.example/'], ['nope']]), {
      token: owner.token,
      domain,
      fileName: 'notify-me.csv',
    });
    const job = await finishedJob(answer.body.job_id!);
    const { data, error } = await owner.client
      .from('notifications')
      .select('type, title, body, data, account_id')
      .eq('data->>job_id', answer.body.job_id!);
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        type: 'bulk_import.completed',
        title: 'Batch completed',
        body: '1 of 2 links from notify-me.csv were created.',
        account_id: owner.personalAccountId,
        data: {
          job_id: answer.body.job_id,
          total: 2,
          created: 1,
          failed: 1,
          result_path: job.result_path,
        },
      },
    ]);
  });
});

// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const NOT_KEPT_BY_THE_READER = /[\u0000-\u001f\u007f\u0085\u2028\u2029]| {2}/;

describe('the shared hostile destinations', () => {
  it('refuses each hostile row with its message and stores the safe rows normalised', async () => {
    const user = await bulkUser('bulk-hostile');
    // Blank cells are skipped rows, and the sheet reader trims cells (line separators included)
    // and does not keep control characters or runs of spaces as sent: those entries are judged
    // by the database and Deno tests alone.
    const hostile = destinations.hostile.filter(
      (entry) => entry.url.trim() !== '' && !NOT_KEPT_BY_THE_READER.test(entry.url),
    );
    const created: string[] = [];
    try {
      for (const own of destinations.shortDomains) {
        const { rowCount } = await database().query(
          `insert into public.domains (domain, kind, verification_status, verified_at)
           values ($1, 'common', 'verified', now()) on conflict do nothing`,
          [own],
        );
        if (rowCount) created.push(own);
      }
      await database().query(
        `insert into public.banned_domains (domain) select unnest($1::text[]) on conflict do nothing`,
        [destinations.bannedDomains],
      );
      const entries = [...hostile, ...destinations.safe];
      const answer = await upload(csv([['url'], ...entries.map((entry) => [entry.url])]), {
        token: user.token,
        domain,
      });
      expect(answer.body.total).toBe(entries.length);
      const job = await finishedJob(answer.body.job_id!);
      expect(job).toMatchObject({ status: 'completed', created: destinations.safe.length });
      expect(job.errors).toEqual(
        Object.fromEntries(
          hostile.map((entry, index) => [
            String(index + 2),
            { url: [ERROR_CODES[entry.code].message] },
          ]),
        ),
      );
      const stored = (await linksOn(domain, user.id)).map((link) => link.url);
      expect(stored.sort()).toEqual(destinations.safe.map((entry) => entry.stored).sort());
    } finally {
      // Other files count what is stored anywhere (e.g. no IPv6 destination): leave nothing.
      await database().query(`delete from public.long_urls where account_id = $1`, [
        user.personalAccountId,
      ]);
      await database().query(`delete from public.banned_domains where domain = any($1::text[])`, [
        destinations.bannedDomains,
      ]);
      await database().query(`delete from public.domains where domain = any($1::text[])`, [
        created,
      ]);
    }
  });
});
