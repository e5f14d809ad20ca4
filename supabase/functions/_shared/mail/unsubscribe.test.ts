import assert from 'node:assert/strict';
import { mailpitSender, resendSender } from './sender.ts';
import { unsubscribeLinks, withUnsubscribe } from './unsubscribe.ts';

const TOKEN = 'ab'.repeat(24);
const links = unsubscribeLinks(TOKEN, 'https://app.shortlane.test/', 'https://ref.supabase.co');
const mail = withUnsubscribe(
  { to: 'ann@example.com', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' },
  links,
);

function capture() {
  const bodies: Record<string, unknown>[] = [];
  const doFetch = ((_url: string | URL | Request, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    return Promise.resolve(new Response('{}'));
  }) as typeof fetch;
  return { bodies, doFetch };
}

Deno.test('the links: the portal page and the one-click function, with the token', () => {
  assert.deepEqual(links, {
    page: `https://app.shortlane.test/app/unsubscribe?token=${TOKEN}`,
    oneClick: `https://ref.supabase.co/functions/v1/mailing-unsubscribe?token=${TOKEN}`,
  });
});

Deno.test('the mail gets the footer in both parts and the RFC 8058 headers', () => {
  assert.match(
    mail.text,
    new RegExp(
      `^Hello\\n\\n--\\nNo more e-mails from Shortlane: ${links.page.replace(/[?.]/g, '\\$&')}$`,
    ),
  );
  assert.match(
    mail.html,
    /<a href="https:\/\/app\.shortlane\.test\/app\/unsubscribe\?token=[0-9a-f]{48}">Unsubscribe<\/a>/,
  );
  assert.deepEqual(mail.headers, {
    'List-Unsubscribe': `<${links.oneClick}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  });
});

Deno.test('both senders pass the headers on in their own field', async () => {
  const mailpit = capture();
  await mailpitSender('http://127.0.0.1:54324', 'noreply@x.test', mailpit.doFetch).send(mail);
  assert.deepEqual(mailpit.bodies[0]!.Headers, mail.headers);
  const resend = capture();
  await resendSender('re_key', 'noreply@x.test', resend.doFetch).send(mail);
  assert.deepEqual(resend.bodies[0]!.headers, mail.headers);
});
