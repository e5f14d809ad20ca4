import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import { mailpitSender, type MailSender, type OutgoingMail } from '../_shared/mail/sender.ts';
import { closeSql, sql } from '../_shared/sql.ts';
import { callerClient } from '../_shared/supabase.ts';
import { userAuthorization, useStackAsRuntimeEnv } from '../_shared/testing.ts';
import { createMailingUnsubscribe } from '../mailing-unsubscribe/handler.ts';
import { createInvitationMailHandler, mailingTokenFor } from './handler.ts';

/**
 * The handler called directly against the running local stack: the caller's client asks the
 * database for the link token (its rules decide who may), the mail goes to the stack's catcher.
 */
const env = useStackAsRuntimeEnv();
const PORTAL = 'http://localhost:30999';
const admin = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
  auth: { persistSession: false, autoRefreshToken: false },
});
const anon = createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
  auth: { persistSession: false, autoRefreshToken: false },
});

const suffix = () => crypto.randomUUID().slice(0, 8);

async function createUser(label: string) {
  const email = `${label}-${suffix()}@functions.test`;
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password: `Pw-${crypto.randomUUID()}`,
    email_confirm: true,
  });
  if (error) throw error;
  return {
    id: data.user.id,
    email,
    authorization: await userAuthorization(env, data.user.id),
  };
}

/** An organization owned by `ownerId` with one role, and a pending invitation to it. */
async function invitationFrom(ownerId: string, invitee: string) {
  const slug = `mail-${suffix()}`;
  const [row] = await sql()<{ invitation_id: string }[]>`
    with account as (
      insert into public.accounts (kind, owner_id, name, features)
      values ('organization', ${ownerId}, ${slug}, '{}') returning id
    ), organization as (
      insert into public.organizations (account_id, slug, name)
      select id, ${slug}, 'Mail & Co' from account returning id
    ), role as (
      insert into public.organization_roles (organization_id, name, permissions)
      select id, 'Analyst', '{audit}' from organization returning id, organization_id
    )
    insert into public.invitations (organization_id, organization_role_id, email, inviter_id)
    select organization_id, id, ${invitee}, ${ownerId} from role
    returning id as invitation_id`;
  return row!.invitation_id;
}

function recorder(): MailSender & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  return {
    sent,
    send: (mail) => {
      sent.push(mail);
      return Promise.resolve();
    },
  };
}

function handlerWith(sender: MailSender) {
  return createInvitationMailHandler({
    client: callerClient,
    sender: () => sender,
    linkOrigins: () => 'http://localhost:*',
    unsubscribeToken: mailingTokenFor,
    functionsBase: () => env.SUPABASE_URL,
  });
}

async function call(
  handle: (request: Request) => Promise<Response>,
  authorization: string,
  body: unknown,
  origin = PORTAL,
) {
  const response = await handle(
    new Request('http://functions.test/invitation-mail', {
      method: 'POST',
      headers: {
        Authorization: authorization,
        Origin: origin,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    }),
  );
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
  };
}

