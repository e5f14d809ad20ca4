import { describe, expect, it, vi } from 'vitest';
import { testAccessToken } from '../test/services.ts';
import { guardImpersonationLogout } from './impersonationLogoutGuard.ts';

const logout = (token: string) =>
  new Request('http://stack.test/auth/v1/logout?scope=local', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });

describe('guardImpersonationLogout', () => {
  it('answers the logout of an impersonation session itself', async () => {
    const network = vi.fn(async () => new Response(null, { status: 204 }));
    const token = testAccessToken({ sub: 'u1', impersonator: 'staff-1', impersonation_id: 3 });
    const response = await guardImpersonationLogout(network)(logout(token));
    expect(response.status).toBe(204);
    expect(network).not.toHaveBeenCalled();
  });

  it("lets a user's own logout, and every other request, through", async () => {
    const network = vi.fn(async () => new Response(null, { status: 204 }));
    const guarded = guardImpersonationLogout(network);
    await guarded(logout(testAccessToken({ sub: 'u1' })));
    await guarded(new Request('http://stack.test/rest/v1/aliases'));
    expect(network).toHaveBeenCalledTimes(2);
  });
});
