import { randomUUID } from 'node:crypto';
import {
  createClient,
  type SupabaseClient,
  type SupabaseClientOptions,
} from '@supabase/supabase-js';
import pg from 'pg';
import { inject } from 'vitest';
import ws from 'ws';

/** Shared helpers of the auth contract tests: clients, unique addresses, the mail catcher. */

export const env = inject('stackEnv');

type RealtimeTransport = NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport'];

export const CLIENT_OPTIONS: SupabaseClientOptions<'public'> = {
  auth: { persistSession: false, autoRefreshToken: false },
  // Node 20 has no global WebSocket; ws's constructor signature is wider than supabase-js types.
  realtime: { transport: ws as unknown as RealtimeTransport },
};

export const anonClient = (): SupabaseClient =>
  createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, CLIENT_OPTIONS);

/** An anon client of another gateway (a test's own auth service), sending `headers` too. */
export const anonClientAt = (url: string, headers: Record<string, string> = {}): SupabaseClient =>
  createClient(url, env.SUPABASE_ANON_KEY, { ...CLIENT_OPTIONS, global: { headers } });

/** A client running the PKCE flow, as server-rendered apps configure supabase-js. */
export const pkceClient = (): SupabaseClient =>
  createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    ...CLIENT_OPTIONS,
    auth: { ...CLIENT_OPTIONS.auth, flowType: 'pkce', detectSessionInUrl: false },
  });

export const serviceClient = (): SupabaseClient =>
  createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, CLIENT_OPTIONS);

/** An address no other test (or earlier run against the same stack) uses. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@auth-test.example.com`;
}

interface MailSummary {
  ID: string;
  Subject: string;
  Created: string;
}

export interface Mail {
  ID: string;
  Subject: string;
  Text: string;
  HTML: string;
  To: { Address: string }[];
}

async function listMail(to: string): Promise<MailSummary[]> {
  const response = await fetch(
    `${env.MAILBOX_URL}/api/v1/search?query=${encodeURIComponent(`to:${to}`)}`,
  );
  if (!response.ok) throw new Error(`mail search failed: ${response.status}`);
  const body = (await response.json()) as { messages: MailSummary[] };
  return body.messages;
}

export async function readMail(id: string): Promise<Mail> {
  const response = await fetch(`${env.MAILBOX_URL}/api/v1/message/${id}`);
  if (!response.ok) throw new Error(`mail ${id} not found: ${response.status}`);
  return (await response.json()) as Mail;
}

/** Waits until `to` has received `count` mails and returns them, newest first. */
export async function mailsTo(to: string, count = 1, timeoutMs = 5000): Promise<Mail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = await listMail(to);
    if (messages.length >= count) return Promise.all(messages.map((m) => readMail(m.ID)));
    if (Date.now() > deadline) {
      throw new Error(`expected ${count} mail(s) to ${to}, found ${messages.length}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function latestMailTo(to: string, count = 1): Promise<Mail> {
  return (await mailsTo(to, count))[0]!;
}

/** The pieces of an auth mail: its /verify link, the one-time code and the token hash. */
export function mailParts(mail: Mail): { link: string; otp: string; tokenHash: string } {
  const link = mail.Text.match(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/)?.[0] ?? '';
  const otp = mail.Text.match(/enter the code: (\d{6})/)?.[1] ?? '';
  const tokenHash = mail.Text.match(/Token hash: (\S+)/)?.[1] ?? '';
  return { link, otp, tokenHash };
}

let pool: pg.Pool | undefined;

/** The database as its superuser, for assertions on auth.* rows and for ageing them. */
export function database(): pg.Pool {
  pool ??= new pg.Pool({ connectionString: env.DB_URL, max: 2 });
  return pool;
}

export async function closeDatabase(): Promise<void> {
  await pool?.end();
  pool = undefined;
}

/** A confirmed user with a password, made through the admin API. */
export async function createConfirmedUser(
  label: string,
  password = 'correct-horse-1',
): Promise<{ id: string; email: string; password: string }> {
  const email = uniqueEmail(label);
  const { data, error } = await serviceClient().auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error) throw error;
  return { id: data.user.id, email, password };
}

/** A client signed in as a fresh confirmed user. */
export async function signedInClient(label: string) {
  const user = await createConfirmedUser(label);
  const client = anonClient();
  const { data, error } = await client.auth.signInWithPassword({
    email: user.email,
    password: user.password,
  });
  if (error) throw error;
  return { client, user, session: data.session };
}

export function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}
