import { randomUUID } from 'node:crypto';
import type { Db } from './db.ts';
import { NIL_UUID } from './db.ts';

/** A row of auth.users as GoTrue reads it. Columns SQL seeds may leave NULL are typed nullable. */
export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_token: string | null;
  confirmation_sent_at: Date | null;
  recovery_token: string | null;
  recovery_sent_at: Date | null;
  email_change_token_new: string | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  phone_change: string | null;
  phone_change_token: string | null;
  phone_change_sent_at: Date | null;
  confirmed_at: Date | null;
  email_change_token_current: string | null;
  email_change_confirm_status: number | null;
  banned_until: Date | null;
  reauthentication_token: string | null;
  reauthentication_sent_at: Date | null;
  is_sso_user: boolean;
  deleted_at: Date | null;
  is_anonymous: boolean;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: 'totp' | 'webauthn' | 'phone';
  status: 'unverified' | 'verified';
  created_at: Date;
  updated_at: Date;
  secret: string | null;
  phone: string | null;
  last_challenged_at: Date | null;
  web_authn_aaguid: string | null;
}

/** A user with the relations GoTrue loads eagerly. */
export interface User extends UserRow {
  identities: IdentityRow[];
  factors: FactorRow[];
}

/** Columns the service writes; generated (confirmed_at) and key columns are excluded. */
type WritableUserColumn = Exclude<
  keyof UserRow,
  'id' | 'confirmed_at' | 'created_at' | 'updated_at'
>;
export type UserChanges = Partial<Pick<UserRow, WritableUserColumn>>;

const WRITABLE_USER_COLUMNS = new Set<string>([
  'aud',
  'role',
  'email',
  'encrypted_password',
  'email_confirmed_at',
  'invited_at',
  'confirmation_token',
  'confirmation_sent_at',
  'recovery_token',
  'recovery_sent_at',
  'email_change_token_new',
  'email_change',
  'email_change_sent_at',
  'last_sign_in_at',
  'raw_app_meta_data',
  'raw_user_meta_data',
  'phone',
  'phone_confirmed_at',
  'phone_change',
  'phone_change_token',
  'phone_change_sent_at',
  'email_change_token_current',
  'email_change_confirm_status',
  'banned_until',
  'reauthentication_token',
  'reauthentication_sent_at',
  'is_sso_user',
  'deleted_at',
  'is_anonymous',
] satisfies WritableUserColumn[]);

/** jsonb parameters must be sent as JSON text; everything else pg encodes itself. */
function toParameter(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !(value instanceof Date))
    return JSON.stringify(value);
  return value;
}

async function withRelations(db: Db, user: UserRow | undefined): Promise<User | undefined> {
  if (!user) return undefined;
  const [identities, factors] = await Promise.all([
    db.query<IdentityRow>(
      'select * from auth.identities where user_id = $1 order by created_at asc, id asc',
      [user.id],
    ),
    db.query<FactorRow>(
      'select * from auth.mfa_factors where user_id = $1 order by created_at asc, id asc',
      [user.id],
    ),
  ]);
  return { ...user, identities: identities.rows, factors: factors.rows };
}

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  const { rows } = await db.query<UserRow>('select * from auth.users where id = $1', [id]);
  return withRelations(db, rows[0]);
}

/** Row-locks the user for the rest of the transaction, as GoTrue's FOR UPDATE lookups do. */
export async function lockUser(db: Db, id: string): Promise<void> {
  await db.query('select 1 from auth.users where id = $1 for update', [id]);
}

export async function findUserByEmail(
  db: Db,
  email: string,
  aud: string,
): Promise<User | undefined> {
  const { rows } = await db.query<UserRow>(
    `select * from auth.users
      where lower(email) = lower($1) and coalesce(aud, $2) = $2 and is_sso_user = false
      order by created_at asc limit 1`,
    [email, aud],
  );
  return withRelations(db, rows[0]);
}

export async function updateUser(db: Db, id: string, changes: UserChanges): Promise<void> {
  const columns = Object.keys(changes).filter((column) => {
    if (!WRITABLE_USER_COLUMNS.has(column)) throw new Error(`auth.users.${column} is not writable`);
    return true;
  });
  if (columns.length === 0) return;
  const assignments = columns.map((column, index) => `"${column}" = $${index + 2}`);
  await db.query(
    `update auth.users set ${assignments.join(', ')}, updated_at = now() where id = $1`,
    [id, ...columns.map((column) => toParameter(changes[column as WritableUserColumn]))],
  );
}

