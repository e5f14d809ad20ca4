import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PENDING_NOTICE_KEY } from '../auth/sessionExpiry.ts';
import { json, postgrestError, TestBackend } from '../test/backend.ts';
import { render } from '../test/render.tsx';
import {
  createTestServices,
  sessionBody,
  startSession,
  TEST_ANON_KEY,
  type TestServices,
} from '../test/services.ts';
import { OWN_ERROR_NOTICE_HEADER, SKIP_GLOBAL_ERRORS_HEADER } from './globalResponses.ts';
import { findLoadedDialog } from '../test/dialogs.ts';

/** An error as GoTrue answers it. */
const goTrueError = (status: number, errorCode: string, msg: string) =>
  json({ code: status, error_code: errorCode, msg }, { status });

const user = { id: '6d0c4a43-3f4b-4f3e-9a53-0c1f3b7a9e10', email: 'ada@example.com' };

/** The notices handed to Mantine: message and how long each stays. */
function notices({ services }: TestServices) {
  return services.noticeStore
    .getState()
    .notifications.map((notice) => ({ message: notice.message, autoClose: notice.autoClose }));
}

function setup() {
  const backend = new TestBackend();
  const testServices = createTestServices(backend);
  return { backend, testServices, supabase: testServices.services.supabase };
}

