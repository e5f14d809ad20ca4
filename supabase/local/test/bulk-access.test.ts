import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, closeDatabase, env } from './auth-helpers.ts';
import {
  bulkUser,
  type BulkUser,
  commonDomain,
  csv,
  finishedJob,
  linksOn,
  organizationTeam,
  type TeamScene,
  upload,
} from './bulk-helpers.ts';

/**
 * Who may bulk import where, and who may read the files: the routes' permission checks (guest,
 * plan without bulk, team viewer, member, unknown team) and the storage policies of the imports
 * and exports buckets, by actor; the result CSV downloaded with its formula cells escaped.
 */

let owner: BulkUser;
let member: BulkUser;
let viewer: BulkUser;
let stranger: BulkUser;
let team: TeamScene;
let domain: string;

beforeAll(async () => {
  [owner, member, viewer, stranger] = await Promise.all([
    bulkUser('bulk-owner'),
    bulkUser('bulk-member', []),
    bulkUser('bulk-viewer'),
    bulkUser('bulk-stranger'),
  ]);
  team = await organizationTeam(owner, [
    [member, 'member'],
    [viewer, 'viewer'],
  ]);
  domain = await commonDomain();
});
afterAll(closeDatabase);

const oneRow = () => csv([['url'], [`https://access-${randomUUID().slice(0, 8)}.example/`]]);

describe('permissions', () => {
  it('a guest (the anon key) is refused', async () => {
    const answer = await upload(oneRow(), { domain });
    expect(answer).toEqual({
      status: 401,
      body: { code: 'not_signed_in', message: 'Unauthenticated.' },
    });
  });

  it('no token at all is refused by the runtime', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/functions/v1/bulk-import/bulk/csv`, {
      method: 'POST',
      headers: { apikey: env.SUPABASE_ANON_KEY, Authorization: 'Bearer not-a-jwt' },
    });
    expect(response.status).toBe(401);
  });

  it('a plan without bulk is refused', async () => {
    const free = await bulkUser('bulk-free', ['create_tiny_url']);
    const answer = await upload(oneRow(), { token: free.token, domain });
    expect(answer).toEqual({
      status: 403,
      body: {
        code: 'bulk_not_allowed',
        message: 'Your plan does not allow bulk creation.',
        errors: { form: ['Your plan does not allow bulk creation.'] },
      },
    });
  });

  it('a team viewer is refused, on the team route and through the form', async () => {
    const viaRoute = await upload(oneRow(), {
      token: viewer.token,
      domain,
      path: `organization/${team.organizationSlug}/team/${team.teamSlug}/bulk/csv`,
    });
    const refusal = {
      status: 403,
      body: {
        code: 'viewer_cannot_create',
        message: 'You are not a selected team member',
        errors: { team: ['You are not a selected team member'] },
      },
    };
    expect(viaRoute).toEqual(refusal);
    expect(await upload(oneRow(), { token: viewer.token, domain, team: team.teamSlug })).toEqual(
      refusal,
    );
  });

  it("a team member imports into the team with the organization's plan", async () => {
    const url = `https://member-${randomUUID().slice(0, 8)}.example/`;
    const answer = await upload(csv([['url'], [url]]), {
      token: member.token,
      domain,
      path: `organization/${team.organizationSlug}/team/${team.teamSlug}/bulk/csv`,
    });
    expect(answer.status).toBe(200);
    const job = await finishedJob(answer.body.job_id!);
    expect(job).toMatchObject({ status: 'completed', created: 1, account_id: team.teamAccountId });
    expect((await linksOn(domain, member.id)).map((link) => link.url)).toContain(url);
  });

  it('a stranger cannot name the team, and an unknown organization is not found', async () => {
    const notTheirs = await upload(oneRow(), {
      token: stranger.token,
      domain,
      path: `organization/${team.organizationSlug}/team/${team.teamSlug}/bulk/csv`,
    });
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body.errors).toEqual({ team: ['Unknown team.'] });
    const personal = await upload(oneRow(), {
      token: stranger.token,
      domain,
      path: `organization/${team.organizationSlug}/personal/bulk/csv`,
    });
    expect(personal.status).toBe(404);
    expect(personal.body.code).toBe('organization_not_found');
  });

  it("the organization's owner imports into their personal workspace in organization mode", async () => {
    const answer = await upload(oneRow(), {
      token: owner.token,
      domain,
      path: `organization/${team.organizationSlug}/personal/bulk/csv`,
    });
    expect(answer.status).toBe(200);
    const job = await finishedJob(answer.body.job_id!);
    expect(job).toMatchObject({ created: 1, account_id: owner.personalAccountId });
  });
});

