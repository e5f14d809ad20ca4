import assert from 'node:assert/strict';
import { allowedReturnOrigin } from './return-origin.ts';

Deno.test('a return origin must be listed (a * port matches any port)', () => {
  const allowed = 'https://shortlane.app, http://localhost:*';
  assert.equal(allowedReturnOrigin('https://shortlane.app', allowed), 'https://shortlane.app');
  assert.equal(allowedReturnOrigin('http://localhost:45173', allowed), 'http://localhost:45173');
  assert.equal(allowedReturnOrigin('https://evil.example', allowed), null);
  assert.equal(allowedReturnOrigin('http://shortlane.app', allowed), null);
  assert.equal(allowedReturnOrigin('https://shortlane.app/path', allowed), null);
  assert.equal(allowedReturnOrigin(null, allowed), null);
});
