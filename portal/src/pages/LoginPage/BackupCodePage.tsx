import { Anchor, Button, Text } from '@mantine/core';
import { backupCodeSchema } from '@shortlane/shared/schemas/two-factor.ts';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext.ts';
import { CodeForm } from '../../features/two-factor/CodeForm.tsx';
import { REENROLL_PARAM } from '../../features/two-factor/reenroll.ts';
import { consumeBackupCode } from '../../features/two-factor/twoFactorApi.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { href, RETURN_PARAM } from '../../routes/paths.ts';
import { AuthCard } from '../../auth/AuthCard.tsx';

/**
 * /app/login/2FA/backup_code: logs in with a backup code instead of the app's code. Using one
 * turns two-factor authentication off, so the user lands on the security page, asked to set it
 * up again.
 */
export default function BackupCodePage() {
  const supabase = useSupabase();
  const auth = useAuth();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const returnTo = search.get(RETURN_PARAM);

  const submit = async (code: string): Promise<string | null> => {
    const outcome = await consumeBackupCode(supabase, code);
    if (outcome.kind === 'refused') {
      const left = outcome.attemptsLeft;
      return left != null && left > 0
        ? `${outcome.message} ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`
        : outcome.message;
    }
    // First say where to go once signed in (the guard reads `to`), committed at once so the
    // guard cannot read the old address, then let the session drop the removed factor: the
    // guard sees the second factor settled and moves on.
    const security = href('settings.security', null, { [REENROLL_PARAM]: '1' });
    await navigate(href('login.2fa.backupCode', null, { [RETURN_PARAM]: security }), {
      replace: true,
      flushSync: true,
    });
    const { error } = await supabase.auth.refreshSession();
    return error ? error.message : null;
  };

  return (
    <AuthCard title="Use a backup code" headingGap="xs">
      <Text size="sm" mb="lg">
        Enter one of the backup codes you saved when you turned on two-factor authentication. Each
        code works once, and using one turns two-factor authentication off until you set it up
        again.
      </Text>
      <CodeForm
        name="Use a backup code"
        label="Backup code"
        placeholder="ABCDE-23456"
        submitLabel="Log in"
        autoComplete="off"
        schema={backupCodeSchema}
        onSubmit={submit}
      >
        <Anchor
          component={Link}
          to={href('login.2fa.verify', null, { [RETURN_PARAM]: returnTo })}
          size="sm"
        >
          Use your authenticator app instead
        </Anchor>
        <Button variant="subtle" onClick={() => void auth.signOut()}>
          Cancel and log out
        </Button>
      </CodeForm>
    </AuthCard>
  );
}
