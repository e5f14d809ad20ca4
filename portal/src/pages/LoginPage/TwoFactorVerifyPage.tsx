import { Anchor, Button, Text } from '@mantine/core';
import { totpCodeSchema } from '@shortlane/shared/schemas/two-factor.ts';
import { Link, useSearchParams } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext.ts';
import { CodeForm } from '../../features/two-factor/CodeForm.tsx';
import { verifyTotpCode } from '../../features/two-factor/twoFactorApi.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { href, RETURN_PARAM } from '../../routes/paths.ts';
import { AuthCard } from '../../auth/AuthCard.tsx';

/**
 * /app/login/2FA/verify: the second step of a login with two-factor authentication. A right code
 * raises the session to aal2; the guard then moves on to where the user was going (`to`).
 */
export default function TwoFactorVerifyPage() {
  const supabase = useSupabase();
  const auth = useAuth();
  const [search] = useSearchParams();
  const returnTo = search.get(RETURN_PARAM);

  return (
    <AuthCard title="Two-factor verification" headingGap="xs">
      <Text size="sm" mb="lg">
        Open your authenticator app and enter the 6-digit code it shows for Shortlane.
      </Text>
      <CodeForm
        name="Two-factor verification"
        label="Authentication code"
        placeholder="123456"
        submitLabel="Verify"
        numeric
        schema={totpCodeSchema}
        onSubmit={(code) => verifyTotpCode(supabase, code)}
      >
        <Anchor
          component={Link}
          to={href('login.2fa.backupCode', null, { [RETURN_PARAM]: returnTo })}
          size="sm"
        >
          Lost your device? Use a backup code
        </Anchor>
        <Button variant="subtle" onClick={() => void auth.signOut()}>
          Cancel and log out
        </Button>
      </CodeForm>
    </AuthCard>
  );
}
