import { Anchor, Button, Group, Text } from '@mantine/core';
import { CONSENT_DEFAULTS, STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { Link } from 'react-router-dom';
import { paths } from '../routes/paths.ts';
import { useStoredFlag } from '../state/storedFlag.ts';
import classes from './CookieNotice.module.css';

/**
 * The cookie banner (link-creation 2): Learn More, Accept; the answer is kept in local storage.
 * The shell places it in the flow (ShellLayout), so it never hides a control.
 */
export function CookieNotice() {
  const [accepted, setAccepted] = useStoredFlag(
    STORAGE_KEYS.cookiesAccepted,
    CONSENT_DEFAULTS.cookies,
  );
  if (accepted) return null;
  return (
    <section className={classes.notice} aria-label="Cookie notice">
      <Group justify="space-between" gap="sm" className={classes.inner}>
        <Text size="sm" style={{ flex: '1 1 18rem' }}>
          We use cookies to keep you signed in, remember your choices and understand how the product
          is used.
        </Text>
        <Group gap="sm">
          <Anchor component={Link} to={paths.cookies} className={classes.learnMore} size="sm">
            Learn More
          </Anchor>
          <Button size="sm" color="indigo.3" c="dark.9" onClick={() => setAccepted(true)}>
            Accept
          </Button>
        </Group>
      </Group>
    </section>
  );
}
