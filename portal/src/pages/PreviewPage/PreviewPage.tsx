import { Alert, Anchor, Button, Code, Container, Loader, Stack, Text, Title } from '@mantine/core';
import { shortUrl } from '@shortlane/shared/short-url.ts';
import { useParams, useSearchParams } from 'react-router-dom';
import { useLinkPreviewQuery } from '../../data/link-preview-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';

/** A path after the alias, appended to the destination's path as the redirect appends it. */
function withPath(url: string, addPath: string): string {
  if (!addPath) return url;
  const at = url.search(/[?#]/);
  const [base, rest] = at >= 0 ? [url.slice(0, at), url.slice(at)] : [url, ''];
  return `${base.replace(/\/+$/, '')}/${addPath}${rest}`;
}

const UNAVAILABLE: Record<string, string> = {
  blocked: 'This short link has been blocked: it points to a site we block to keep visitors safe.',
  inactive: 'This short link is no longer active.',
  expired: 'This short link has expired.',
  not_found: 'There is no short link at this address.',
};

/**
 * preview.deprecated (/preview/deprecated/{alias}/{addPath}, `?domain=` for a domain other than
 * the default one): where a short link goes, its domain and whether it is safe, with a Visit
 * link through the short URL (the visit is then redirected and counted; this page counts nothing).
 */
export default function PreviewPage() {
  usePageTitle('Link preview');
  const { alias = '', addPath = '' } = useParams();
  const [params] = useSearchParams();
  const { shortUrlBase } = useConfig();
  const preview = useLinkPreviewQuery(alias, params.get('domain'));
  const link = preview.data;
  return (
    <Container size="sm" py="xl" component="article">
      <Stack gap="md">
        <Title order={1}>Link preview</Title>
        {preview.isPending && alias !== '' && (
          <Loader role="status" aria-label="Loading the preview" />
        )}
        {(alias === '' || preview.data === null || preview.isError) && (
          <Alert color="gray">{UNAVAILABLE.not_found}</Alert>
        )}
        {link && link.state !== 'active' && (
          <Alert color={link.state === 'blocked' ? 'red' : 'gray'} role="alert">
            {UNAVAILABLE[link.state]}
          </Alert>
        )}
        {link && link.state === 'active' && link.url && (
          <>
            <Text>
              <strong>
                {link.domain}/{link.alias}
              </strong>{' '}
              goes to:
            </Text>
            <Code block aria-label="Destination">
              {withPath(link.url, addPath)}
            </Code>
            <Text>
              Domain: <strong>{link.host}</strong>
            </Text>
            <Text c={link.safe ? 'green.8' : 'red.8'}>
              {link.safe
                ? 'Safe: this destination passed our safety checks.'
                : 'Not safe: this destination is blocked.'}
            </Text>
            <Button
              component="a"
              href={shortUrl(
                { domain: link.domain, alias: link.alias, path: addPath },
                shortUrlBase,
              )}
              rel="noreferrer"
              w="fit-content"
            >
              Visit
            </Button>
          </>
        )}
        <Text size="sm" c="dimmed">
          Add a <Anchor component="span">+</Anchor> to any short link to see this page before you
          visit it.
        </Text>
      </Stack>
    </Container>
  );
}
