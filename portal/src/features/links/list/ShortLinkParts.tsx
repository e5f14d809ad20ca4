import { Anchor, Button, CopyButton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A short link's name (opening it) over its destination; `children` adds lines below. */
export function ShortLinkSummary({
  name,
  shortUrl,
  longUrl,
  children,
}: {
  name: string;
  shortUrl: string;
  longUrl: string;
  children?: ReactNode;
}) {
  return (
    <Stack gap={2} style={{ minWidth: 0, flex: '1 1 16rem' }}>
      <Anchor href={shortUrl} target="_blank" rel="noopener noreferrer" fw={600}>
        {name}
      </Anchor>
      <Text size="sm" c="gray.7" truncate="end" title={longUrl}>
        {longUrl}
      </Text>
      {children}
    </Stack>
  );
}

/** Copy and Visit for one short link, named after it for screen readers. */
export function CopyAndVisitButtons({ name, shortUrl }: { name: string; shortUrl: string }) {
  return (
    <>
      <CopyButton value={shortUrl}>
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
        href={shortUrl}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`Visit ${name}`}
      >
        Visit
      </Button>
    </>
  );
}
