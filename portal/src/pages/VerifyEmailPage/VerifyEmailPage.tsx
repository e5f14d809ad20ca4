import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  passwordResetRequestSchema,
  type PasswordResetRequestInput,
} from '@shortlane/shared/schemas/auth.ts';
import type { EmailOtpType } from '@supabase/supabase-js';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useParams } from 'react-router-dom';
import { AuthCard } from '../../auth/AuthCard.tsx';
import { useAuth } from '../../auth/AuthContext.ts';
import { announceSignedIn } from '../../auth/stateStatus.ts';
import { CONFIRMATION_RESENT, useResendConfirmation } from '../../auth/useResendConfirmation.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { validateWith } from '../../lib/forms.ts';
import { useServices } from '../../lib/servicesContext.ts';
import { loginPathFor, paths, RETURN_PARAM, safeReturnPath } from '../../routes/paths.ts';

export const INVALID_VERIFICATION_LINK = 'This verification link is invalid or has expired.';
export const LINK_FOR_ANOTHER_ACCOUNT =
  'This verification link belongs to another account. Log out and open it again.';

const EMAIL_OTP_TYPES: readonly EmailOtpType[] = ['signup', 'email', 'invite', 'email_change'];

/** The token hash a link carries: the path's {verification_hash}, or `?token_hash=&type=`. */
function linkToken(
  hashParam: string | undefined,
  search: string,
): { tokenHash: string; type: EmailOtpType } | null {
  const query = new URLSearchParams(search);
  const tokenHash = hashParam ?? query.get('token_hash');
  if (!tokenHash) return null;
  const requested = query.get('type') as EmailOtpType | null;
  return {
    tokenHash,
    type: requested && EMAIL_OTP_TYPES.includes(requested) ? requested : 'email',
  };
}

type Verification = 'pending' | 'verified' | 'refused';

/**
 * /app/email/verify/{userId?}/{verification_hash?} (login required, app-shell 2). Ways in:
 * - Auth's confirmation link: /verify confirmed the address and signed the browser in (the
 *   session came in the fragment), or came back with the failure (left in the flash messages);
 * - a link with a token hash (path or query): redeemed here with verifyOtp, which signs in;
 * - the verified guard, for a signed-in user whose address is not confirmed yet.
 * A guest with neither a link nor its failure is sent to log in, as for any login page.
 */
export default function VerifyEmailPage() {
  const auth = useAuth();
  const { userId, verification_hash: hashParam } = useParams();
  const { search, pathname } = useLocation();
  const { supabase, flash } = useServices();
  const token = linkToken(hashParam, search);

  const [linkFailed] = useState(() => flash.getSnapshot().some(({ type }) => type === 'error'));
  useEffect(() => {
    if (linkFailed) flash.clear('error');
  }, [flash, linkFailed]);

  const otherAccount =
    token != null && userId != null && auth.user != null && auth.user.id !== userId;
  const [verification, setVerification] = useState<Verification | null>(null);
  // Once per page, also under StrictMode's double effects: a token hash can be spent only once.
  const started = useRef(false);
  useEffect(() => {
    if (!token || otherAccount || started.current) return;
    started.current = true;
    void supabase.auth
      .verifyOtp({ type: token.type, token_hash: token.tokenHash })
      .then(({ error }) => {
        if (!error) announceSignedIn(window.localStorage);
        setVerification(error ? 'refused' : 'verified');
      });
  }, [supabase, token, otherAccount]);

  if (otherAccount) {
    return (
      <AuthCard title="Verify your e-mail address">
        <Alert color="red" role="alert" title="The link cannot be used here">
          {LINK_FOR_ANOTHER_ACCOUNT}
        </Alert>
      </AuthCard>
    );
  }
  // From the first render: the guest check below must not send a link's visitor to log in.
  const shown = verification ?? (token ? 'pending' : null);
  if (shown === 'pending') return <PageLoader />;
  const next = safeReturnPath(new URLSearchParams(search).get(RETURN_PARAM)) ?? paths.homepage;
  if (shown === 'verified') return <Verified next={next} />;
  if (shown === 'refused' || (linkFailed && auth.status !== 'signedIn')) {
    return <LinkRefused knownEmail={auth.user?.email ?? null} />;
  }
  if (auth.status === 'guest') return <Navigate to={loginPathFor(pathname + search)} replace />;
  if (auth.user?.email_confirmed_at) return <Verified next={next} />;
  return <AwaitingConfirmation email={auth.user?.email ?? ''} linkFailed={linkFailed} />;
}

/** `next`: where the user was going when they signed up (an invitation), else the homepage. */
function Verified({ next }: { next: string }) {
  return (
    <AuthCard title="E-mail address verified">
      <Stack gap="md">
        <Text role="status">Your e-mail address is confirmed and your account is ready.</Text>
        <Button component={Link} to={next}>
          Continue
        </Button>
      </Stack>
    </AuthCard>
  );
}

function ResendOutcome({
  outcome,
}: {
  outcome: ReturnType<typeof useResendConfirmation>['outcome'];
}) {
  return (
    <>
      <div role="status">
        {outcome?.kind === 'sent' && <Text c="teal.9">{CONFIRMATION_RESENT}</Text>}
      </div>
      {outcome?.kind === 'failed' && (
        <Alert color="red" role="alert" title="Could not send the link">
          {outcome.message}
        </Alert>
      )}
    </>
  );
}

/** Signed in, address not confirmed yet: the mail's link confirms it; it can be sent again. */
function AwaitingConfirmation({ email, linkFailed }: { email: string; linkFailed: boolean }) {
  const { resend, busy, outcome } = useResendConfirmation();
  return (
    <AuthCard title="Verify your e-mail address">
      <Stack gap="md">
        {linkFailed && (
          <Alert color="red" role="alert" title="The link cannot be used">
            {INVALID_VERIFICATION_LINK}
          </Alert>
        )}
        <Text>
          Some features need a confirmed address. We sent a link to <strong>{email}</strong>; follow
          it to confirm.
        </Text>
        <ResendOutcome outcome={outcome} />
        <Button variant="default" loading={busy} onClick={() => void resend(email)}>
          Send the link again
        </Button>
      </Stack>
    </AuthCard>
  );
}

/** The link failed (expired, used, unknown): say so and offer a new one for an address. */
function LinkRefused({ knownEmail }: { knownEmail: string | null }) {
  const { resend, busy, outcome } = useResendConfirmation();
  const form = useForm<PasswordResetRequestInput>({
    mode: 'uncontrolled',
    initialValues: { email: knownEmail ?? '' },
    validate: validateWith(passwordResetRequestSchema),
  });
  const submit = form.onSubmit(
    (values) => resend(passwordResetRequestSchema.parse(values).email),
    () => form.getInputNode('email')?.focus(),
  );
  return (
    <AuthCard title="Verify your e-mail address">
      <Stack gap="md">
        <Alert color="red" role="alert" title="The link cannot be used">
          {INVALID_VERIFICATION_LINK}
        </Alert>
        <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Send a new link">
          <Stack gap="md">
            <Text>Links work once and for a limited time. We can send you a new one:</Text>
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="email"
              key={form.key('email')}
              {...form.getInputProps('email')}
            />
            <ResendOutcome outcome={outcome} />
            <Button type="submit" loading={busy}>
              Send a new link
            </Button>
          </Stack>
        </form>
        <Anchor component={Link} to={paths.login} size="sm">
          Log in
        </Anchor>
      </Stack>
    </AuthCard>
  );
}
