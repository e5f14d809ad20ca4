import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  IMPERSONATION_REFRESH_TOKEN,
  INVALID_LINK_MESSAGE,
  SAVED_SESSION_KEY,
  startImpersonation,
  stopImpersonation,
  type SessionAuth,
} from './sessionSwap.ts';
import { impersonationToken, staffToken } from './testTokens.ts';

interface Tokens {
  access_token: string;
  refresh_token: string;
}

/** supabase-js's session handling as these functions use it: one stored session. */
class FakeAuth implements SessionAuth {
  session: Tokens | null;
  refusedRefreshTokens = new Set<string>();
  signOuts: string[] = [];

  constructor(session: Tokens | null) {
    this.session = session;
  }

  async getSession() {
    return { data: { session: this.session } };
  }

  async setSession(tokens: Tokens) {
    if (this.refusedRefreshTokens.has(tokens.refresh_token)) {
      return { error: { message: 'Invalid Refresh Token: Refresh Token Not Found' } };
    }
    this.session = tokens;
    return { error: null };
  }

  async signOut({ scope }: { scope: 'local' }) {
    this.signOuts.push(scope);
    this.session = null;
    return { error: null };
  }
}

describe('startImpersonation', () => {
  beforeEach(() => window.localStorage.clear());

  it('keeps the staff member’s own session aside and signs in with the token', async () => {
    const own = { access_token: staffToken(), refresh_token: 'own-refresh' };
    const auth = new FakeAuth(own);
    const token = impersonationToken();
    expect(await startImpersonation(auth, window.localStorage, token)).toEqual({ ok: true });
    expect(auth.session).toEqual({
      access_token: token,
      refresh_token: IMPERSONATION_REFRESH_TOKEN,
    });
    expect(JSON.parse(window.localStorage.getItem(SAVED_SESSION_KEY)!)).toEqual(own);
  });

  it('never saves an impersonation as the session to come back to', async () => {
    const own = { access_token: staffToken(), refresh_token: 'own-refresh' };
    window.localStorage.setItem(SAVED_SESSION_KEY, JSON.stringify(own));
    const auth = new FakeAuth({
      access_token: impersonationToken(),
      refresh_token: IMPERSONATION_REFRESH_TOKEN,
    });
    await startImpersonation(auth, window.localStorage, impersonationToken({ sub: 'user-2' }));
    expect(JSON.parse(window.localStorage.getItem(SAVED_SESSION_KEY)!)).toEqual(own);
  });

  it('refuses a missing, foreign or expired token and keeps the current session', async () => {
    const own = { access_token: staffToken(), refresh_token: 'own-refresh' };
    for (const token of [null, staffToken(), impersonationToken({ exp: 1_000 })]) {
      const auth = new FakeAuth(own);
      expect(await startImpersonation(auth, window.localStorage, token)).toEqual({
        ok: false,
        message: INVALID_LINK_MESSAGE,
      });
      expect(auth.session).toBe(own);
    }
  });
});

describe('stopImpersonation', () => {
  beforeEach(() => window.localStorage.clear());

  it('records the stop, forgets the user’s session locally and restores the saved one', async () => {
    const own = { access_token: staffToken(), refresh_token: 'own-refresh' };
    window.localStorage.setItem(SAVED_SESSION_KEY, JSON.stringify(own));
    const auth = new FakeAuth({
      access_token: impersonationToken(),
      refresh_token: IMPERSONATION_REFRESH_TOKEN,
    });
    const reportStop = vi.fn(async () => {});
    expect(await stopImpersonation(auth, window.localStorage, reportStop)).toBe('restored');
    expect(reportStop).toHaveBeenCalledOnce();
    expect(auth.signOuts).toEqual(['local']);
    expect(auth.session).toEqual(own);
    expect(window.localStorage.getItem(SAVED_SESSION_KEY)).toBeNull();
  });

  it('still leaves the account when the stop cannot be recorded', async () => {
    const auth = new FakeAuth({
      access_token: impersonationToken(),
      refresh_token: IMPERSONATION_REFRESH_TOKEN,
    });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const outcome = await stopImpersonation(auth, window.localStorage, async () => {
      throw new Error('offline');
    });
    expect(outcome).toBe('signed-out');
    expect(auth.session).toBeNull();
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('signs out only when the saved session has ended meanwhile', async () => {
    window.localStorage.setItem(
      SAVED_SESSION_KEY,
      JSON.stringify({ access_token: staffToken(), refresh_token: 'revoked' }),
    );
    const auth = new FakeAuth({
      access_token: impersonationToken(),
      refresh_token: IMPERSONATION_REFRESH_TOKEN,
    });
    auth.refusedRefreshTokens.add('revoked');
    expect(await stopImpersonation(auth, window.localStorage, async () => {})).toBe('signed-out');
    expect(auth.session).toBeNull();
  });

  it('does not report a stop for a session that is not an impersonation', async () => {
    const auth = new FakeAuth({ access_token: staffToken(), refresh_token: 'own-refresh' });
    const reportStop = vi.fn(async () => {});
    await stopImpersonation(auth, window.localStorage, reportStop);
    expect(reportStop).not.toHaveBeenCalled();
  });
});
