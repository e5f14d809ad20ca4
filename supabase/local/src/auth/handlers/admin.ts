import { randomBytes } from 'node:crypto';
import { json } from '../../http.ts';
import { adminActor, recordAudit } from '../audit.ts';
import { requireAdmin } from '../authenticate.ts';
import { clientInfo, type AuthContext } from '../context.ts';
import { NIL_UUID, transaction } from '../db.ts';
import { DurationError, parseGoDuration } from '../duration.ts';
import { badRequest, DUPLICATE_EMAIL_MESSAGE, internalError, unprocessable } from '../errors.ts';
import { decodeParams, isUuid, parseJson, readParams } from '../params.ts';
import { checkPasswordStrength, hashPassword } from '../passwords.ts';
import type { Router } from '../router.ts';
import {
  banUser,
  confirmEmail,
  confirmPhone,
  softDeleteUser,
  updatePassword,
} from '../user-changes.ts';
import { userJson } from '../user-json.ts';
import { userForAdmin } from './lookups.ts';
import {
  createIdentity,
  deleteUser,
  findIdentity,
  findUserByEmail,
  findUserById,
  insertUser,
  mergeMetadata,
  updateIdentityData,
  updateUser,
  type User,
  type UserRow,
} from '../users.ts';
import { validateEmail, validatePhone } from '../validation.ts';

/** The admin API under /admin (service_role only), following GoTrue's admin.go. */

const ADMIN_USER_PARAMS = {
  id: 'string',
  aud: 'string',
  role: 'string',
  email: 'string',
  phone: 'string',
  password: 'string',
  password_hash: 'string',
  email_confirm: 'boolean',
  phone_confirm: 'boolean',
  user_metadata: 'object',
  app_metadata: 'object',
  ban_duration: 'string',
} as const;

const DEFAULT_PER_PAGE = 50;

/** ban_duration: a Go duration, or "none" to lift a ban. */
function banDurationOf(value: string | undefined): number | undefined {
  if (!value) return undefined;
  if (value === 'none') return 0;
  try {
    return parseGoDuration(value);
  } catch (error) {
    if (!(error instanceof DurationError)) throw error;
    throw badRequest('validation_failed', `invalid format for ban duration: ${error.message}`);
  }
}

function pageParameter(url: URL, name: string, fallback: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) {
    throw badRequest(
      'validation_failed',
      `Bad Pagination Parameters: strconv.ParseUint: parsing ${JSON.stringify(raw)}: invalid syntax`,
    );
  }
  return Number(raw);
}

