import { describe, expect, it } from 'vitest';
import { json } from '../http.ts';
import { badRequest } from './errors.ts';
import { Router } from './router.ts';

const router = new Router()
  .on('GET', '/things/:id', async ({ params }) => json({ id: params.id }))
  .on('POST', '/fail', async () => {
    throw badRequest('validation_failed', 'Nope');
  });

const call = (method: string, path: string, headers: Record<string, string> = {}) =>
  router.handle(new Request(`http://auth.test${path}`, { method, headers }));

describe('Router', () => {
  it('passes path parameters, decoded, and ignores a trailing slash', async () => {
    expect(await (await call('GET', '/things/a%20b/')).json()).toEqual({ id: 'a b' });
    expect(await (await call('GET', '/things/%E0%A4%A')).json()).toEqual({ id: '%E0%A4%A' });
  });

  it('answers unknown paths with a JSON 404 and wrong methods as chi does', async () => {
    const missing = await call('GET', '/nothing');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/json');
    expect(await missing.json()).toEqual({
      code: 404,
      error_code: 'not_found',
      msg: '404 page not found',
    });
    const modern = await call('GET', '/nothing', { 'x-supabase-api-version': '2024-01-01' });
    expect(await modern.json()).toEqual({ code: 'not_found', message: '404 page not found' });
    const wrongMethod = await call('DELETE', '/things/1');
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.text()).toBe('');
  });

  it('matches a whole subtree with /* and any method with *', async () => {
    const tree = new Router().on('*', '/sso/*', async ({ url, request }) =>
      json({ path: url.pathname, method: request.method }),
    );
    const hit = (method: string, path: string) =>
      tree.handle(new Request(`http://auth.test${path}`, { method }));
    expect(await (await hit('POST', '/sso')).json()).toEqual({ path: '/sso', method: 'POST' });
    expect(await (await hit('GET', '/sso/saml/metadata')).json()).toEqual({
      path: '/sso/saml/metadata',
      method: 'GET',
    });
    expect((await hit('GET', '/ssox')).status).toBe(404);
  });

  it('turns thrown API errors into their JSON answers, in the format the client asked for', async () => {
    const modern = await call('POST', '/fail', { 'x-supabase-api-version': '2024-01-01' });
    expect(modern.status).toBe(400);
    expect(modern.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await modern.json()).toEqual({ code: 'validation_failed', message: 'Nope' });
    const legacy = await call('POST', '/fail');
    expect(await legacy.json()).toEqual({
      code: 400,
      error_code: 'validation_failed',
      msg: 'Nope',
    });
  });
});
