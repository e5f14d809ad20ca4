import { describe, expect, it } from 'vitest';
import { Mailbox, parseSendRequest } from './mail.ts';

const send = (mailbox: Mailbox, body: unknown) =>
  mailbox.handler(
    new Request('http://127.0.0.1:54324/api/v1/send', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );

describe("the mail catcher's send API (Mailpit's POST /api/v1/send)", () => {
  it('stores the message under its sender and lists it by recipient', async () => {
    const mailbox = new Mailbox();
    const answer = await send(mailbox, {
      From: { Email: 'team@shortlane.test', Name: 'Shortlane' },
      To: [{ Email: 'Ann@Example.com' }],
      Subject: 'Invitation',
      Text: 'Join us',
      HTML: '<p>Join us</p>',
    });
    expect(answer.status).toBe(200);
    const { ID } = (await answer.json()) as { ID: string };
    const list = await mailbox.handler(
      new Request('http://127.0.0.1:54324/api/v1/search?query=to:ann@example.com'),
    );
    const { messages } = (await list.json()) as {
      messages: { ID: string; From: { Address: string }; Subject: string }[];
    };
    expect(messages).toMatchObject([
      { ID, From: { Address: 'team@shortlane.test' }, Subject: 'Invitation' },
    ]);
  });

  it('keeps the headers it is given and answers them as Mailpit does', async () => {
    const mailbox = new Mailbox();
    const answer = await send(mailbox, {
      From: { Email: 'team@shortlane.test' },
      To: [{ Email: 'ann@example.com' }],
      Subject: 'Invitation',
      Text: 'Join us',
      Headers: {
        'List-Unsubscribe': '<https://x.test/u?token=1>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    const { ID } = (await answer.json()) as { ID: string };
    const headers = await mailbox.handler(
      new Request(`http://127.0.0.1:54324/api/v1/message/${ID}/headers`),
    );
    expect(await headers.json()).toMatchObject({
      Subject: ['Invitation'],
      'List-Unsubscribe': ['<https://x.test/u?token=1>'],
      'List-Unsubscribe-Post': ['List-Unsubscribe=One-Click'],
    });
    expect(
      parseSendRequest({
        From: { Email: 'a@b.test' },
        To: [{ Email: 'c@d.test' }],
        Subject: 's',
        Text: 't',
        Headers: { X: 1 },
      }),
    ).toBe('Headers must map header names to strings');
  });

  it('refuses what Mailpit would not send', async () => {
    expect(parseSendRequest([])).toBe('The body must be a JSON object');
    expect(parseSendRequest({ To: [{ Email: 'a@b.test' }], Subject: 's', Text: 't' })).toBe(
      'From.Email is required',
    );
    expect(parseSendRequest({ From: { Email: 'a@b.test' }, To: [], Subject: 's', Text: 't' })).toBe(
      'To must hold one recipient with an Email',
    );
    expect(
      parseSendRequest({ From: { Email: 'a@b.test' }, To: [{ Email: 'c@d.test' }], Subject: 's' }),
    ).toBe('Subject and Text or HTML are required');
    const mailbox = new Mailbox();
    expect((await send(mailbox, { Subject: 'x' })).status).toBe(400);
    expect(mailbox.list()).toEqual([]);
  });
});
