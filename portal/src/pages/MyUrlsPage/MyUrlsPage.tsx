import { Anchor, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useGuestHistory, type GuestLink } from '../../features/links/guestHistory.ts';
import {
  CopyAndVisitButtons,
  ShortLinkSummary,
} from '../../features/links/list/ShortLinkParts.tsx';
import { useShortUrl } from '../../features/links/useShortUrl.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

function GuestLinkCard({ link }: { link: GuestLink }) {
  const name = `${link.domain}/${link.alias}`;
  const shortUrl = useShortUrl(link);
  return (
    <Paper withBorder radius="md" p="md" component="article" aria-label={name}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <ShortLinkSummary name={name} shortUrl={shortUrl} longUrl={link.longUrl}>
          <Text size="xs" c="gray.7">
            Created {dateTimeFormat.format(new Date(link.createdAt))}
          </Text>
        </ShortLinkSummary>
        <Group gap="xs">
          <CopyAndVisitButtons name={name} shortUrl={shortUrl} />
        </Group>
      </Group>
    </Paper>
  );
}

/** my-urls for guests: the short links this browser made, newest first (guestHistory). */
export default function MyUrlsPage() {
  const { productName } = useConfig();
  usePageTitle('My URLs', productName);
  const links = useGuestHistory();
  return (
    <Container size="md" py="xl">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={1}>My URLs</Title>
          <Text mt="xs" c="gray.7">
            The short links made in this browser. Sign up to keep them in an account and see their
            clicks.
          </Text>
        </div>
        {links.length > 0 && (
          <Button
            component={Link}
            to={paths['my-urls.clear-history']}
            variant="default"
            color="red"
          >
            Clear history
          </Button>
        )}
      </Group>
      {links.length === 0 ? (
        <Paper withBorder radius="md" p="lg" mt="lg">
          <Text>No short links made in this browser yet.</Text>
          <Anchor component={Link} to={paths.homepage} mt="xs" display="inline-block">
            Shorten a link
          </Anchor>
        </Paper>
      ) : (
        <Stack gap="sm" mt="lg" component="section" aria-label="Short links made in this browser">
          {links.map((link) => (
            <GuestLinkCard key={`${link.domain}/${link.alias}`} link={link} />
          ))}
        </Stack>
      )}
    </Container>
  );
}
