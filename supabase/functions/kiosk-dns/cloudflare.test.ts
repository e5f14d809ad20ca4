import assert from 'node:assert/strict';
import { CloudflareDnsProvider } from './cloudflare.ts';
import { DnsProviderError, ZONE_EXISTS } from './provider.ts';

/** A loopback server answering as Cloudflare's v4 API would, recording each request. */
function cloudflareStub(answer: (request: Request, path: string) => Response | Promise<Response>) {
  const calls: { method: string; path: string; authorization: string | null; body: unknown }[] = [];
  const server = Deno.serve(
    { port: 0, hostname: '127.0.0.1', onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      const text = await request.text();
      calls.push({
        method: request.method,
        path: url.pathname + url.search,
        authorization: request.headers.get('authorization'),
        body: text ? JSON.parse(text) : undefined,
      });
      return answer(request, url.pathname);
    },
  );
  return {
    calls,
    url: `http://127.0.0.1:${server.addr.port}/client/v4`,
    close: () => server.shutdown(),
  };
}

const envelope = (result: unknown, status = 200) =>
  Response.json({ success: true, errors: [], messages: [], result }, { status });
const failure = (status: number, errors: { code: number; message: string }[]) =>
  Response.json({ success: false, errors, messages: [], result: null }, { status });

const cloudflareZone = {
  id: '023e105f4ecef8ad9ca31a8372d0c353',
  name: 'example.com',
  status: 'pending',
  name_servers: ['bob.ns.cloudflare.com', 'lola.ns.cloudflare.com'],
  account: { id: 'acc_1', name: 'Shortlane' },
  type: 'full',
};

Deno.test(
  'creates a full zone in the account with the bearer token, and reads the answer',
  async () => {
    const stub = cloudflareStub(() => envelope(cloudflareZone));
    try {
      const provider = new CloudflareDnsProvider({
        apiToken: 'cf-token',
        accountId: 'acc_1',
        apiUrl: stub.url,
      });
      const zone = await provider.createZone('example.com');
      assert.deepEqual(zone, {
        id: '023e105f4ecef8ad9ca31a8372d0c353',
        name: 'example.com',
        status: 'pending',
        nameServers: ['bob.ns.cloudflare.com', 'lola.ns.cloudflare.com'],
      });
      assert.deepEqual(stub.calls, [
        {
          method: 'POST',
          path: '/client/v4/zones',
          authorization: 'Bearer cf-token',
          body: { name: 'example.com', account: { id: 'acc_1' }, type: 'full' },
        },
      ]);
    } finally {
      await stub.close();
    }
  },
);

Deno.test('maps zone states, and answers null for a zone Cloudflare no longer has', async () => {
  const states: Record<string, string> = { a: 'active', m: 'moved', i: 'initializing' };
  const stub = cloudflareStub((_request, path) => {
    const id = path.split('/').at(-1)!;
    if (id === 'gone')
      return failure(404, [{ code: 7003, message: 'Could not route to /zones/gone' }]);
    return envelope({ ...cloudflareZone, id, status: states[id] });
  });
  try {
    const provider = new CloudflareDnsProvider({
      apiToken: 't',
      accountId: 'acc',
      apiUrl: stub.url,
    });
    assert.equal((await provider.getZone('a'))?.status, 'active');
    assert.equal((await provider.getZone('m'))?.status, 'moved');
    assert.equal((await provider.getZone('i'))?.status, 'pending');
    assert.equal(await provider.getZone('gone'), null);
    assert.deepEqual(
      stub.calls.map((call) => `${call.method} ${call.path}`),
      [
        'GET /client/v4/zones/a',
        'GET /client/v4/zones/m',
        'GET /client/v4/zones/i',
        'GET /client/v4/zones/gone',
      ],
    );
  } finally {
    await stub.close();
  }
});

Deno.test('deletes a zone, and counts one already gone as deleted', async () => {
  const stub = cloudflareStub((_request, path) =>
    path.endsWith('/gone')
      ? failure(404, [{ code: 7003, message: 'Could not route' }])
      : envelope({ id: path.split('/').at(-1) }),
  );
  try {
    const provider = new CloudflareDnsProvider({
      apiToken: 't',
      accountId: 'acc',
      apiUrl: stub.url,
    });
    await provider.deleteZone('z1');
    await provider.deleteZone('gone');
    assert.deepEqual(
      stub.calls.map((call) => `${call.method} ${call.path}`),
      ['DELETE /client/v4/zones/z1', 'DELETE /client/v4/zones/gone'],
    );
  } finally {
    await stub.close();
  }
});

Deno.test(
  'reports Cloudflare refusals with their messages and codes, as ours (422) or theirs (502)',
  async () => {
    const stub = cloudflareStub((request) =>
      request.method === 'POST'
        ? failure(400, [{ code: 1003, message: 'Invalid or missing zone name.' }])
        : failure(500, [{ code: 1000, message: 'Internal error' }]),
    );
    try {
      const provider = new CloudflareDnsProvider({
        apiToken: 't',
        accountId: 'acc',
        apiUrl: stub.url,
      });
      await assert.rejects(provider.createZone('example.com'), (error: unknown) => {
        assert.ok(error instanceof DnsProviderError);
        assert.equal(error.message, 'Cloudflare refused: Invalid or missing zone name.');
        assert.equal(error.status, 422);
        assert.deepEqual(error.providerCodes, [1003]);
        return true;
      });
      await assert.rejects(provider.getZone('z'), (error: unknown) => {
        assert.ok(error instanceof DnsProviderError);
        assert.equal(error.status, 502);
        return true;
      });
    } finally {
      await stub.close();
    }
  },
);