describe('the global response handler', () => {
  it.each([
    [500, 'Something went wrong.'],
    [504, 'Something went wrong.'],
    [402, 'Payment Required'],
    [403, 'Permission denied'],
    [404, 'Not Found'],
    [419, 'Security check fails'],
    [431, 'Something went wrong.'],
  ])(
    'answers %i with the notice "%s" for 3 s, and the caller still sees the error',
    async (status, message) => {
      const { backend, testServices, supabase } = setup();
      backend.on('GET', '/rest/v1/aliases', () => postgrestError(status, { message: 'refused' }));
      const { error } = await supabase.from('aliases').select('id');
      expect(error?.message).toBe('refused');
      expect(notices(testServices)).toEqual([{ message, autoClose: 3000 }]);
    },
  );

  it('says a 422 fails validation (3 s), then each field message as its own notice (5 s)', async () => {
    const { backend, testServices, supabase } = setup();
    backend.on('POST', '/functions/v1/links', () =>
      json(
        {
          errors: {
            url: ['The URL field is required.', 'Ignored second message.'],
            alias: ['This alias is reserved.'],
          },
        },
        { status: 422 },
      ),
    );
    await supabase.functions.invoke('links', { body: {} });
    expect(notices(testServices)).toEqual([
      { message: 'Validation fails', autoClose: 3000 },
      { message: 'The URL field is required.', autoClose: 5000 },
      { message: 'Ignored second message.', autoClose: 5000 },
      { message: 'This alias is reserved.', autoClose: 5000 },
    ]);
  });

  it("words a 422 that carries one of the RPCs' error codes", async () => {
    const { backend, testServices, supabase } = setup();
    backend.on('POST', '/rest/v1/rpc/create_link', () =>
      postgrestError(422, {
        message: 'alias_taken',
        details: 'The new alias is not unique',
        hint: 'alias',
      }),
    );
    await supabase.rpc('create_link', { p_long_url: 'https://example.com' } as never);
    expect(notices(testServices)).toEqual([
      { message: 'Validation fails', autoClose: 3000 },
      { message: 'The new alias is not unique', autoClose: 5000 },
    ]);
  });

  it('opens the error modal for an answer that is not JSON', async () => {
    const { backend, testServices, supabase } = setup();
    backend.on(
      'GET',
      '/rest/v1/aliases',
      () =>
        new Response('<html>Bad gateway</html>', {
          status: 502,
          headers: { 'content-type': 'text/html' },
        }),
    );
    render(<p>page</p>, { backend, testServices });
    await supabase.from('aliases').select('id');
    const dialog = await findLoadedDialog(/Error/);
    expect(within(dialog).getByText('Something went wrong.')).toBeVisible();
    expect(notices(testServices)).toEqual([]);
  });

  it('on a 401 for a signed-in user sets the logged-out flag, forgets the session and reloads', async () => {
    const { backend, testServices, supabase } = setup();
    await startSession(testServices, backend, user);
    backend.on('POST', '/auth/v1/logout', () => new Response(null, { status: 204 }));
    backend.on('GET', '/rest/v1/aliases', () =>
      postgrestError(401, { code: 'PGRST301', message: 'JWT expired' }),
    );

    await supabase.from('aliases').select('id');

    expect(testServices.reload).toHaveBeenCalledTimes(1);
    expect(window.localStorage.getItem(STORAGE_KEYS.stateStatus)).toBe('false');
    expect(window.sessionStorage.getItem(PENDING_NOTICE_KEY)).toBe('Session expired.');
    expect((await supabase.auth.getSession()).data.session).toBeNull();
  });

  it("never sends an impersonation token to Auth's logout when such a session expires", async () => {
    const { backend, testServices, supabase } = setup();
    await startSession(testServices, backend, user, {
      impersonator: 'staff-1',
      impersonation_id: 9,
    });
    backend.on('GET', '/rest/v1/aliases', () => postgrestError(401, { message: 'JWT expired' }));

    await supabase.from('aliases').select('id');

    expect(testServices.reload).toHaveBeenCalledTimes(1);
    expect(backend.requestsTo('POST', '/auth/v1/logout')).toHaveLength(0);
    expect((await supabase.auth.getSession()).data.session).toBeNull();
  });

  it('says "Session expired." after that reload', async () => {
    window.sessionStorage.setItem(PENDING_NOTICE_KEY, 'Session expired.');
    const { testServices } = render(<p>page</p>);
    await waitFor(() =>
      expect(notices(testServices)).toEqual([{ message: 'Session expired.', autoClose: 3000 }]),
    );
    expect(window.sessionStorage.getItem(PENDING_NOTICE_KEY)).toBeNull();
  });

  it("treats a guest's 401 as a refusal, not an expired session", async () => {
    const { backend, testServices, supabase } = setup();
    backend.on('GET', '/rest/v1/aliases', (request) => {
      expect(request.headers.get('authorization')).toBe(`Bearer ${TEST_ANON_KEY}`);
      return postgrestError(401, { code: '42501', message: 'permission denied for table aliases' });
    });
    await supabase.from('aliases').select('id');
    expect(testServices.reload).not.toHaveBeenCalled();
    expect(notices(testServices)).toEqual([{ message: 'Permission denied', autoClose: 3000 }]);
  });

  it('lets a request opt out, and does not send the opt-out header on', async () => {
    const { backend, testServices, supabase } = setup();
    backend.on('GET', '/rest/v1/aliases', () => postgrestError(500, { message: 'boom' }));
    const { error } = await supabase
      .from('aliases')
      .select('id')
      .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1');
    expect(error?.message).toBe('boom');
    expect(notices(testServices)).toEqual([]);
    expect(backend.requests[0]!.headers.has(SKIP_GLOBAL_ERRORS_HEADER)).toBe(false);
  });

  it('leaves out only the status notice for a request that words its own error', async () => {
    const { backend, testServices, supabase } = setup();
    backend.on('POST', '/rest/v1/rpc/reject_invitation', () =>
      postgrestError(404, { message: 'invitation_not_found' }),
    );
    const { error } = await supabase
      .rpc('reject_invitation', { p_invitation_id: 'gone' })
      .setHeader(OWN_ERROR_NOTICE_HEADER, '1');
    expect(error?.message).toBe('invitation_not_found');
    expect(notices(testServices)).toEqual([]);
    expect(backend.requests[0]!.headers.has(OWN_ERROR_NOTICE_HEADER)).toBe(false);
  });

  it('still expires the session for a request that words its own error', async () => {
    const { backend, testServices, supabase } = setup();
    await startSession(testServices, backend, user);
    backend.on('POST', '/auth/v1/logout', () => new Response(null, { status: 204 }));
    backend.on('POST', '/rest/v1/rpc/reject_invitation', () =>
      postgrestError(401, { code: 'PGRST301', message: 'JWT expired' }),
    );
    await supabase
      .rpc('reject_invitation', { p_invitation_id: 'any' })
      .setHeader(OWN_ERROR_NOTICE_HEADER, '1');
    expect(testServices.reload).toHaveBeenCalledTimes(1);
    expect(window.sessionStorage.getItem(PENDING_NOTICE_KEY)).toBe('Session expired.');
  });

  it("leaves Auth's answers to supabase-js (a wrong password is the login form's business)", async () => {
    const { backend, testServices, supabase } = setup();
    backend.on('POST', '/auth/v1/token', () =>
      goTrueError(400, 'invalid_credentials', 'Invalid login credentials'),
    );
    const { error } = await supabase.auth.signInWithPassword({ email: user.email, password: 'x' });
    expect(error?.code).toBe('invalid_credentials');
    expect(notices(testServices)).toEqual([]);
  });

  it('says the same thing once while it is still on screen', async () => {
    const { backend, testServices, supabase } = setup();
    backend.on('GET', '/rest/v1/aliases', () => postgrestError(500, { message: 'boom' }));
    await supabase.from('aliases').select('id');
    await supabase.from('aliases').select('id');
    expect(notices(testServices)).toHaveLength(1);
  });

  it('removes global notices after 3 s and others after 5 s', { timeout: 10_000 }, async () => {
    const { backend, testServices, supabase } = setup();
    backend.on('POST', '/functions/v1/links', () =>
      json({ errors: { url: ['The URL field is required.'] } }, { status: 422 }),
    );
    render(<p>page</p>, { backend, testServices });
    const started = Date.now();
    await supabase.functions.invoke('links', { body: {} });
    expect(await screen.findByText('Validation fails')).toBeVisible();
    expect(screen.getByText('The URL field is required.')).toBeVisible();

    await waitFor(() => expect(screen.queryByText('Validation fails')).not.toBeInTheDocument(), {
      timeout: 4_500,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    expect(screen.getByText('The URL field is required.')).toBeInTheDocument();
    await waitFor(
      () => expect(screen.queryByText('The URL field is required.')).not.toBeInTheDocument(),
      { timeout: 3_000 },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
  });

  describe('423: password confirmation', () => {
    function setupLocked() {
      const context = setup();
      const { backend } = context;
      let unlocked = false;
      backend.on('POST', '/auth/v1/logout', () => new Response(null, { status: 204 }));
      backend.on('POST', '/auth/v1/token', async (request) => {
        const body = (await request.json()) as { password: string };
        if (body.password !== 'correct horse') {
          return goTrueError(400, 'invalid_credentials', 'Invalid login credentials');
        }
        unlocked = true;
        return json(sessionBody(user, { amr: [{ method: 'password', timestamp: 2 }] }));
      });
      // The protected action: refused until the password was confirmed, then done once.
      backend.on('POST', '/rest/v1/rpc/delete_account', async (request) => {
        if (!unlocked) return json({ message: 'Password confirmation required.' }, { status: 423 });
        return json({ deleted: true, body: await request.json() });
      });
      return context;
    }

    it('asks for the password, refuses a wrong one, then retries the original request', async () => {
      const { backend, testServices, supabase } = setupLocked();
      await startSession(testServices, backend, user);
      const firstToken = (await supabase.auth.getSession()).data.session!.access_token;
      const { user: person } = render(<p>page</p>, { backend, testServices });

      // A query builder sends its request once awaited: then() starts it.
      const pending = supabase
        .rpc('delete_account' as never, { reason: 'moving' } as never)
        .then((result) => result);
      const dialog = await findLoadedDialog('Confirm your password');

      await person.type(within(dialog).getByLabelText('Password'), 'wrong');
      await person.click(within(dialog).getByRole('button', { name: 'Confirm' }));
      expect(await within(dialog).findByText('The password is incorrect.')).toBeVisible();

      await person.clear(within(dialog).getByLabelText('Password'));
      await person.type(within(dialog).getByLabelText('Password'), 'correct horse');
      await person.click(within(dialog).getByRole('button', { name: 'Confirm' }));

      const { data, error } = await pending;
      expect(error).toBeNull();
      expect(data).toEqual({ deleted: true, body: { reason: 'moving' } });
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

      const calls = backend.requestsTo('POST', '/rest/v1/rpc/delete_account');
      expect(calls).toHaveLength(2);
      expect(calls[0]!.headers.get('authorization')).toBe(`Bearer ${firstToken}`);
      const retriedWith = calls[1]!.headers.get('authorization');
      expect(retriedWith).toMatch(/^Bearer /);
      expect(retriedWith).not.toBe(`Bearer ${firstToken}`);
      expect(window.localStorage.getItem(STORAGE_KEYS.passwordConfirmed)).not.toBeNull();
      // The session the confirmation replaced is ended at Auth, and only that one.
      const logouts = backend.requestsTo('POST', '/auth/v1/logout');
      expect(logouts.map((request) => request.headers.get('authorization'))).toEqual([
        `Bearer ${firstToken}`,
      ]);
      expect(new URL(logouts[0]!.url).searchParams.get('scope')).toBe('local');
    });

    it('fails the original request when the user cancels', async () => {
      const { backend, testServices, supabase } = setupLocked();
      await startSession(testServices, backend, user);
      const { user: person } = render(<p>page</p>, { backend, testServices });

      const pending = supabase.rpc('delete_account' as never, {} as never).then((result) => result);
      const dialog = await findLoadedDialog('Confirm your password');
      await person.click(within(dialog).getByRole('button', { name: 'Cancel' }));

      const { error, status } = await pending;
      expect(status).toBe(423);
      expect(error?.message).toBe('Password confirmation required.');
      expect(backend.requestsTo('POST', '/rest/v1/rpc/delete_account')).toHaveLength(1);
      expect(backend.requestsTo('POST', '/auth/v1/token')).toHaveLength(0);
    });
  });
});
