import { Button, Container, Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useCurrentRouteName } from '../../routes/currentRoute.ts';
import { paths } from '../../routes/paths.ts';
import { FEATURE_CONTENT } from './featureContent.ts';

/** One of the features pages (app-shell 2), chosen by the route it is shown for. */
export default function FeaturePage() {
  const route = useCurrentRouteName();
  const content = FEATURE_CONTENT[route];
  if (!content) throw new Error(`No feature page content for the route ${route}.`);
  usePageTitle(content.title);
  return (
    <Container size="md" py="xl">
      <Title order={1}>{content.title}</Title>
      <Text size="lg" mt="sm">
        {content.lead}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xl" spacing="lg">
        {content.sections.map((section) => (
          <Paper key={section.heading} withBorder p="lg" radius="md" component="section">
            <Title order={2} size="h4">
              {section.heading}
            </Title>
            <Text mt="xs">{section.text}</Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Group mt="xl">
        <Button component={Link} to={paths['signup.pricing']}>
          See the plans
        </Button>
        <Button component={Link} to={paths.homepage} variant="default">
          Shorten a link
        </Button>
      </Group>
    </Container>
  );
}
