/**
 * `Idempotency-Key` on creates: the first request with a key reserves it (per token) and its
 * successful answer is stored; the same key again replays that answer (status and body, with
 * `Idempotent-Replayed: true`) instead of creating twice. A key sent with a different request
 * (method, path or body) is refused (422); one whose first request is still running answers 409.
 * A failed first request frees its key, so the client may retry it. Keys live 24 hours.
 *
 * The answer is stored in the transaction that creates (`record`), so a link and its stored
 * answer commit together; a reservation whose request died before either (a killed process)
 * is abandoned after ABANDONED_AFTER_SECONDS and the key may be used again.
 */
import { type CallerSql, sql } from '../_shared/sql.ts';
import { API_MESSAGES, apiError } from './errors.ts';

export const IDEMPOTENCY_TTL_HOURS = 24;
export const ABANDONED_AFTER_SECONDS = 60;
const KEY = /^[\x21-\x7e]{1,255}$/;

export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** Stores the answer inside the creating transaction (which runs as the API's caller). */
export type RecordAnswer = (tx: CallerSql, answer: StoredAnswer) => Promise<void>;

export type Reservation =
  | { kind: 'fresh'; record: RecordAnswer; release(): Promise<void> }
  | { kind: 'replay'; answer: StoredAnswer };

async function hashOf(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The request's key, or null when it sent none; a malformed one is refused. */
export function idempotencyKey(request: Request): string | null {
  const key = request.headers.get('idempotency-key');
  if (key === null) return null;
  if (!KEY.test(key)) {
    throw apiError(
      422,
      'idempotency_key_invalid',
      'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
    );
  }
  return key;
}

export async function reserve(
  tokenId: string,
  key: string,
  fingerprint: string,
): Promise<Reservation> {
  const requestHash = await hashOf(fingerprint);
  const db = sql();
  await db`delete from app.api_idempotency_keys
           where token_id = ${tokenId}
             and (created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
                  or (status is null
                      and created_at < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS})))`;
  const inserted = await db`
    insert into app.api_idempotency_keys (token_id, key, request_hash)
    values (${tokenId}, ${key}, ${requestHash})
    on conflict (token_id, key) do nothing
    returning key`;
  if (inserted.length === 1) {
    return {
      kind: 'fresh',
      record: async (tx, answer) => {
        // The table is the function's own (not the caller's): back to the connection's role,
        // for the rest of this transaction only.
        await tx`reset role`;
        await tx`update app.api_idempotency_keys
                 set status = ${answer.status}, body = ${tx.json(answer.body as never)}
                 where token_id = ${tokenId} and key = ${key}`;
      },
      release: async () => {
        await db`delete from app.api_idempotency_keys
                 where token_id = ${tokenId} and key = ${key} and status is null`;
      },
    };
  }
  const [stored] = await db<{ request_hash: string; status: number | null; body: unknown }[]>`
    select request_hash, status, body from app.api_idempotency_keys
    where token_id = ${tokenId} and key = ${key}`;
  if (!stored) return await reserve(tokenId, key, fingerprint); // freed meanwhile
  if (stored.request_hash !== requestHash) {
    throw apiError(422, 'idempotency_key_reused', API_MESSAGES.idempotencyMismatch);
  }
  if (stored.status === null) {
    throw apiError(409, 'idempotency_key_in_flight', API_MESSAGES.idempotencyInFlight);
  }
  return { kind: 'replay', answer: { status: stored.status, body: stored.body } };
}

const notRecorded: RecordAnswer = () => Promise.resolve();

/**
 * Runs `create` at most once per key; without a key, simply runs it. `create` calls the record
 * it is given with its answer, last, inside its transaction.
 */
export async function oncePerKey(
  tokenId: string,
  key: string | null,
  fingerprint: string,
  create: (record: RecordAnswer) => Promise<StoredAnswer>,
): Promise<StoredAnswer & { replayed: boolean }> {
  if (key === null) return { ...(await create(notRecorded)), replayed: false };
  const reservation = await reserve(tokenId, key, fingerprint);
  if (reservation.kind === 'replay') return { ...reservation.answer, replayed: true };
  try {
    const answer = await create(reservation.record);
    return { ...answer, replayed: false };
  } catch (error) {
    await reservation.release();
    throw error;
  }
}
