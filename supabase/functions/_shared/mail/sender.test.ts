import assert from 'node:assert/strict';
import {
  MailSendError,
  mailpitAddress,
  mailSenderFromEnv,
  mailpitSender,
  resendSender,
} from './sender.ts';

const mail = { to: 'ann@example.com', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' };

function capture(status = 200, body = '{"ID":"x"}') {
  const calls: { url: string; init: RequestInit }[] = [];
  const doFetch = ((url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return Promise.resolve(new Response(body, { status }));
  }) as typeof fetch;
  return { calls, doFetch };
}

Deno.test('mailpit: Mailpit send API body', async () => {
  const { calls, doFetch } = capture();
  await mailpitSender('http://127.0.0.1:54324', 'Shortlane <noreply@shortlane.test>', doFetch).send(
    mail,
  );
  assert.equal(calls[0]!.url, 'http://127.0.0.1:54324/api/v1/send');
  assert.deepEqual(JSON.parse(String(calls[0]!.init.body)), {
    From: { Email: 'noreply@shortlane.test', Name: 'Shortlane' },
    To: [{ Email: 'ann@example.com' }],
    Subject: 'Hi',
    Text: 'Hello',
    HTML: '<p>Hello</p>',
  });
  assert.deepEqual(mailpitAddress('noreply@x.test'), { Email: 'noreply@x.test' });
});

Deno.test('resend: bearer key and its JSON; a refusal throws with the status', async () => {
  const { calls, doFetch } = capture();
  await resendSender('re_key', 'noreply@shortlane.app', doFetch).send(mail);
  assert.equal(calls[0]!.url, 'https://api.resend.com/emails');
  assert.equal(new Headers(calls[0]!.init.headers).get('Authorization'), 'Bearer re_key');
  assert.deepEqual(JSON.parse(String(calls[0]!.init.body)), {
    from: 'noreply@shortlane.app',
    to: ['ann@example.com'],
    subject: 'Hi',
    text: 'Hello',
    html: '<p>Hello</p>',
  });
  const refused = capture(422, '{"message":"invalid from"}');
  await assert.rejects(
    resendSender('re_key', 'bad', refused.doFetch).send(mail),
    (error) => error instanceof MailSendError && error.status === 422,
  );
});

Deno.test('the environment names the sender, or start-up says which variable is wrong', () => {
  const env = (values: Record<string, string>) => (name: string) => values[name];
  assert.ok(
    mailSenderFromEnv(env({ MAIL_PROVIDER: 'mailpit', MAILPIT_URL: 'http://127.0.0.1:1' })),
  );
  assert.throws(() => mailSenderFromEnv(env({})), /MAIL_PROVIDER must be one of mailpit, resend/);
  assert.throws(() => mailSenderFromEnv(env({ MAIL_PROVIDER: 'resend' })), /RESEND_API_KEY/);
});
