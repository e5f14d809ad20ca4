import { Paper, Text, Title, type TitleOrder } from '@mantine/core';

/**
 * Where the create form (long URL, domain, alias, tags, advanced options; single and bulk) will
 * be. The form belongs to the links issue; until it lands this block says so plainly.
 */
export function CreateFormPlaceholder({ headingLevel = 2 }: { headingLevel?: TitleOrder }) {
  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      style={{ borderStyle: 'dashed' }}
      aria-label="Create form (coming soon)"
      component="section"
    >
      <Title order={headingLevel} size="h4">
        Shorten a link
      </Title>
      <Text mt="xs" size="sm">
        The form to shorten a long URL goes here: paste the address, pick a domain, choose an alias
        and tags, and set campaign parameters or an expiry — one link at a time or a whole file at
        once.
      </Text>
      <Text mt="xs" size="sm" fw={600}>
        Not yet available: it arrives with the short-link feature.
      </Text>
    </Paper>
  );
}
