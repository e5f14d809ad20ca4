import { Alert, Button, Code, Group, Image, Loader, Stack, Text, Title } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { totpCodeSchema } from '@shortlane/shared/schemas/two-factor.ts';
import { useState } from 'react';
import { useNotify, useSupabase } from '../../lib/servicesContext.ts';
import { BackupCodesPanel } from './BackupCodesPanel.tsx';
import { CodeForm } from './CodeForm.tsx';
import {
  confirmTotpEnrollment,
  disableTwoFactor,
  generateBackupCodes,
  MESSAGES_2FA,
  startTotpEnrollment,
  type TotpEnrollment,
} from './twoFactorApi.ts';
import { useRefreshTwoFactorStatus, useTwoFactorStatusQuery } from './twoFactorQuery.ts';
import { usePasswordConfirmation } from './usePasswordConfirmation.ts';

type Step =
  | { kind: 'overview' }
  | { kind: 'enrolling'; enrollment: TotpEnrollment }
  | { kind: 'codes'; codes: string[] };

const HEADING_ID = 'two-factor-heading';

/**
 * settings/security, two-factor part (app-shell 3: TOTP with QR confirmation only): turn on
 * (QR code, the secret as text, a confirmation code, then backup codes shown once), generate new
 * backup codes, turn off. Changes that weaken or replace the protection ask for the password.
 */
export function TwoFactorSection() {
  const supabase = useSupabase();
  const notify = useNotify();
  const status = useTwoFactorStatusQuery();
  const refresh = useRefreshTwoFactorStatus();
  const confirmPassword = usePasswordConfirmation();
  const [step, setStep] = useState<Step>({ kind: 'overview' });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch {
      setFailure(MESSAGES_2FA.failed);
    } finally {
      setBusy(false);
    }
  };

  const begin = () =>
    act(async () =>
      setStep({ kind: 'enrolling', enrollment: await startTotpEnrollment(supabase) }),
    );

  const cancelEnrollment = (enrollment: TotpEnrollment) =>
    act(async () => {
      await supabase.auth.mfa.unenroll({ factorId: enrollment.factorId });
      setStep({ kind: 'overview' });
    });

  const confirmEnrollment = async (enrollment: TotpEnrollment, code: string) => {
    const problem = await confirmTotpEnrollment(supabase, enrollment.factorId, code);
    if (problem) return problem;
    try {
      setStep({ kind: 'codes', codes: await generateBackupCodes(supabase) });
    } catch {
      setStep({ kind: 'overview' });
      setFailure(MESSAGES_2FA.failed);
    }
    notify({
      message: 'Two-factor authentication is on.',
      durationMs: NOTICE_DURATION_MS.default,
      tone: 'success',
    });
    void refresh();
    return null;
  };

  const regenerate = () =>
    act(async () => {
      if (!(await confirmPassword())) return;
      setStep({ kind: 'codes', codes: await generateBackupCodes(supabase) });
      void refresh();
    });

  const turnOff = () =>
    act(async () => {
      if (!(await confirmPassword())) return;
      await disableTwoFactor(supabase);
      notify({
        message: 'Two-factor authentication is off.',
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      });
      await refresh();
    });

  return (
    <Stack gap="md" component="section" aria-labelledby={HEADING_ID}>
      <Title order={2} size="h4" id={HEADING_ID}>
        Two-factor authentication
      </Title>
      {failure && (
        <Alert color="red" role="alert" title="Could not complete that">
          {failure}
        </Alert>
      )}
      {step.kind === 'codes' ? (
        <BackupCodesPanel codes={step.codes} onDone={() => setStep({ kind: 'overview' })} />
      ) : step.kind === 'enrolling' ? (
        <Stack gap="sm">
          <Text size="sm">
            1. Scan this QR code with an authenticator app (Google Authenticator, 1Password,
            Authy…), or type the secret key into it.
          </Text>
          <Image
            src={`data:image/svg+xml;utf8,${encodeURIComponent(step.enrollment.qrCode)}`}
            alt="QR code to add Shortlane to your authenticator app"
            w={180}
            h={180}
          />
          <Text size="sm">
            Secret key: <Code data-testid="totp-secret">{step.enrollment.secret}</Code>
          </Text>
          <Text size="sm">2. Enter the 6-digit code the app shows to confirm.</Text>
          <CodeForm
            name="Confirm two-factor authentication"
            label="Confirmation code"
            placeholder="123456"
            submitLabel="Turn on"
            numeric
            schema={totpCodeSchema}
            onSubmit={(code) => confirmEnrollment(step.enrollment, code)}
          >
            <Button
              variant="subtle"
              onClick={() => void cancelEnrollment(step.enrollment)}
              disabled={busy}
            >
              Cancel
            </Button>
          </CodeForm>
        </Stack>
      ) : status.isPending ? (
        <Loader size="sm" role="status" aria-label="Loading two-factor settings" />
      ) : status.isError ? (
        <Alert color="red" role="alert" title="Could not load your two-factor settings">
          <Button variant="default" size="xs" onClick={() => void status.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : status.data.enabled ? (
        <Stack gap="sm">
          <Text>
            Two-factor authentication is <strong>on</strong>. Logging in asks for a code from your
            authenticator app.
          </Text>
          <Text size="sm" data-testid="backup-codes-left">
            {status.data.backupCodesLeft === 1
              ? '1 unused backup code left.'
              : `${status.data.backupCodesLeft} unused backup codes left.`}
          </Text>
          <Group>
            <Button variant="default" onClick={() => void regenerate()} loading={busy}>
              Generate new backup codes
            </Button>
            <Button color="red" variant="light" onClick={() => void turnOff()} loading={busy}>
              Turn off two-factor authentication
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm" align="flex-start">
          <Text>
            Two-factor authentication is <strong>off</strong>. Turn it on to ask for a code from
            your phone each time you log in.
          </Text>
          <Button onClick={() => void begin()} loading={busy}>
            Turn on two-factor authentication
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
