import assert from 'node:assert/strict';
import { checkDomain, type Lookup, parseNameServer, verifierConfigFromEnv } from './dns.ts';

const DOMAIN = 'go.example.com';
const TOKEN = 'abc123';
const config = {
  cnameTarget: 'redirect.shortlane.app',
  addresses: ['203.0.113.10', '2001:db8::10'],
};

/** A resolver answering from a table: `name TYPE` → answers, or an Error to throw. */
function fakeLookup(table: Record<string, unknown[] | Error>): Lookup {
  const lookup = (query: string, type: string) => {
    const answer = table[`${query} ${type}`];
    if (answer instanceof Error) return Promise.reject(answer);
    if (!answer) return Promise.reject(new Deno.errors.NotFound('no record found'));
    return Promise.resolve(answer);
  };
  // The table stands in for every overload of Deno.resolveDns the checker uses.
  return lookup as unknown as Lookup;
}

const txt = { [`_shortlane-verification.${DOMAIN} TXT`]: [[TOKEN]] };

Deno.test(
  'passes with the token in TXT and a CNAME to the redirect host (any case, dotted)',
  async () => {
    const outcome = await checkDomain(
      DOMAIN,
      TOKEN,
      config,
      fakeLookup({ ...txt, [`${DOMAIN} CNAME`]: ['Redirect.Shortlane.App.'] }),
    );
    assert.deepEqual(outcome, { passed: true });
  },
);

Deno.test('joins a TXT record split in character-strings', async () => {
  const outcome = await checkDomain(
    DOMAIN,
    TOKEN,
    config,
    fakeLookup({
      [`_shortlane-verification.${DOMAIN} TXT`]: [['other'], ['abc', '123']],
      [`${DOMAIN} A`]: ['203.0.113.10'],
    }),
  );
  assert.deepEqual(outcome, { passed: true });
});

Deno.test('names the problem: missing TXT, wrong TXT, host elsewhere, DNS failing', async () => {
  assert.deepEqual(await checkDomain(DOMAIN, TOKEN, config, fakeLookup({})), {
    passed: false,
    problem: 'txt_missing',
  });
  assert.deepEqual(
    await checkDomain(
      DOMAIN,
      TOKEN,
      config,
      fakeLookup({ [`_shortlane-verification.${DOMAIN} TXT`]: [['abc1234']] }),
    ),
    { passed: false, problem: 'txt_mismatch' },
  );
  // One address ours and one not: some visitors would land elsewhere.
  assert.deepEqual(
    await checkDomain(
      DOMAIN,
      TOKEN,
      config,
      fakeLookup({ ...txt, [`${DOMAIN} A`]: ['203.0.113.10', '198.51.100.1'] }),
    ),
    { passed: false, problem: 'host_not_pointing' },
  );
  assert.deepEqual(
    await checkDomain(
      DOMAIN,
      TOKEN,
      config,
      fakeLookup({ [`_shortlane-verification.${DOMAIN} TXT`]: new Error('timed out') }),
    ),
    { passed: false, problem: 'dns_error' },
  );
});

Deno.test('reads DNS_NAME_SERVER as address and port, and refuses anything else', () => {
  assert.equal(parseNameServer(undefined), undefined);
  assert.deepEqual(parseNameServer('127.0.0.1:54333'), { ipAddr: '127.0.0.1', port: 54333 });
  assert.deepEqual(parseNameServer('[::1]:5353'), { ipAddr: '::1', port: 5353 });
  assert.deepEqual(parseNameServer('1.1.1.1'), { ipAddr: '1.1.1.1', port: 53 });
  assert.throws(() => parseNameServer('ns.example.com:53'), /DNS_NAME_SERVER/);
  assert.throws(() => parseNameServer('127.0.0.1:70000'), /DNS_NAME_SERVER/);
  const env = (values: Record<string, string>) => ({ get: (name: string) => values[name] });
  assert.throws(() => verifierConfigFromEnv(env({})), /DOMAIN_CNAME_TARGET/);
  assert.deepEqual(
    verifierConfigFromEnv(
      env({ DOMAIN_CNAME_TARGET: 'R.example.', DOMAIN_A_ADDRESSES: ' 192.0.2.1, ,2001:DB8::1' }),
    ),
    {
      nameServer: undefined,
      cnameTarget: 'r.example',
      addresses: ['192.0.2.1', '2001:db8::1'],
    },
  );
});
