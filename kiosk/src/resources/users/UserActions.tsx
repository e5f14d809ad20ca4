import { useRecordContext } from 'react-admin';
import { ActionButton } from '../../components/ActionButton.tsx';
import { useKioskDataProvider } from '../../components/useKioskDataProvider.ts';
import { useKioskConfig } from '../../lib/kioskConfig.ts';
import { openImpersonation, type ImpersonationStart } from './impersonation.ts';

/** Ban or unban (kiosk-users): a banned user can neither sign in nor refresh a session. */
export function BanButton() {
  const record = useRecordContext();
  const dataProvider = useKioskDataProvider();
  if (!record) return null;
  const banned = record.is_banned === true;
  return (
    <ActionButton
      label={banned ? 'Unban' : 'Ban'}
      color={banned ? 'primary' : 'error'}
      confirm={
        banned
          ? undefined
          : {
              title: `Ban ${record.email}?`,
              content: 'They will not be able to sign in until they are unbanned.',
            }
      }
      run={async () => {
        await dataProvider.callFunction('kiosk-users', {
          action: banned ? 'unban' : 'ban',
          user_id: record.id,
        });
        return { message: banned ? 'kiosk.users.unbanned' : 'kiosk.users.banned' };
      }}
    />
  );
}

/** Deletes every MFA factor (kiosk-users reset_mfa): the user signs in with a password only. */
export function ResetMfaButton() {
  const record = useRecordContext();
  const dataProvider = useKioskDataProvider();
  if (!record) return null;
  return (
    <ActionButton
      label="Reset 2FA"
      disabled={record.mfa_factors === 0}
      confirm={{
        title: `Reset two-factor authentication of ${record.email}?`,
        content: 'Their authenticator apps stop working; they can enrol again after signing in.',
      }}
      run={async () => {
        const { deleted_factors } = await dataProvider.callFunction<{ deleted_factors: number }>(
          'kiosk-users',
          { action: 'reset_mfa', user_id: record.id },
        );
        return { message: 'kiosk.users.mfa_reset', args: { smart_count: deleted_factors } };
      }}
    />
  );
}

/** Opens the portal signed in as the user (kiosk-impersonate); the start is audited. */
export function ImpersonateButton() {
  const record = useRecordContext();
  const dataProvider = useKioskDataProvider();
  const { portalUrl } = useKioskConfig();
  if (!record) return null;
  return (
    <ActionButton
      label="Impersonate"
      disabled={record.is_developer === true || record.is_banned === true}
      run={async () => {
        await openImpersonation(portalUrl, () =>
          dataProvider.callFunction<ImpersonationStart>('kiosk-impersonate', {
            action: 'start',
            user_id: record.id,
          }),
        );
        return { message: 'kiosk.users.impersonating', args: { email: record.email } };
      }}
    />
  );
}
