import assert from 'node:assert/strict';
import { matchCreateRoute } from './routes.ts';

Deno.test('matches the three create routes of section 7 under the function name', () => {
  assert.deepEqual(matchCreateRoute('/links/url/create'), { kind: 'own' });
  assert.deepEqual(matchCreateRoute('/links/organization/acme/team/marketing/url/create'), {
    kind: 'organization-team',
    organization: 'acme',
    team: 'marketing',
  });
  assert.deepEqual(matchCreateRoute('/links/organization/acme/personal/url/create'), {
    kind: 'organization-personal',
    organization: 'acme',
  });
});

Deno.test('decodes slugs and refuses what names no route', () => {
  assert.deepEqual(matchCreateRoute('/links/organization/a%20b/personal/url/create'), {
    kind: 'organization-personal',
    organization: 'a b',
  });
  for (const path of [
    '/links',
    '/links/',
    '/links/url',
    '/links/url/create/',
    '/links/url/create/more',
    '/url/create',
    '/other/url/create',
    '/links/organization//personal/url/create',
    '/links/organization/acme/url/create',
    '/links/organization/acme/team/url/create',
    '/links/organization/acme/team/t/url/delete',
    '/links/organization/%E0%A4/personal/url/create', // a malformed escape
    '/links/organization/a%2Fb/personal/url/create', // an escaped slash is no slug
    '/links/bulk/csv',
  ])
    assert.equal(matchCreateRoute(path), null, path);
});