describe('the result CSV and the stored files', () => {
  let jobId: string;
  let resultPath: string;
  let importPath: string;

  beforeAll(async () => {
    const answer = await upload(
      csv([
        ['url', 'alias'],
        ['=HYPERLINK("http://evil.example","click")', ''],
        ['+1+cmd|calc', ''],
        ['@SUM(A1)', ''],
        [`https://result-${randomUUID().slice(0, 8)}.example/`, '-dash'],
        [`https://result-${randomUUID().slice(0, 8)}.example/`, ''],
      ]),
      { token: owner.token, domain, fileName: 'result.csv' },
    );
    jobId = answer.body.job_id!;
    const job = await finishedJob(jobId);
    resultPath = job.result_path!;
    importPath = job.file_path;
  });

  it('is downloaded by its owner, every formula-looking cell escaped', async () => {
    // Short URLs on the stack's gateway port (SHORT_URL_BASE of local-env.ts).
    const origin = `http://${domain.replace(/\./g, '\\.')}:${new URL(env.SUPABASE_URL).port}`;
    expect(resultPath).toBe(`${owner.id}/bulk-imports/${jobId}.csv`);
    const { data, error } = await owner.client.storage.from('exports').download(resultPath);
    expect(error).toBeNull();
    const lines = (await data!.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('row,url,alias,short_url,tags,status,errors');
    expect(lines.slice(1, 5)).toEqual([
      `2,"'=HYPERLINK(""http://evil.example"",""click"")",,,,failed,url: The url must be a valid URL.`,
      "3,'+1+cmd|calc,,,,failed,url: The url must be a valid URL.",
      "4,'@SUM(A1),,,,failed,url: The url must be a valid URL.",
      expect.stringMatching(
        new RegExp(`^5,https://result-\\w+\\.example/,'-dash,${origin}/-dash,,created,$`),
      ),
    ]);
    expect(lines[5]).toMatch(
      new RegExp(`^6,https://result-\\w+\\.example/,([A-Za-z0-9]{7}),${origin}/\\1,,created,$`),
    );
  });

  it('is not readable by another user or a guest', async () => {
    const byStranger = await stranger.client.storage.from('exports').download(resultPath);
    expect(byStranger.data).toBeNull();
    expect(byStranger.error).not.toBeNull();
    const byGuest = await anonClient().storage.from('exports').download(resultPath);
    expect(byGuest.data).toBeNull();
  });

  it('the uploaded file is in the imports bucket, readable by its owner only', async () => {
    const mine = await owner.client.storage.from('imports').download(importPath);
    expect(mine.error).toBeNull();
    expect(await mine.data!.text()).toContain('=HYPERLINK');
    const theirs = await stranger.client.storage.from('imports').download(importPath);
    expect(theirs.data).toBeNull();
  });

  it('nobody uploads to imports outside a pending job of their own', async () => {
    const file = new Blob(['url\nhttps://a.example/\n'], { type: 'text/csv' });
    // Own folder, but no job of that name.
    const noJob = await owner.client.storage
      .from('imports')
      .upload(`${owner.id}/${randomUUID()}.csv`, file);
    expect(noJob.error).not.toBeNull();
    // Someone else's folder and job name.
    const foreign = await stranger.client.storage
      .from('imports')
      .upload(`${owner.id}/${randomUUID()}.csv`, file);
    expect(foreign.error).not.toBeNull();
    // A finished job's name cannot be reused, even by its owner.
    const replay = await owner.client.storage
      .from('imports')
      .upload(importPath, file, { upsert: true });
    expect(replay.error).not.toBeNull();
    // Results are written by the function only.
    const forged = await owner.client.storage
      .from('exports')
      .upload(`${owner.id}/bulk-imports/${randomUUID()}.csv`, file);
    expect(forged.error).not.toBeNull();
  });
});
