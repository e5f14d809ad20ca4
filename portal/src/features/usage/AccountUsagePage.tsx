import { Stack, Text, Title } from '@mantine/core';
import { useProfileQuery } from '../../data/profile-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { UsagePanel } from './UsagePanel.tsx';

const TITLE = 'Account usage';

/** settings/usage: what the personal account's plan allows and what it used this period. */
export default function AccountUsagePage() {
  const { productName } = useConfig();
  usePageTitle(TITLE, productName);
  const accountId = useProfileQuery().data?.personal_account_id;
  return (
    <Stack gap="lg">
      <Title order={1}>{TITLE}</Title>
      <Text c="dimmed">What your plan allows and what you used.</Text>
      <UsagePanel accountId={accountId} />
    </Stack>
  );
}
