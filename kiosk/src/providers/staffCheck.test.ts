import { createClient } from '@supabase/supabase-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStaffCheck } from './staffCheck.ts';

const SUPABASE_URL = 'http://127.0.0.1:59999';

let clients = 0;

/** A client with a stored session for `userId` (no request needed to read it). */
function clientSignedInAs(userId: string | null) {
  const storageKey = `kiosk-test-${++clients}`;
  const storage = new Map<string, string>();
  if (userId) {
    storage.set(
      storageKey,
      JSON.stringify({
        access_token: 'token',
        refresh_token: 'refresh',
        token_type: 'bearer',
        expires_in: 3600,
        expires_at: Math.floor(Date.now() / 1000) + 3600,
        user: { id: userId, aud: 'authenticated', app_metadata: {}, user_metadata: {} },
      }),
    );
  }
  return createClient(SUPABASE_URL, 'anon-key', {
    auth: {
      storageKey,
      autoRefreshToken: false,
      storage: {
        getItem: (key) => storage.get(key) ?? null,
        setItem: (key, value) => void storage.set(key, value),
        removeItem: (key) => void storage.delete(key),
      },
    },
  });
}

describe('createStaffCheck', () => {
  afterEach(() => vi.unstubAllGlobals());

  function answerIsStaff(...answers: (boolean | 'fail')[]) {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      calls.push(`${request.method} ${new URL(request.url).pathname}`);
      const answer = answers.shift();
      if (answer === 'fail') return new Response('{"message":"boom"}', { status: 500 });
      return new Response(JSON.stringify(answer), {
        headers: { 'content-type': 'application/json' },
      });
    });
    return calls;
  }

  it('asks public.is_staff once per signed-in user', async () => {
    const calls = answerIsStaff(true);
    const isStaff = createStaffCheck(clientSignedInAs('staff-1'));
    expect(await isStaff()).toBe(true);
    expect(await isStaff()).toBe(true);
    expect(calls).toEqual(['POST /rest/v1/rpc/is_staff']);
  });

  it('denies a user the database does not call staff', async () => {
    answerIsStaff(false);
    expect(await createStaffCheck(clientSignedInAs('user-1'))()).toBe(false);
  });

  it('denies without asking when nobody is signed in', async () => {
    const calls = answerIsStaff();
    expect(await createStaffCheck(clientSignedInAs(null))()).toBe(false);
    expect(calls).toEqual([]);
  });

  it('reports a failed check, and asks again next time', async () => {
    const calls = answerIsStaff('fail', true);
    const isStaff = createStaffCheck(clientSignedInAs('staff-2'));
    await expect(isStaff()).rejects.toThrow(/Could not check staff access/);
    expect(await isStaff()).toBe(true);
    expect(calls).toHaveLength(2);
  });
});
