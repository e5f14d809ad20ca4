import { Badge, Group, List, Stack, Text } from '@mantine/core';
import type { OrganizationSso } from '../../data/sso/sso-query.ts';

/** The organization's single sign-on as its people read it (the team `sso` page, non-holders). */
export function SsoSummary({ sso }: { sso: OrganizationSso }) {
  const verified = sso.domains.filter((domain) => domain.status === 'verified');
  if (!sso.setting) {
    return <Text>Single sign-on is not set up for this organization.</Text>;
  }
  return (
    <Stack gap="xs" aria-label="Single sign-on setting">
      <Group gap="xs">
        <Text fw={500}>Identity provider:</Text>
        <Text>{sso.setting.entity_id}</Text>
      </Group>
      <Group gap="xs">
        <Text fw={500}>Require single sign-on:</Text>
        <Badge color={sso.setting.require_sso ? 'teal' : 'gray'} variant="light">
          {sso.setting.require_sso ? 'Yes' : 'No'}
        </Badge>
      </Group>
      <Text fw={500}>Domains signing in through it</Text>
      {verified.length === 0 ? (
        <Text c="dimmed">No verified domain yet.</Text>
      ) : (
        <List>
          {verified.map((domain) => (
            <List.Item key={domain.id}>{domain.domain}</List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
