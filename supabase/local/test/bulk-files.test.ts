import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, database } from './auth-helpers.ts';
import {
  bulkUser,
  type BulkUser,
  commonDomain,
  csv,
  finishedJob,
  spreadsheet,
  upload,
} from './bulk-helpers.ts';

/**
 * The bulk form's limits and hostile files over HTTP: each is a 422 with its message under
 * `file` (or the field at fault), and no job is scheduled for it.
 */

let owner: BulkUser;
let domain: string;

beforeAll(async () => {
  owner = await bulkUser('bulk-files');
  domain = await commonDomain();
});
afterAll(closeDatabase);

const TEN_MB = 10 * 1024 * 1024;

async function jobCount(): Promise<number> {
  const { rows } = await database().query<{ count: string }>(
    'select count(*) from public.bulk_jobs where created_by = $1',
    [owner.id],
  );
  return Number(rows[0]!.count);
}

/** A zip archive with one deflated entry whose directory tells the truth about its size. */
function zipWith(name: string, content: Buffer): Uint8Array {
  const data = deflateRawSync(content);
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const directoryOffset = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(directoryOffset, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

const fileRefused = (message: string) => ({
  status: 422,
  body: { code: 'validation_failed', message, errors: { file: [message] } },
});

describe('hostile and out-of-limit files are refused under `file`, and schedule nothing', () => {
  const cases: [string, () => Uint8Array, string, string][] = [
    [
      'over 10 MB',
      () => new Uint8Array(TEN_MB + 1).fill(0x61),
      'big.csv',
      'The file must not be greater than 10240 kilobytes.',
    ],
    [
      'a text file called xlsx',
      () => csv([['url'], ['https://a.example/']]),
      'links.xlsx',
      'The file must be a file of type: csv, xls, xlsx, ods.',
    ],
    [
      'a workbook called csv',
      () => spreadsheet('xlsx', [['url']]),
      'links.csv',
      'The file must be a file of type: csv, xls, xlsx, ods.',
    ],
    [
      'an ods called xlsx',
      () => spreadsheet('ods', [['url'], ['https://a.example/']]),
      'links.xlsx',
      'The file must be a file of type: csv, xls, xlsx, ods.',
    ],
    [
      'a PDF',
      () => new TextEncoder().encode('%PDF-1.7\n'),
      'links.pdf',
      'The file must be a file of type: csv, xls, xlsx, ods.',
    ],
    [
      'a zip bomb',
      () => zipWith('xl/workbook.xml', Buffer.alloc(150 * 1024 * 1024)),
      'bomb.xlsx',
      'The file expands to more data than can be imported.',
    ],
    [
      'malformed UTF-8',
      () =>
        Buffer.concat([Buffer.from('url\nhttps://a.example/\nhttps://caf'), Buffer.from([0xe9])]),
      'latin1.csv',
      'The file must be UTF-8 encoded (invalid text in row 3).',
    ],
    ['an empty file', () => new Uint8Array(0), 'empty.csv', 'The file is empty.'],
    [
      'a header only',
      () => csv([['url', 'alias', 'tags']]),
      'header.csv',
      'The file has no rows to import.',
    ],
    [
      'a header only (xlsx)',
      () => spreadsheet('xlsx', [['url']]),
      'header.xlsx',
      'The file has no rows to import.',
    ],
    [
      'a header without url',
      () => csv([['alias'], ['x']]),
      'nourl.csv',
      'The file header must have a url column.',
    ],
    [
      '100,001 rows',
      () => new TextEncoder().encode('url\n' + 'https://a.example/\n'.repeat(100_001)),
      'many.csv',
      'The file must not have more than 100000 rows.',
    ],
  ];

  it.each(cases)('%s', async (_label, file, fileName, message) => {
    const before = await jobCount();
    const answer = await upload(file(), { token: owner.token, domain, fileName });
    expect(answer).toEqual(fileRefused(message));
    expect(await jobCount()).toBe(before);
  });
});

describe('files that look odd but are fine', () => {
  it('a UTF-8 BOM is stripped: the header is recognised and the rows imported', async () => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('URL;Alias\r\nhttps://bom.example/;\r\n'),
    ]);
    const answer = await upload(body, { token: owner.token, domain, fileName: 'bom.csv' });
    expect(answer.status).toBe(200);
    const job = await finishedJob(answer.body.job_id!);
    expect(job).toMatchObject({ total: 1, created: 1, errors: {} });
  });

  it('exactly 100,000 rows are accepted', async () => {
    const body = new TextEncoder().encode('url\n' + 'https://max.example/\n'.repeat(100_000));
    const answer = await upload(body, {
      token: owner.token,
      domain: 'no-such.localhost',
      fileName: 'max.csv',
    });
    // The file passes; the unknown domain is what refuses it (nothing is created).
    expect(answer).toEqual({
      status: 422,
      body: {
        code: 'domain_not_found',
        message: 'Domain not found.',
        errors: { domain: ['Domain not found.'] },
      },
    });
  });
});

describe('the other fields', () => {
  it('file and domain are required; withHeader must be a boolean', async () => {
    const answer = await upload(null, { token: owner.token, withHeader: 'perhaps' });
    expect(answer).toEqual({
      status: 422,
      body: {
        code: 'validation_failed',
        message: 'The file field is required.',
        errors: {
          file: ['The file field is required.'],
          domain: ['The domain field is required.'],
          withHeader: ['The with header field must be true or false.'],
        },
      },
    });
  });

  it('a domain the user may not use is refused under `domain`', async () => {
    const branded = `brand-${Date.now().toString(36)}.localhost`;
    const other = await bulkUser('bulk-brand-owner');
    await database().query(
      `insert into public.domains (domain, kind, account_id, verification_status, verified_at)
       values ($1, 'branded', $2, 'verified', now())`,
      [branded, other.personalAccountId],
    );
    const answer = await upload(csv([['url'], ['https://a.example/']]), {
      token: owner.token,
      domain: branded,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual({ domain: ['Domain not found.'] });
  });
});
