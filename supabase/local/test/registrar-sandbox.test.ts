import { describe, expect, inject, it } from 'vitest';
import {
  registrarBasicAuth,
  registrarSandbox,
  uniqueDomainName,
} from '../../tests/support/registrar.ts';

const env = inject('stackEnv');
const api = env.REGISTRAR_API_URL;
const control = registrarSandbox(env);
const authorization = registrarBasicAuth(env);

/** A call to the sandbox's Name.com API as the registrar adapter makes it. */
async function nameCom(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: {
      authorization,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const check = (domainNames: string[]) =>
  nameCom('POST', '/v4/domains:checkAvailability', { domainNames });
const create = (domainName: string, extra: Record<string, unknown> = {}, headers = {}) =>
  nameCom('POST', '/v4/domains', { domain: { domainName }, ...extra }, headers);
const renew = (domainName: string, body: Record<string, unknown> = {}) =>
  nameCom('POST', `/v4/domains/${domainName}:renew`, body);

const yearsLater = (iso: string, years: number) => {
  const date = new Date(iso);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date.getTime();
};

describe('registrar sandbox (Name.com Core API v4)', () => {
  it("refuses a call without the account's Basic credentials, with Name.com's error body", async () => {
    const wrong = `Basic ${Buffer.from(`${env.REGISTRAR_USERNAME}:not-the-token`).toString('base64')}`;
    for (const headers of [{}, { authorization: wrong }] as Record<string, string>[]) {
      const response = await fetch(`${api}/v4/domains:checkAvailability`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ domainNames: ['shortlane-test.com'] }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ message: 'Unauthorized' });
    }
    const controlCall = await fetch(`${api}/control/domains`, {
      headers: { authorization: wrong },
    });
    expect(controlCall.status).toBe(401);
  });

  it('answers availability per name: free at the TLD price, taken, premium, not offered', async () => {
    const free = uniqueDomainName('io');
    const taken = uniqueDomainName('com');
    const premium = uniqueDomainName('dev');
    await control.markTaken(taken);
    await control.setPremium(premium, { purchasePrice: 850, renewalPrice: 20 });
    const prices = await control.prices();

    const answer = await check([free, taken, premium, 'example.com', uniqueDomainName('zz')]);
    expect(answer.status).toBe(200);
    const results = answer.body.results as Record<string, unknown>[];
    expect(results).toHaveLength(5);
    expect(results[0]).toEqual({
      domainName: free,
      sld: free.split('.')[0],
      tld: 'io',
      purchasable: true,
      purchaseType: 'registration',
      purchasePrice: prices.io!.registration,
      renewalPrice: prices.io!.renewal,
    });
    // Name.com leaves out what is false: a name that cannot be bought has no purchasable field.
    expect(results[1]).toEqual({ domainName: taken, sld: taken.split('.')[0], tld: 'com' });
    expect(results[2]).toMatchObject({ purchasable: true, premium: true, purchasePrice: 850 });
    expect(results[3]).not.toHaveProperty('purchasable');
    expect(results[4]).not.toHaveProperty('purchasable');

    // A second-level TLD is sold under its own price; a name below a registrable one is not.
    const british = uniqueDomainName('co.uk');
    const [uk, below] = (await check([british, `www.${british}`])).body.results;
    expect(uk).toMatchObject({
      tld: 'co.uk',
      purchasable: true,
      purchasePrice: prices['co.uk']!.registration,
    });
    expect(below).not.toHaveProperty('purchasable');

    await control.markFree(taken);
    expect((await check([taken])).body.results[0]).toMatchObject({ purchasable: true });
  });

  it("answers a name that is not a domain name, or only TLDs it does not sell, with Name.com's errors", async () => {
    const invalid = await check(['not a domain', uniqueDomainName()]);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      message: 'Invalid Argument',
      details: 'Invalid Domain Name: not a domain',
    });
    expect((await check([])).status).toBe(400);
    const unsupported = await check([uniqueDomainName('zz')]);
    expect(unsupported.status).toBe(422);
    expect(unsupported.body.message).toBe('Unprocessable Entity');

    const noJson = await fetch(`${api}/v4/domains:checkAvailability`, {
      method: 'POST',
      headers: { authorization },
      body: JSON.stringify({ domainNames: [uniqueDomainName()] }),
    });
    expect(noJson.status).toBe(415);
  });

  it('registers a free name for the years asked, then calls it unavailable', async () => {
    const name = uniqueDomainName('net');
    const prices = await control.prices();
    const before = Date.now();
    const created = await create(name, {
      years: 2,
      domain: { domainName: name, nameservers: ['ns1.example.net', 'ns2.example.net'] },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      domain: {
        domainName: name,
        autorenewEnabled: true,
        nameservers: ['ns1.example.net', 'ns2.example.net'],
        renewalPrice: prices.net!.renewal,
      },
      order: expect.any(Number),
      totalPaid: Math.round((prices.net!.registration + prices.net!.renewal) * 100) / 100,
    });
    const { createDate, expireDate } = created.body.domain as Record<string, string>;
    expect(Date.parse(createDate!)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(expireDate!)).toBe(yearsLater(createDate!, 2));

    const again = await create(name);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      message: 'Invalid Argument',
      details: `Domain is not available: ${name}`,
    });
    expect((await check([name])).body.results[0]).not.toHaveProperty('purchasable');
    const read = await nameCom('GET', `/v4/domains/${name}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body.domain);
    expect(await control.domain(name)).toMatchObject({ domainName: name, expireDate });
  });

  it('leaves out autorenewEnabled when the order turned it off, as Name.com omits false', async () => {
    const name = uniqueDomainName('org');
    const created = await create(name, { domain: { domainName: name, autorenewEnabled: false } });
    expect(created.status).toBe(200);
    expect(created.body.domain).not.toHaveProperty('autorenewEnabled');
    expect((await control.domain(name))?.autorenewEnabled).toBe(false);
  });

  it('sells a premium name only at its price, stated in the order', async () => {
    const name = uniqueDomainName('app');
    await control.setPremium(name, { purchasePrice: 1200 });
    const prices = await control.prices();
    const unpriced = await create(name);
    expect(unpriced.status).toBe(400);
    expect(unpriced.body.details).toBe(
      'Purchase price is required for premium domains in order to complete this request',
    );
    const stale = await create(name, { purchasePrice: 1100 });
    expect(stale.body).toEqual({
      message: 'Invalid Argument',
      details: 'Purchase price does not match',
    });
    const bought = await create(name, {
      years: 2,
      purchasePrice: 1200 + prices.app!.renewal,
    });
    expect(bought.status).toBe(200);
    expect(bought.body.totalPaid).toBe(1200 + prices.app!.renewal);
  });

  it('renews a domain it holds by the years asked, and no other', async () => {
    const name = uniqueDomainName('co');
    const created = await create(name);
    const expireDate = created.body.domain.expireDate as string;
    const prices = await control.prices();

    const renewed = await renew(name, { years: 3 });
    expect(renewed.status).toBe(200);
    expect(Date.parse(renewed.body.domain.expireDate)).toBe(yearsLater(expireDate, 3));
    expect(renewed.body.totalPaid).toBe(Math.round(prices.co!.renewal * 3 * 100) / 100);
    expect(renewed.body.order).toBeGreaterThan(created.body.order);

    const tooFar = await renew(name, { years: 9 });
    expect(tooFar.status).toBe(400);
    const elsewhere = await renew(uniqueDomainName());
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.message).toBe('Not Found');
    expect((await nameCom('GET', `/v4/domains/${uniqueDomainName()}`)).status).toBe(404);
  });

  it('fails the next renew of a name with a payment error once, as armed', async () => {
    const name = uniqueDomainName('link');
    await create(name);
    await control.failNext({ operation: 'renew', domainName: name, error: 'payment' });
    const other = uniqueDomainName('link');
    await create(other);
    expect((await renew(other)).status).toBe(200);

    const before = (await control.domain(name))?.expireDate;
    const refused = await renew(name);
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ message: 'Payment failed', details: 'Insufficient Funds' });
    expect((await control.domain(name))?.expireDate).toBe(before);
    expect((await renew(name)).status).toBe(200);
  });

  it('fails the next register of a name as armed (payment, unavailable, registry down)', async () => {
    const name = uniqueDomainName('com');
    await control.failNext({ operation: 'register', domainName: name, error: 'unreachable' });
    await control.failNext({ operation: 'register', domainName: name, error: 'payment' });
    expect(await control.failures()).toEqual(
      expect.arrayContaining([{ operation: 'register', domainName: name, error: 'payment' }]),
    );
    const down = await create(name);
    expect(down.status).toBe(502);
    expect(down.body).toEqual({ message: 'Registry Connection Unavailable' });
    expect((await create(name)).status).toBe(402);
    expect(await control.domain(name)).toBeNull();
    expect((await create(name)).status).toBe(200);

    const later = uniqueDomainName('com');
    await control.failNext({ operation: 'register', domainName: later, error: 'unavailable' });
    await control.clearFailures(later);
    expect((await create(later)).status).toBe(200);
  });

  it('replays a completed order to a retry with the same idempotency key', async () => {
    const name = uniqueDomainName('dev');
    const key = crypto.randomUUID();
    const first = await create(name, {}, { 'x-idempotency-key': key });
    const retry = await create(name, {}, { 'x-idempotency-key': key });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('x-idempotent-replay')).toBe('1');
    const reused = await create(uniqueDomainName('dev'), {}, { 'x-idempotency-key': key });
    expect(reused.status).toBe(409);
  });
});
