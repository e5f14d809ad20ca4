import {
  Anchor,
  Button,
  Container,
  CopyButton,
  Group,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link } from 'react-router-dom';
import { useGuestHistory, type GuestLink } from '../../features/links/guestHistory.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

function GuestLinkCard({ link }: { link: GuestLink }) {
  const name = `${link.domain}/${link.alias}`;
  return (
    <Paper withBorder radius="md" p="md" component="article" aria-label={name}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Anchor href={link.shortUrl} target="_blank" rel="noopener noreferrer" fw={600}>
            {name}
          </Anchor>
          <Text size="sm" c="gray.7" truncate="end" title={link.longUrl}>
            {link.longUrl}
          </Text>
          <Text size="xs" c="gray.7">
            Created {dateTimeFormat.format(new Date(link.createdAt))}
          </Text>
        </Stack>
        <Group gap="xs">
          <CopyButton value={link.shortUrl}>
            {({ copied, copy }) => (
              <Button
                size="xs"
                variant={copied ? 'filled' : 'light'}
                onClick={copy}
                aria-label={copied ? `Copied ${name}` : `Copy ${name}`}
              >
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button
            size="xs"
            variant="default"
            component="a"
            href={link.shortUrl}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`Visit ${name}`}
          >
            Visit
          </Button>
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
            <GuestLinkCard key={link.shortUrl} link={link} />
          ))}
        </Stack>
      )}
    </Container>
  );
}
