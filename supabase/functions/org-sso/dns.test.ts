import assert from 'node:assert/strict';
import { checkSsoDomain, type Lookup, ssoRecordName } from './dns.ts';

const lookupOf =
  (answers: Record<string, string[][] | Error>): Lookup =>
  (query) => {
    const answer = answers[query];
    if (answer instanceof Error) return Promise.reject(answer);
    return Promise.resolve(answer ?? []);
  };

Deno.test('an SSO domain is proved by its TXT record holding the token', async () => {
  const name = ssoRecordName('corp.example');
  assert.deepEqual(name, '_shortlane-sso.corp.example');
  const passed = await checkSsoDomain(
    'corp.example',
    'tok',
    undefined,
    lookupOf({ [name]: [['other'], ['t', 'ok']] }),
  );
  assert.deepEqual(passed, { passed: true });
});

Deno.test('a missing, wrong or unanswerable record says which', async () => {
  const name = ssoRecordName('corp.example');
  assert.deepEqual(
    await checkSsoDomain(
      'corp.example',
      'tok',
      undefined,
      lookupOf({
        [name]: new Deno.errors.NotFound('nxdomain'),
      }),
    ),
    { passed: false, message: `No TXT record at ${name} yet.` },
  );
  assert.deepEqual(
    await checkSsoDomain('corp.example', 'tok', undefined, lookupOf({ [name]: [['nope']] })),
    { passed: false, message: `The TXT record at ${name} does not hold the token.` },
  );
  assert.deepEqual(
    await checkSsoDomain(
      'corp.example',
      'tok',
      undefined,
      lookupOf({
        [name]: new Error('timeout'),
      }),
    ),
    { passed: false, message: `DNS could not be asked about ${name}; try again.` },
  );
});
