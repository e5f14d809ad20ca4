import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import * as XLSX from '@e965/xlsx';
import {
  addTeamMember,
  createOrganization,
  createTeam,
  type TeamRole,
} from '../../tests/support/factories.ts';
import { database, env, signedInClient } from './auth-helpers.ts';

/**
 * Shared by the bulk-import contract tests: signed-in users whose workspaces have the bulk
 * features, domains of their own, spreadsheets written with SheetJS (the library the function
 * reads them with), uploads over HTTP, and waiting for a job to finish.
 */

export const BULK_FEATURES = ['create_tiny_url', 'use_bulk', 'use_custom_alias', 'use_tags'];

export interface BulkUser {
  id: string;
  token: string;
  client: SupabaseClient;
  personalAccountId: string;
}

/** A confirmed, signed-in user whose personal workspace has `features`. */
export async function bulkUser(label: string, features = BULK_FEATURES): Promise<BulkUser> {
  const { client, user, session } = await signedInClient(label);
  const { rows } = await database().query<{ id: string }>(
    `update public.accounts a set features = $2
     from public.profiles p where p.id = $1 and a.id = p.personal_account_id
     returning a.id`,
    [user.id, features],
  );
  return { id: user.id, token: session.access_token, client, personalAccountId: rows[0]!.id };
}

/**
 * A common domain of the test's own, open to every signed-in user, and verified as the product's
 * own domains are: it outlives the test, so later suites (the e2e create form) may pick it, and
 * its links must then redirect like any other.
 */
export async function commonDomain(): Promise<string> {
  const domain = `bulk-${randomUUID().slice(0, 8)}.localhost`;
  await database().query(
    `insert into public.domains (domain, kind, verification_status, verified_at)
     values ($1, 'common', 'verified', now())`,
    [domain],
  );
  return domain;
}

export interface TeamScene {
  organizationSlug: string;
  teamSlug: string;
  teamAccountId: string;
}

/** An organization (with the bulk features) owned by `owner`, and a team in it with members. */
export async function organizationTeam(
  owner: BulkUser,
  members: [BulkUser, TeamRole][],
): Promise<TeamScene> {
  const client = await database().connect();
  try {
    const organization = await createOrganization(client, {
      ownerId: owner.id,
      features: BULK_FEATURES,
    });
    const team = await createTeam(client, { ownerId: owner.id, organizationId: organization.id });
    for (const [user, role] of members) {
      await addTeamMember(client, { teamId: team.id, userId: user.id, role });
    }
    return {
      organizationSlug: organization.slug,
      teamSlug: team.slug,
      teamAccountId: team.accountId,
    };
  } finally {
    client.release();
  }
}

export type SheetType = 'xlsx' | 'ods' | 'xls';

export function spreadsheet(type: SheetType, rows: unknown[][]): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Links');
  const bookType = type === 'xls' ? 'biff8' : type;
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType }) as ArrayBuffer);
}

const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
export const csv = (rows: string[][]) =>
  new TextEncoder().encode(rows.map((row) => row.map(quote).join(',')).join('\r\n') + '\r\n');

export interface UploadOptions {
  token?: string;
  path?: string;
  domain?: string;
  withHeader?: string;
  team?: string;
  fileName?: string;
}

export interface UploadAnswer {
  status: number;
  body: {
    total?: number;
    job_id?: string;
    code?: string;
    message?: string;
    errors?: Record<string, string[]>;
  };
}

/** POST a bulk form (multipart) to the function through the gateway. */
export async function upload(
  file: Uint8Array | null,
  options: UploadOptions,
): Promise<UploadAnswer> {
  const form = new FormData();
  if (file) form.set('file', new Blob([file.slice()]), options.fileName ?? 'links.csv');
  if (options.domain !== undefined) form.set('domain', options.domain);
  if (options.withHeader !== undefined) form.set('withHeader', options.withHeader);
  if (options.team !== undefined) form.set('team', options.team);
  const response = await fetch(
    `${env.SUPABASE_URL}/functions/v1/bulk-import/${options.path ?? 'bulk/csv'}`,
    {
      method: 'POST',
      headers: {
        apikey: env.SUPABASE_ANON_KEY,
        Authorization: `Bearer ${options.token ?? env.SUPABASE_ANON_KEY}`,
      },
      body: form,
    },
  );
  return { status: response.status, body: (await response.json()) as UploadAnswer['body'] };
}

export interface JobRow {
  status: string;
  total: number;
  processed: number;
  created: number;
  errors: Record<string, Record<string, string[]>>;
  result_path: string | null;
  file_path: string;
  account_id: string;
}

/** The job once it has finished (completed or failed). */
export async function finishedJob(jobId: string, timeoutMs = 20_000): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await database().query<JobRow>(
      `select status, total, processed, created, errors, result_path, file_path, account_id
       from public.bulk_jobs where id = $1`,
      [jobId],
    );
    const job = rows[0];
    if (job && (job.status === 'completed' || job.status === 'failed')) return job;
    if (Date.now() > deadline) throw new Error(`bulk job ${jobId} did not finish: ${job?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface CreatedLink {
  alias: string;
  url: string;
  is_main: boolean;
  tags: string[];
  organization_id: string | null;
}

/** The links a user created on a domain, oldest first. */
export async function linksOn(domain: string, userId: string): Promise<CreatedLink[]> {
  const { rows } = await database().query<CreatedLink>(
    `select a.alias::text as alias, u.url, a.is_main, a.organization_id,
       coalesce(array(select t.name from public.alias_tags at join public.tags t on t.id = at.tag_id
         where at.alias_id = a.id order by t.name), '{}') as tags
     from public.aliases a
     join public.long_urls u on u.id = a.long_url_id
     join public.domains d on d.id = a.domain_id
     where d.domain = $1 and a.created_by = $2
     order by a.created_at, a.alias`,
    [domain, userId],
  );
  return rows;
}
