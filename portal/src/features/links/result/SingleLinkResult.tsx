import { Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { CreatedAlias, CreatedLink } from '@shortlane/shared/created-link.ts';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { useFocusOnMount } from '../../../lib/useFocusOnMount.ts';
import { href } from '../../../routes/paths.ts';
import { useShortUrl } from '../useShortUrl.ts';
import { CopyButton } from './CopyButton.tsx';
import { QrCodeButton } from './QrCodeButton.tsx';
import { ShareMenu } from './ShareMenu.tsx';

export interface SingleLinkResultProps {
  link: CreatedLink;
  /** With analytics the user has the Dashboard; without, the result points to My URLs. */
  analyticsAllowed: boolean;
  onShortenAnother: () => void;
}

/** The main short URL first, then the others in the order they came. */
function mainFirst(aliases: readonly CreatedAlias[]): CreatedAlias[] {
  return [...aliases].sort((a, b) => Number(b.is_main) - Number(a.is_main));
}

function ShortUrlActions({ alias }: { alias: CreatedAlias }) {
  // Built here rather than taken from tiny_url, so that the result, My URLs and the link lists
  // show one address for a link: the one this portal's configuration serves.
  const shortUrl = useShortUrl(alias);
  return (
    <Card withBorder padding="sm" component="li">
      <Stack gap="xs">
        <Anchor
          href={shortUrl}
          target="_blank"
          rel="noopener noreferrer"
          fw={600}
          style={{ overflowWrap: 'anywhere' }}
        >
          {shortUrl}
        </Anchor>
        <Group gap="xs">
          <Button
            component="a"
            href={shortUrl}
            target="_blank"
            rel="noopener noreferrer"
            variant="default"
            aria-label={`Visit ${shortUrl}`}
          >
            Visit
          </Button>
          <QrCodeButton shortUrl={shortUrl} />
          <ShareMenu shortUrl={shortUrl} />
          <CopyButton value={shortUrl} />
        </Group>
      </Stack>
    </Card>
  );
}

/** The single result (link-creation 2): the long URL, the short URL(s) and what to do next. */
export function SingleLinkResult({
  link,
  analyticsAllowed,
  onShortenAnother,
}: SingleLinkResultProps) {
  const aliases = mainFirst(link.aliases);
  // The popover and the page may both show a result: ids must not repeat.
  const titleId = useId();
  const shortListId = useId();
  const title = useFocusOnMount<HTMLHeadingElement>();
  return (
    <Stack gap="md" aria-labelledby={titleId} component="section">
      <Title order={2} size="h3" id={titleId} ref={title} tabIndex={-1}>
        Your short link is ready
      </Title>
      <div>
        <Text size="sm" fw={600}>
          Long URL
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {link.url}
        </Text>
      </div>
      <div>
        <Text size="sm" fw={600} id={shortListId}>
          {aliases.length > 1 ? 'Short URLs' : 'Short URL'}
        </Text>
        <Stack
          gap="xs"
          component="ul"
          aria-labelledby={shortListId}
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
        >
          {aliases.map((alias) => (
            <ShortUrlActions key={`${alias.domain}/${alias.alias}`} alias={alias} />
          ))}
        </Stack>
      </div>
      <Group gap="sm">
        <Button onClick={onShortenAnother}>Shorten another</Button>
        {!analyticsAllowed && (
          <Anchor component={Link} to={href('my-urls')}>
            My URLs
          </Anchor>
        )}
      </Group>
    </Stack>
  );
}