Deno.test('invitation-mail', async (t) => {
  const owner = await createUser('owner');
  const stranger = await createUser('stranger');
  const invitee = `invitee-${suffix()}@functions.test`;
  const invitationId = await invitationFrom(owner.id, invitee);

  try {
    await t.step(
      'the inviter mails a link to the stack catcher; the link shows the invitation',
      async () => {
        assert.ok(env.MAILBOX_URL, 'the stack writes MAILBOX_URL');
        const handle = handlerWith(
          mailpitSender(env.MAILBOX_URL, 'Shortlane <noreply@shortlane.test>'),
        );
        const answer = await call(handle, owner.authorization, {
          invitation_id: invitationId,
        });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.sent, true);

        const list = await fetch(`${env.MAILBOX_URL}/api/v1/search?query=to:${invitee}`);
        const { messages } = (await list.json()) as {
          messages: { ID: string; Subject: string }[];
        };
        assert.equal(messages.length, 1);
        assert.match(messages[0]!.Subject, /invited you to the organization Mail & Co/);
        const message = (await (
          await fetch(`${env.MAILBOX_URL}/api/v1/message/${messages[0]!.ID}`)
        ).json()) as {
          Text: string;
          HTML: string;
          From: { Address: string };
        };
        assert.equal(message.From.Address, 'noreply@shortlane.test');
        assert.match(message.HTML, /Mail &amp; Co as Analyst/);
        const link = message.Text.match(
          /http:\/\/localhost:30999\/app\/invitation\/([0-9a-f]{64})/,
        );
        assert.ok(link, message.Text);
        const token = link[1]!;
        const shown = await anon.rpc('invitation_by_token', { p_token: token });
        assert.equal(shown.error, null);
        assert.equal((shown.data as { email: string; state: string }).email, invitee);
        assert.equal((shown.data as { state: string }).state, 'pending');
        const [stored] = await sql()<{ raw: boolean }[]>`
        select exists (select 1 from app.invitation_tokens
          where invitation_id = ${invitationId} and encode(token_hash, 'hex') = ${token}) as raw`;
        assert.equal(stored!.raw, false, 'only the hash is stored');
      },
    );

    await t.step(
      'an invitee with an account gets the unsubscribe link and List-Unsubscribe headers; one click unsubscribes',
      async () => {
        const member = await createUser('member');
        const memberInvitation = await invitationFrom(owner.id, member.email);
        const handle = handlerWith(
          mailpitSender(env.MAILBOX_URL!, 'Shortlane <noreply@shortlane.test>'),
        );
        const answer = await call(handle, owner.authorization, {
          invitation_id: memberInvitation,
        });
        assert.equal(answer.status, 200);
        const list = await fetch(`${env.MAILBOX_URL}/api/v1/search?query=to:${member.email}`);
        const { messages } = (await list.json()) as {
          messages: { ID: string }[];
        };
        const id = messages[0]!.ID;
        const message = (await (await fetch(`${env.MAILBOX_URL}/api/v1/message/${id}`)).json()) as {
          Text: string;
          HTML: string;
        };
        const page = message.Text.match(
          /No more e-mails from Shortlane: (http:\/\/localhost:30999\/app\/unsubscribe\?token=([0-9a-f]{48}))/,
        );
        assert.ok(page, message.Text);
        assert.match(
          message.HTML,
          /<a href="http:\/\/localhost:30999\/app\/unsubscribe\?token=[0-9a-f]{48}">Unsubscribe<\/a>/,
        );
        const headers = (await (
          await fetch(`${env.MAILBOX_URL}/api/v1/message/${id}/headers`)
        ).json()) as Record<string, string[]>;
        const oneClick = `${env.SUPABASE_URL}/functions/v1/mailing-unsubscribe?token=${page[2]}`;
        assert.deepEqual(headers['List-Unsubscribe'], [`<${oneClick}>`]);
        assert.deepEqual(headers['List-Unsubscribe-Post'], ['List-Unsubscribe=One-Click']);

        // The mail client's one click (RFC 8058), without login: status flag 8 is set.
        const unsubscribe = createMailingUnsubscribe();
        const asked = await unsubscribe(new Request(oneClick));
        assert.equal(asked.status, 200);
        assert.match(await asked.text(), /<form method="post">/);
        const [before] = await sql()<{ status: number }[]>`
          select status from public.profiles where id = ${member.id}`;
        assert.equal(before!.status & 8, 0, 'a GET changes nothing');
        const clicked = await unsubscribe(
          new Request(oneClick, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: 'List-Unsubscribe=One-Click',
          }),
        );
        assert.equal(clicked.status, 200);
        const [after] = await sql()<{ status: number }[]>`
          select status from public.profiles where id = ${member.id}`;
        assert.equal(after!.status & 8, 8);
        const wrong = await unsubscribe(
          new Request(oneClick.replace(/token=.*/, 'token=' + '0'.repeat(48)), {
            method: 'POST',
          }),
        );
        assert.equal(wrong.status, 404);
        // The invitee without an account above got neither (nothing to unsubscribe from).
      },
    );

    await t.step(
      'someone who neither sent nor manages it gets no link and sends nothing',
      async () => {
        const sender = recorder();
        const answer = await call(handlerWith(sender), stranger.authorization, {
          invitation_id: invitationId,
        });
        assert.equal(answer.status, 404);
        assert.equal(answer.body.message, 'invitation_not_found');
        assert.equal(sender.sent.length, 0);
      },
    );

    await t.step('a request from another site, a bad body or a guest is refused', async () => {
      const sender = recorder();
      const handle = handlerWith(sender);
      const foreign = await call(
        handle,
        owner.authorization,
        { invitation_id: invitationId },
        'https://evil.example',
      );
      assert.equal(foreign.status, 403);
      const bad = await call(handle, owner.authorization, {
        invitation_id: 'nope',
      });
      assert.equal(bad.status, 422);
      assert.deepEqual(bad.body.errors, {
        invitation_id: ['The invitation_id must be an invitation id (UUID).'],
      });
      const guest = await call(handle, `Bearer ${env.SUPABASE_ANON_KEY}`, {
        invitation_id: invitationId,
      });
      assert.equal(guest.status, 403);
      assert.equal(sender.sent.length, 0);
    });
  } finally {
    await sql()`delete from public.organizations where id = (
      select organization_id from public.invitations where id = ${invitationId})`;
    for (const user of [owner, stranger]) {
      await admin.auth.admin.deleteUser(user.id);
    }
    await closeSql();
  }
});
