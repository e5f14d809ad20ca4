import assert from 'node:assert/strict';
import { HttpError } from '../_shared/http.ts';
import {
  BODY_NOT_AN_OBJECT,
  BODY_TOO_LARGE,
  MAX_BODY_BYTES,
  readLinkRequest,
  validateLinkRequest,
} from './request.ts';

const now = new Date('2026-11-22T12:00:00Z');

async function refusal(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof HttpError, String(error));
    return { status: error.status, code: error.code, message: error.message, errors: error.errors };
  }
  assert.fail('accepted');
}

async function refusalOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof HttpError, String(error));
    return { status: error.status, errors: error.errors };
  }
  assert.fail('accepted');
}

const bodyRequest = (body: BodyInit, headers: HeadersInit = {}) =>
  new Request('http://functions.test/links/url/create', { method: 'POST', body, headers });

Deno.test(
  'reads the form: trims, normalises tags and the URL, sends the expiry in UTC',
  async () => {
    assert.deepEqual(
      await validateLinkRequest(
        {
          url: ' https://example.com/a ',
          domain: 'tiny.localhost',
          alias: '',
          description: null,
          team: 'marketing',
          tags: [' Spring Sale ', '', 'EMAIL'],
          anti_robot_token: 'P1_token',
          expires_at: '2026-12-01T10:30',
          ccpa_accepted: true,
        },
        now,
      ),
      {
        destination: { ok: true, url: 'https://example.com/a', host: 'example.com' },
        domain: 'tiny.localhost',
        alias: null,
        description: null,
        team: 'marketing',
        tags: ['springsale', 'email'],
        antiRobotToken: 'P1_token',
        expiresAt: '2026-12-01T10:30:00.000Z',
        ccpaAccepted: true,
      },
    );
    const minimal = await validateLinkRequest(
      { url: 'https://example.com', domain: 'd.test' },
      now,
    );
    assert.deepEqual(
      [minimal.alias, minimal.team, minimal.tags, minimal.expiresAt, minimal.ccpaAccepted],
      [null, null, [], null, false],
    );
  },
);

Deno.test('names every missing field with the spec message', async () => {
  assert.deepEqual(await refusal(() => validateLinkRequest({}, now)), {
    status: 422,
    code: 'validation_failed',
    message: 'The URL field is required.',
    errors: {
      url: ['The URL field is required.'],
      domain: ['The domain field is required.'],
    },
  });
});

Deno.test('refuses unknown fields and wrong types per field', async () => {
  const { errors } = await refusal(() =>
    validateLinkRequest(
      {
        url: 'https://example.com',
        domain: 'd.test',
        alias: 42,
        tags: 'a,b',
        anti_robot_token: ['x'],
        ccpa_accepted: 'yes',
        account_id: 'someone-else',
        is_admin: true,
      },
      now,
    ),
  );
  assert.deepEqual(errors, {
    alias: ['The alias field must be a string.'],
    tags: ['The tags field must be an array.'],
    anti_robot_token: ['The anti robot token field must be a string.'],
    ccpa_accepted: ['The ccpa accepted field must be true or false.'],
    account_id: ['The account id field is prohibited.'],
    is_admin: ['The is admin field is prohibited.'],
  });
  assert.deepEqual(
    (
      await refusal(() =>
        validateLinkRequest({ url: 'https://e.com', domain: 'd', tags: ['ok', 7] }, now),
      )
    ).errors,
    { 'tags.1': ['The tags.1 field must be a string.'] },
  );
});

Deno.test(
  'applies the form rules: tags per index, alias format, URL text, expiry window',
  async () => {
    const { errors } = await refusal(() =>
      validateLinkRequest(
        {
          url: 'example.com',
          domain: 'd.test',
          alias: 'no spaces',
          tags: ['ok', 'x', 'ok', 'y'.repeat(46)],
          expires_at: '2026-11-22T12:03',
        },
        now,
      ),
    );
    assert.deepEqual(errors, {
      url: ['The url must be a valid URL.'],
      alias: ['The alias may only contain letters, numbers, dashes and underscores.'],
      'tags.1': ['The tag must be at least 2 characters.'],
      'tags.2': ['The tag has already been taken.'],
      'tags.3': ['The tag must not be greater than 45 characters.'],
      expires_at: ['The expiry must be at least 5 minutes from now.'],
    });
    assert.deepEqual(
      (
        await refusal(() =>
          validateLinkRequest(
            { url: 'https://e.com', domain: 'd', expires_at: '2032-01-01T00:00' },
            now,
          ),
        )
      ).errors,
      { expires_at: ['The expiry must be within 5 years.'] },
    );
    assert.deepEqual(
      (
        await refusal(() =>
          validateLinkRequest(
            { url: 'https://e.com', domain: 'd', expires_at: '2026-02-30T10:00' },
            now,
          ),
        )
      ).errors,
      { expires_at: ['The expiry is not a valid date.'] },
    );
  },
);

Deno.test('a URL refused alone keeps its code; CR and LF are not trimmed away', async () => {
  assert.deepEqual(
    await refusal(() => validateLinkRequest({ url: 'ftp://example.com/', domain: 'd' }, now)),
    {
      status: 422,
      code: 'url_not_allowed',
      message: 'This URL is not allowed.',
      errors: { url: ['This URL is not allowed.'] },
    },
  );
  for (const url of ['\nhttps://example.com/', 'https://example.com/\r\n', ' https://e.com/\t'])
    assert.deepEqual(await refusal(() => validateLinkRequest({ url, domain: 'd' }, now)), {
      status: 422,
      code: 'url_invalid',
      message: 'The url must be a valid URL.',
      errors: { url: ['The url must be a valid URL.'] },
    });
});

Deno.test(
  'reads the body: no body is an empty form, anything but an object is refused',
  async () => {
    assert.deepEqual(
      Object.keys((await refusalOf(readLinkRequest(bodyRequest(''), now))).errors ?? {}),
      ['url', 'domain'],
    );
    for (const body of ['[1]', '"text"', 'null', '{"url":', 'not json'])
      assert.deepEqual(await refusalOf(readLinkRequest(bodyRequest(body), now)), {
        status: 422,
        errors: { form: [BODY_NOT_AN_OBJECT] },
      });
    // Malformed UTF-8 is not a JSON text.
    assert.deepEqual(
      await refusalOf(readLinkRequest(bodyRequest(new Uint8Array([0x7b, 0xff, 0x7d])), now)),
      { status: 422, errors: { form: [BODY_NOT_AN_OBJECT] } },
    );
  },
);

Deno.test('refuses bodies over 64 KB, declared or streamed', async () => {
  const big = JSON.stringify({ url: `https://e.com/${'a'.repeat(MAX_BODY_BYTES)}`, domain: 'd' });
  assert.deepEqual(await refusalOf(readLinkRequest(bodyRequest(big), now)), {
    status: 413,
    errors: { form: [BODY_TOO_LARGE] },
  });
  // A stream without Content-Length is counted as it arrives.
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(8192).fill(0x20));
      controller.close();
    },
  });
  const streamed = bodyRequest(stream);
  assert.equal(streamed.headers.get('content-length'), null);
  assert.deepEqual(await refusalOf(readLinkRequest(streamed, now)), {
    status: 413,
    errors: { form: [BODY_TOO_LARGE] },
  });
});
