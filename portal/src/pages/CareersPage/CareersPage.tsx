import { Anchor, Container, List, Stack, Text, Title } from '@mantine/core';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';

const RESPONSIBILITIES = [
  'Build features across the React portal, the Postgres schema and the edge functions.',
  'Write row-level security policies and the tests that prove them, actor by actor.',
  'Keep the redirect path fast: every click counts, literally.',
  'Review code, pair with colleagues and improve how we ship.',
];

const REQUIREMENTS = [
  'Several years of TypeScript, on the browser and the server.',
  'Solid SQL: you are at home with indexes, transactions and Postgres.',
  'You care about accessibility, tests and clear writing.',
];

/** careers/fullstack-developer: the one open position. */
export default function CareersPage() {
  usePageTitle('Full-stack developer');
  const { productName } = useConfig();
  return (
    <Container size="md" py="xl" component="article">
      <Title order={1}>Full-stack developer</Title>
      <Text mt="sm">Remote (Europe or Americas) · Full time</Text>
      <Stack gap="lg" mt="lg">
        <section>
          <Title order={2} size="h3">
            About the role
          </Title>
          <Text mt="xs">
            {productName} shortens millions of links a month for people, teams and companies. You
            will join a small team that owns the product end to end.
          </Text>
        </section>
        <section>
          <Title order={2} size="h3">
            What you will do
          </Title>
          <List mt="xs" spacing={4}>
            {RESPONSIBILITIES.map((item) => (
              <List.Item key={item}>{item}</List.Item>
            ))}
          </List>
        </section>
        <section>
          <Title order={2} size="h3">
            What you bring
          </Title>
          <List mt="xs" spacing={4}>
            {REQUIREMENTS.map((item) => (
              <List.Item key={item}>{item}</List.Item>
            ))}
          </List>
        </section>
        <section>
          <Title order={2} size="h3">
            How to apply
          </Title>
          <Text mt="xs">
            Send a few lines about yourself and a link to work you are proud of to{' '}
            <Anchor href="mailto:jobs@shortlane.example">jobs@shortlane.example</Anchor>.
          </Text>
        </section>
      </Stack>
    </Container>
  );
}
