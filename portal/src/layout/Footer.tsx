import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useServices } from '../lib/servicesContext.ts';
import { paths } from '../routes/paths.ts';
import { useAppState } from '../state/appState.ts';
import classes from './Footer.module.css';

/** Copyright and the legal links; Privacy Manager only while the ad-consent provider is on. */
export function Footer() {
  const { config, dialogs } = useServices();
  const { privacy } = useAppState();
  const year = new Date().getFullYear();
  return (
    <footer className={classes.footer}>
      <Group className={classes.inner} justify="space-between" gap="sm">
        <Text size="sm" c="gray.7">
          © {year} {config.productName}. All rights reserved.
        </Text>
        <Group component="nav" aria-label="Legal" gap="md">
          <Anchor component={Link} to={paths.terms} size="sm">
            Terms
          </Anchor>
          <Anchor component={Link} to={paths.privacy} size="sm">
            Privacy Policy
          </Anchor>
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => dialogs.openAccessibility()}
          >
            Accessibility
          </Anchor>
          {privacy.adConsentEnabled && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => dialogs.openPrivacyOptOut()}
            >
              Privacy Manager
            </Anchor>
          )}
        </Group>
      </Group>
    </footer>
  );
}