/** GoTrue's Link header: the request URL with page set to the next and the last page. */
function paginationHeaders(url: URL, page: number, perPage: number, total: number) {
  const totalPages = Math.ceil(total / perPage);
  const linkTo = (target: number) => {
    const query = new URLSearchParams(url.searchParams);
    query.set('page', String(target));
    const sorted = [...query.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `<${url.pathname}?${new URLSearchParams(sorted).toString()}>`;
  };
  let link = '';
  if (totalPages > page) link += `${linkTo(page + 1)}; rel="next", `;
  link += `${linkTo(totalPages)}; rel="last"`;
  return { link, 'x-total-count': String(total) };
}

export function adminRoutes(router: Router, context: AuthContext): void {
  const { settings, pool } = context;

  const loadUser = (userId: string) => userForAdmin(pool, userId);

  router.on('GET', '/admin/users', async ({ request, url }) => {
    await requireAdmin(context, request);
    const sort = url.searchParams.get('sort');
    let direction = 'desc';
    if (sort) {
      const [field, dir] = sort.split(' ', 2);
      if (field !== 'created_at') {
        throw badRequest('validation_failed', `Bad Sort Parameters: bad field for sort '${field}'`);
      }
      if (dir && !['asc', 'desc'].includes(dir.toLowerCase())) {
        throw badRequest(
          'validation_failed',
          `Bad Sort Parameters: bad direction for sort '${dir}', only 'asc' and 'desc' allowed`,
        );
      }
      direction = dir?.toLowerCase() ?? 'desc';
    }
    const page = Math.max(pageParameter(url, 'page', 1), 1);
    const perPage = pageParameter(url, 'per_page', DEFAULT_PER_PAGE) || 20;
    const filter = url.searchParams.get('filter') ?? '';
    const conditions = ['coalesce(aud, $1) = $1'];
    const values: unknown[] = [settings.audience];
    if (filter) {
      values.push(`%${filter}%`);
      conditions.push(`(email like $2 or raw_user_meta_data->>'full_name' ilike $2)`);
    }
    const where = conditions.join(' and ');
    const { rows: count } = await pool.query<{ total: string }>(
      `select count(*) as total from auth.users where ${where}`,
      values,
    );
    const { rows } = await pool.query<{ id: string }>(
      `select id from auth.users where ${where}
        order by created_at ${direction === 'asc' ? 'asc' : 'desc'}, id
        limit ${perPage} offset ${(page - 1) * perPage}`,
      values,
    );
    const users = await Promise.all(rows.map((row) => findUserById(pool, row.id)));
    const total = Number(count[0]?.total ?? 0);
    return json(
      {
        users: users.filter((user): user is User => user !== undefined).map(userJson),
        aud: settings.audience,
      },
      200,
      paginationHeaders(url, page, perPage, total),
    );
  });

  router.on('POST', '/admin/users', async ({ request }) => {
    const role = await requireAdmin(context, request);
    const params = await readParams(request, ADMIN_USER_PARAMS);
    const aud = params.aud || settings.audience;
    if (!params.email && !params.phone) {
      throw badRequest(
        'validation_failed',
        'Cannot create a user without either an email or phone',
      );
    }
    const providers: string[] = [];
    let email: string | null = null;
    let phone: string | null = null;
    if (params.email) {
      email = validateEmail(params.email);
      if (await findUserByEmail(pool, email, aud)) {
        throw unprocessable('email_exists', DUPLICATE_EMAIL_MESSAGE);
      }
      providers.push('email');
    }
    if (params.phone) {
      phone = validatePhone(params.phone);
      const { rows } = await pool.query('select 1 from auth.users where phone = $1 and aud = $2', [
        phone,
        aud,
      ]);
      if (rows.length > 0) {
        throw unprocessable('phone_exists', 'Phone number already registered by another user');
      }
      providers.push('phone');
    }
    if (params.password !== undefined && params.password_hash) {
      throw badRequest(
        'validation_failed',
        'Only a password or a password hash should be provided',
      );
    }
    let encryptedPassword: string;
    if (params.password_hash) {
      if (!/^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(params.password_hash)) {
        throw internalError('Error creating user');
      }
      encryptedPassword = params.password_hash;
    } else {
      const password = params.password || randomBytes(48).toString('base64url');
      if (Buffer.byteLength(password) > 72) {
        throw badRequest('validation_failed', 'bcrypt: password length exceeds 72 bytes');
      }
      encryptedPassword = await hashPassword(password);
    }
    if (params.id !== undefined && params.id !== '') {
      if (!isUuid(params.id)) {
        throw badRequest('validation_failed', 'ID must conform to the uuid v4 format');
      }
      if (params.id === NIL_UUID) throw badRequest('validation_failed', 'ID cannot be a nil uuid');
    }
    const banMs = banDurationOf(params.ban_duration);
    const client = clientInfo(request);

    let userId: string;
    try {
      userId = await transaction(pool, async (tx) => {
        const id = await insertUser(tx, {
          id: params.id || undefined,
          aud,
          role: params.role || settings.defaultRole,
          email,
          phone,
          encryptedPassword,
          appMetadata: mergeMetadata(
            { provider: providers[0], providers },
            params.app_metadata ?? {},
          ),
          userMetadata: params.user_metadata ?? {},
        });
        if (email) {
          await createIdentity(tx, id, 'email', {
            sub: id,
            email,
            email_verified: false,
            phone_verified: false,
          });
        }
        if (phone) {
          await createIdentity(tx, id, 'phone', {
            sub: id,
            phone,
            email_verified: false,
            phone_verified: false,
          });
        }
        await recordAudit(tx, adminActor(role), 'user_signedup', client, {
          user_id: id,
          user_email: email ?? '',
          user_phone: phone ?? '',
          provider: providers[0],
        });
        const created = await findUserById(tx, id);
        if (!created) throw internalError('Database error creating new user');
        if (params.email_confirm) await confirmEmail(tx, created);
        if (params.phone_confirm) await confirmPhone(tx, created);
        if (banMs !== undefined) await banUser(tx, id, banMs);
        return id;
      });
    } catch (error) {
      console.error('auth: admin create user failed', error);
      throw internalError('Database error creating new user');
    }
    const user = await findUserById(pool, userId);
    if (!user) throw internalError('Database error creating new user');
    return json(userJson(user));
  });

  router.on('GET', '/admin/users/:userId', async ({ request, params }) => {
    await requireAdmin(context, request);
    return json(userJson(await loadUser(params.userId!)));
  });

  router.on('PUT', '/admin/users/:userId', async ({ request, params: path }) => {
    const role = await requireAdmin(context, request);
    const user = await loadUser(path.userId!);
    const params = await readParams(request, ADMIN_USER_PARAMS);
    const email = params.email ? validateEmail(params.email) : '';
    const phone = params.phone ? validatePhone(params.phone) : '';
    const banMs = banDurationOf(params.ban_duration);
    let encryptedPassword: string | undefined;
    if (params.password !== undefined) {
      checkPasswordStrength(settings, params.password);
      encryptedPassword = await hashPassword(params.password);
    }
    const client = clientInfo(request);
    try {
      await transaction(pool, async (tx) => {
        if (params.role) await updateUser(tx, user.id, { role: params.role.trim() });
        if (params.email_confirm) await confirmEmail(tx, user);
        if (params.phone_confirm) await confirmPhone(tx, user);
        if (encryptedPassword !== undefined) {
          await updatePassword(tx, user.id, encryptedPassword, null);
        }
        if (email) {
          const identity = await findIdentity(tx, user.id, 'email');
          const verified = params.email_confirm ?? false;
          if (identity) await updateIdentityData(tx, identity, { email, email_verified: verified });
          else {
            await createIdentity(tx, user.id, 'email', {
              sub: user.id,
              email,
              email_verified: verified,
              phone_verified: false,
            });
          }
          await updateUser(tx, user.id, {
            email,
            ...(user.is_anonymous && verified ? { is_anonymous: false } : {}),
          });
        }
        if (phone) {
          const identity = await findIdentity(tx, user.id, 'phone');
          const verified = params.phone_confirm ?? false;
          if (identity) await updateIdentityData(tx, identity, { phone, phone_verified: verified });
          else {
            await createIdentity(tx, user.id, 'phone', {
              sub: user.id,
              phone,
              email_verified: false,
              phone_verified: verified,
            });
          }
          await updateUser(tx, user.id, {
            phone,
            ...(user.is_anonymous && verified ? { is_anonymous: false } : {}),
          });
        }
        const current: UserRow | undefined = await findUserById(tx, user.id);
        if (!current) throw internalError('Error updating user');
        if (params.app_metadata) {
          await updateUser(tx, user.id, {
            raw_app_meta_data: mergeMetadata(current.raw_app_meta_data, params.app_metadata),
          });
        }
        if (params.user_metadata) {
          await updateUser(tx, user.id, {
            raw_user_meta_data: mergeMetadata(current.raw_user_meta_data, params.user_metadata),
          });
        }
        if (banMs !== undefined) await banUser(tx, user.id, banMs);
        await recordAudit(tx, adminActor(role), 'user_modified', client, {
          user_id: user.id,
          user_email: email || user.email || '',
          user_phone: phone || user.phone || '',
        });
      });
    } catch (error) {
      console.error('auth: admin update user failed', error);
      throw internalError('Error updating user');
    }
    return json(userJson(await loadUser(user.id)));
  });

  router.on('DELETE', '/admin/users/:userId', async ({ request, params }) => {
    const role = await requireAdmin(context, request);
    const user = await loadUser(params.userId!);
    const text = await request.text();
    const options =
      text.trim() === '' ? {} : decodeParams(parseJson(text), { should_soft_delete: 'boolean' });
    const client = clientInfo(request);
    await transaction(pool, async (tx) => {
      await recordAudit(tx, adminActor(role), 'user_deleted', client, {
        user_id: user.id,
        user_email: user.email ?? '',
        user_phone: user.phone ?? '',
      });
      if (options.should_soft_delete) {
        if (user.deleted_at === null) await softDeleteUser(tx, user);
      } else {
        await deleteUser(tx, user.id);
      }
    });
    return json({});
  });
}