Deno.test('refuses a second zone for a name the account has (1061) as the port says', async () => {
  const stub = cloudflareStub(() =>
    failure(400, [{ code: 1061, message: 'example.com already exists' }]),
  );
  try {
    const provider = new CloudflareDnsProvider({
      apiToken: 't',
      accountId: 'acc',
      apiUrl: stub.url,
    });
    await assert.rejects(provider.createZone('example.com'), (error: unknown) => {
      assert.ok(error instanceof DnsProviderError);
      assert.equal(error.message, 'Cloudflare refused: example.com already exists');
      assert.equal(error.status, ZONE_EXISTS);
      assert.deepEqual(error.providerCodes, [1061]);
      return true;
    });
    assert.deepEqual(
      stub.calls.map((call) => `${call.method} ${call.path}`),
      ['POST /client/v4/zones'],
    );
  } finally {
    await stub.close();
  }
});

Deno.test(
  'finds the account’s zone for a name by listing, and answers null when it has none',
  async () => {
    const stub = cloudflareStub((request) => {
      const name = new URL(request.url).searchParams.get('name');
      if (name === 'broken.com') return failure(500, [{ code: 1000, message: 'Internal error' }]);
      // A list that holds another name too: only the asked one is the answer.
      return envelope(
        name === 'example.com'
          ? [{ ...cloudflareZone, id: 'other', name: 'www.example.com' }, cloudflareZone]
          : [],
      );
    });
    try {
      const provider = new CloudflareDnsProvider({
        apiToken: 'cf-token',
        accountId: 'acc_1',
        apiUrl: stub.url,
      });
      assert.deepEqual(await provider.findZone('example.com'), {
        id: '023e105f4ecef8ad9ca31a8372d0c353',
        name: 'example.com',
        status: 'pending',
        nameServers: ['bob.ns.cloudflare.com', 'lola.ns.cloudflare.com'],
      });
      assert.equal(await provider.findZone('example.org'), null);
      await assert.rejects(
        provider.findZone('broken.com'),
        (error: unknown) => error instanceof DnsProviderError && error.status === 502,
      );
      assert.deepEqual(
        stub.calls.map((call) => `${call.method} ${call.path} ${call.authorization}`),
        [
          'GET /client/v4/zones?name=example.com&account.id=acc_1 Bearer cf-token',
          'GET /client/v4/zones?name=example.org&account.id=acc_1 Bearer cf-token',
          'GET /client/v4/zones?name=broken.com&account.id=acc_1 Bearer cf-token',
        ],
      );
    } finally {
      await stub.close();
    }
  },
);

Deno.test('refuses answers that are not Cloudflare envelopes or zones', async () => {
  const answers = [
    new Response('<html>gateway</html>', { status: 502 }),
    envelope({ id: 42 }),
    envelope(cloudflareZone),
  ];
  const stub = cloudflareStub(() => answers.shift()!);
  try {
    const provider = new CloudflareDnsProvider({
      apiToken: 't',
      accountId: 'acc',
      apiUrl: stub.url,
    });
    await assert.rejects(provider.getZone('z'), /without JSON/);
    await assert.rejects(provider.getZone('z'), /unreadable zone/);
    await assert.rejects(provider.findZone('example.com'), /unreadable zone list/);
  } finally {
    await stub.close();
  }
});

Deno.test('reports an unreachable API as a provider failure', async () => {
  const provider = new CloudflareDnsProvider({
    apiToken: 't',
    accountId: 'acc',
    apiUrl: 'http://127.0.0.1:9/client/v4',
  });
  await assert.rejects(
    provider.getZone('z'),
    (error: unknown) =>
      error instanceof DnsProviderError &&
      error.status === 502 &&
      /could not be reached/.test(error.message),
  );
});

Deno.test('sets a record in a zone (a purchased domain’s), and passes a refusal on', async () => {
  let refuse = false;
  const stub = cloudflareStub(() =>
    refuse
      ? failure(400, [{ code: 81057, message: 'Record already exists.' }])
      : envelope({ id: 'rec_1', type: 'TXT' }),
  );
  try {
    const provider = new CloudflareDnsProvider({
      apiToken: 'cf-token',
      accountId: 'acc_1',
      apiUrl: stub.url,
    });
    const zone = {
      id: cloudflareZone.id,
      name: 'example.com',
      status: 'active' as const,
      nameServers: [],
    };
    await provider.putRecord(zone, {
      name: '_shortlane-verification.example.com',
      type: 'TXT',
      value: 'token',
    });
    assert.deepEqual(stub.calls, [
      {
        method: 'POST',
        path: `/client/v4/zones/${cloudflareZone.id}/dns_records`,
        authorization: 'Bearer cf-token',
        body: {
          type: 'TXT',
          name: '_shortlane-verification.example.com',
          content: 'token',
          ttl: 1,
        },
      },
    ]);
    refuse = true;
    await assert.rejects(
      provider.putRecord(zone, { name: 'example.com', type: 'A', value: '192.0.2.1' }),
      (error: unknown) =>
        error instanceof DnsProviderError &&
        error.status === 422 &&
        error.providerCodes[0] === 81057,
    );
  } finally {
    await stub.close();
  }
});
