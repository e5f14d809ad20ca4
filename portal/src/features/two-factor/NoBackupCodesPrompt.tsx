import { lazy, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext.ts';
import { LazyOnFirstUse } from '../../components/LazyOnFirstUse.tsx';
import { LoadingModal } from '../../components/LoadingDialog.tsx';
import { href, paths } from '../../routes/paths.ts';
import { NO_BACKUP_CODES_FRAME } from './noBackupCodesFrame.ts';
import { useSecondFactorDue } from './secondFactorContext.ts';
import { useTwoFactorStatusQuery } from './twoFactorQuery.ts';

// Few users ever see it: the modal is fetched the first time it opens.
const NoBackupCodesModal = lazy(() => import('./NoBackupCodesModal.tsx'));

/** Session storage: the user chose "Not now" in this tab; asked again in the next session. */
export const NO_BACKUP_CODES_DISMISSED_KEY = 'twoFactorNoBackupCodesDismissed';

/**
 * The shell's no-backup-codes modal (app-shell 2 and 4): two-factor authentication is on but no
 * unused backup code is left, so the user is asked to generate new ones. Not shown on the
 * security page, which says the same in place.
 */
export function NoBackupCodesPrompt() {
  const auth = useAuth();
  const due = useSecondFactorDue();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [dismissed, setDismissed] = useState(
    () => window.sessionStorage.getItem(NO_BACKUP_CODES_DISMISSED_KEY) === '1',
  );
  const hasFactor = (auth.user?.factors ?? []).some((factor) => factor.status === 'verified');
  const watching = auth.status === 'signedIn' && due === false && hasFactor && !dismissed;
  const status = useTwoFactorStatusQuery(watching);
  const opened =
    watching &&
    pathname !== paths['settings.security'] &&
    status.data?.enabled === true &&
    status.data.backupCodesLeft === 0;

  const dismiss = () => {
    window.sessionStorage.setItem(NO_BACKUP_CODES_DISMISSED_KEY, '1');
    setDismissed(true);
  };

  return (
    <LazyOnFirstUse
      active={opened}
      fallback={
        <LoadingModal
          {...NO_BACKUP_CODES_FRAME}
          opened={opened}
          onClose={dismiss}
          loadingLabel="Loading"
        />
      }
    >
      <NoBackupCodesModal
        opened={opened}
        onDismiss={dismiss}
        onGenerate={() => {
          dismiss();
          void navigate(href('settings.security'));
        }}
      />
    </LazyOnFirstUse>
  );
}