export interface NewUser {
  id?: string;
  aud: string;
  role: string;
  email: string | null;
  phone?: string | null;
  encryptedPassword: string;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  isAnonymous?: boolean;
  /** An SSO user: its address need not be unique, and its identity provider confirmed it. */
  isSsoUser?: boolean;
}

export async function insertUser(db: Db, user: NewUser): Promise<string> {
  const id = user.id ?? randomUUID();
  await db.query(
    `insert into auth.users
       (instance_id, id, aud, role, email, phone, encrypted_password, raw_app_meta_data,
        raw_user_meta_data, is_anonymous, is_sso_user, email_confirmed_at, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, case when $11 then now() end, now(),
       now())`,
    [
      NIL_UUID,
      id,
      user.aud,
      user.role,
      user.email,
      user.phone ?? null,
      user.encryptedPassword,
      JSON.stringify(user.appMetadata),
      JSON.stringify(user.userMetadata),
      user.isAnonymous ?? false,
      user.isSsoUser ?? false,
    ],
  );
  return id;
}

export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.query('delete from auth.users where id = $1', [id]);
}

/** GoTrue's metadata update: keys are merged in, a null value removes the key. */
export function mergeMetadata(
  current: Record<string, unknown> | null,
  updates: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(updates)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export async function createIdentity(
  db: Db,
  userId: string,
  provider: string,
  identityData: Record<string, unknown>,
): Promise<void> {
  const data = { ...identityData };
  if (typeof data.email === 'string') data.email = data.email.toLowerCase();
  await db.query(
    `insert into auth.identities
       (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3, $4, $5, now(), now(), now())`,
    [randomUUID(), String(data.sub ?? userId), userId, JSON.stringify(data), provider],
  );
}

export async function findIdentity(
  db: Db,
  userId: string,
  provider: string,
): Promise<IdentityRow | undefined> {
  const { rows } = await db.query<IdentityRow>(
    'select * from auth.identities where provider_id = $1 and provider = $2',
    [userId, provider],
  );
  return rows[0];
}

export async function updateIdentityData(
  db: Db,
  identity: IdentityRow,
  updates: Record<string, unknown>,
): Promise<void> {
  await db.query(
    'update auth.identities set identity_data = $2, updated_at = now() where id = $1',
    [identity.id, JSON.stringify(mergeMetadata(identity.identity_data, updates))],
  );
}

/** Creates the e-mail identity or records its new address, as GoTrue does on e-mail changes. */
export async function upsertEmailIdentity(
  db: Db,
  userId: string,
  email: string,
  emailVerified: boolean,
): Promise<void> {
  const identity = await findIdentity(db, userId, 'email');
  if (identity) {
    await updateIdentityData(db, identity, { email, email_verified: emailVerified });
  } else {
    await createIdentity(db, userId, 'email', {
      sub: userId,
      email,
      email_verified: emailVerified,
      phone_verified: false,
    });
  }
}

/** app_metadata.provider(s) from the user's identities, oldest first (UpdateAppMetaDataProviders). */
export async function refreshProviders(db: Db, user: UserRow): Promise<void> {
  const { rows } = await db.query<{ provider: string }>(
    'select provider from auth.identities where user_id = $1 order by created_at asc',
    [user.id],
  );
  const providers = [...new Set(rows.map((row) => row.provider))];
  const updates: Record<string, unknown> = { providers };
  if (providers.length > 0) updates.provider = providers[0];
  await updateUser(db, user.id, {
    raw_app_meta_data: mergeMetadata(user.raw_app_meta_data, updates),
  });
}

export const emailOf = (user: UserRow) => user.email ?? '';
export const phoneOf = (user: UserRow) => user.phone ?? '';
export const isEmailConfirmed = (user: UserRow) => user.email_confirmed_at !== null;
export const hasPassword = (user: UserRow) => (user.encrypted_password ?? '') !== '';

export function isBanned(user: UserRow, now = new Date()): boolean {
  return user.banned_until !== null && now < user.banned_until;
}

export function hasVerifiedFactor(user: User): boolean {
  return user.factors.some((factor) => factor.status === 'verified');
}
