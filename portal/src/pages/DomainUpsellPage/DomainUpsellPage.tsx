import { Anchor, Container, Group, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { AddDomainButton } from '../../features/branded-domains/AddDomainButton.tsx';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';

const REASONS = [
  {
    title: 'Trust',
    text: 'People click links on a name they know more readily than on a generic short domain.',
  },
  {
    title: 'Your brand on every link',
    text: 'Each link you share, print or post carries your name instead of ours.',
  },
  {
    title: 'Links that stay yours',
    text: 'The domain is yours: your links keep working under your name as long as you keep it.',
  },
];

/**
 * /app/domain-upsell: why a domain of your own helps, and the two ways to one. "Add Domain" is
 * the same button as in the create form, with its gates (verified e-mail, subscription).
 */
export default function DomainUpsellPage() {
  const { productName } = useConfig();
  usePageTitle('Brand your links', productName);
  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Title order={1}>Brand your links</Title>
        <Text>Short links on a domain of your own, like links.yourcompany.com/offer, bring:</Text>
        <List spacing="sm">
          {REASONS.map((reason) => (
            <List.Item key={reason.title}>
              <Text span fw={600}>
                {reason.title}:
              </Text>{' '}
              {reason.text}
            </List.Item>
          ))}
        </List>
        <Stack gap="xs">
          <Title order={2} size="h4">
            Already own a domain?
          </Title>
          <Text size="sm">Add it, point its DNS at us and verify it: it takes a few minutes.</Text>
          <Group>
            <AddDomainButton />
            <Anchor component={Link} to={href('settings.brandedDomains')} size="sm">
              See your branded domains
            </Anchor>
          </Group>
        </Stack>
        <Stack gap="xs">
          <Title order={2} size="h4">
            No domain yet?
          </Title>
          <Text size="sm">Find a name and buy it here; we set it up for your links.</Text>
          <Group>
            <Anchor component={Link} to={href('purchase.domain')}>
              Buy a domain
            </Anchor>
          </Group>
        </Stack>
      </Stack>
    </Container>
  );
}
