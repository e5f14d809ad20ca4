import { Anchor, Container, Paper, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';

/** A route whose screen is not built yet: what it is, what will be there, and the way home. */
export default function PlaceholderPage({ title, summary }: { title: string; summary: string }) {
  const { productName } = useConfig();
  usePageTitle(title, productName);
  return (
    <Container size="md" py="xl">
      <Title order={1}>{title}</Title>
      <Paper withBorder p="lg" mt="lg" radius="md">
        <Text>{summary}</Text>
        <Text mt="sm" c="gray.7" size="sm">
          This page is not built yet; it arrives in a coming release.
        </Text>
      </Paper>
      <Anchor component={Link} to={paths.homepage} mt="lg" display="inline-block">
        Back to the homepage
      </Anchor>
    </Container>
  );
}
