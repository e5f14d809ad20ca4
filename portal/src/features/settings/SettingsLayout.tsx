import { Box, Container, Grid, NavLink, Stack, Text } from '@mantine/core';
import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useProfileQuery } from '../../data/profile-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { paths } from '../../routes/paths.ts';
import { useViewer } from '../../state/appState.ts';
import { settingsMenu, type SettingsMenuEntry } from './settingsMenu.ts';
import { useBillingFactsQuery } from './settingsQueries.ts';

/** A settings page is "current" on its own path and on its sub-pages (profile/delete…). */
function isCurrent(pathname: string, entry: SettingsMenuEntry): boolean {
  const path = paths[entry.route];
  return pathname === path || pathname.startsWith(`${path}/`);
}

function SidebarSection({
  title,
  entries,
  pathname,
}: {
  title: string;
  entries: readonly SettingsMenuEntry[];
  pathname: string;
}) {
  return (
    <Box component="nav" aria-label={`${title} settings`}>
      <Text size="xs" fw={700} tt="uppercase" c="gray.7" px="sm" mb={4} aria-hidden="true">
        {title}
      </Text>
      {entries.map((entry) => {
        const current = isCurrent(pathname, entry);
        return (
          <NavLink
            key={entry.route}
            component={Link}
            to={paths[entry.route]}
            label={entry.label}
            active={current}
            aria-current={current ? 'page' : undefined}
          />
        );
      })}
    </Box>
  );
}

/** The account and billing sidebars with the visibility rules of app-shell 2. */
function SettingsSidebars() {
  const viewer = useViewer();
  const { accountUsageEnabled } = useConfig();
  const accountId = useProfileQuery().data?.personal_account_id ?? null;
  const billing = useBillingFactsQuery(viewer?.id ?? null, accountId);
  const { pathname } = useLocation();
  if (!viewer) return null;
  // Until the billing facts arrive (or if they fail), the entries that need them stay hidden.
  const facts = billing.data ?? { hasOrders: false, ownsDomain: false, hideInvoices: true };
  const menu = settingsMenu({
    // User settings: the personal account's features, whatever team mode says.
    features: viewer.personalFeatures,
    subscribed: viewer.subscribed,
    teamsAllowed: viewer.teamsAllowed,
    accountUsageEnabled,
    ...facts,
  });
  return (
    <Stack gap="lg">
      <SidebarSection title="Account" entries={menu.account} pathname={pathname} />
      <SidebarSection title="Billing" entries={menu.billing} pathname={pathname} />
    </Stack>
  );
}

/**
 * Every /app/settings page: the sidebars beside the page. A guest never sees them (the page's
 * guard sends them to login), and they stay in place while the next page's code loads.
 */
export function SettingsLayout() {
  const viewer = useViewer();
  const page = (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
  if (!viewer) return page;
  return (
    <Container size="xl" py="md">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <SettingsSidebars />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>{page}</Grid.Col>
      </Grid>
    </Container>
  );
}
