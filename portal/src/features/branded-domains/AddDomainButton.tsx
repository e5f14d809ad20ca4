import { Button, type ButtonProps } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { addDomainAccess, type DomainViewer } from '@shortlane/shared/domains.ts';
import { useNavigate } from 'react-router-dom';
import { useNotify } from '../../lib/servicesContext.ts';
import { href } from '../../routes/paths.ts';
import { useViewer } from '../../state/appState.ts';
import { messageText } from '../links/create/messageKeys.ts';

/**
 * "Add Domain" (link-creation 8): guests are sent to register ('log_in_or_register'), unverified
 * users to e-mail verification ('email_verification_check'), non-subscribers to the subscription
 * page ('billing.not_subscribed'); everyone else to the page that adds a domain.
 */
export function AddDomainButton({
  to = href('settings.brandedDomains.create'),
  ...props
}: { to?: string } & ButtonProps) {
  const viewer = useViewer();
  const navigate = useNavigate();
  const notify = useNotify();
  const domainViewer: DomainViewer = viewer
    ? {
        loggedIn: true,
        verified: viewer.emailVerified,
        subscribed: viewer.subscribed,
        inOrganization: false,
      }
    : { loggedIn: false };
  const onClick = () => {
    const access = addDomainAccess(domainViewer);
    if (access.allowed) {
      void navigate(to);
      return;
    }
    notify({
      message: messageText(access.message),
      tone: 'info',
      durationMs: NOTICE_DURATION_MS.default,
    });
    void navigate(href(access.redirect));
  };
  return (
    <Button onClick={onClick} {...props}>
      Add Domain
    </Button>
  );
}
