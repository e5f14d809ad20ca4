import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { Link } from 'react-router-dom';
import { MenuOnFirstUse } from '../../../components/MenuOnFirstUse.tsx';
import { useArchiveLinkMutation } from '../../../data/link-archive-mutation.ts';
import { useDeleteLinkMutation } from '../../../data/link-delete-mutation.ts';
import type { LinkListItem } from '../../../data/links-list-query.ts';
import { useDialogs, useNotify } from '../../../lib/servicesContext.ts';
import { href } from '../../../routes/paths.ts';
import { useShortUrl } from '../useShortUrl.ts';
import { CopyAndVisitButtons, ShortLinkSummary } from './ShortLinkParts.tsx';
import { escapeHtml } from '../../../lib/html.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

interface LinkCardProps {
  link: LinkListItem;
  /** Whether the link counts as expired now (its list state). */
  expired: boolean;
  onEdit: (link: LinkListItem) => void;
  /** Whether the row offers edit, archive and delete (the server checks again). */
  manageable: boolean;
}

/** One link of a list: where it leads, its tags and dates, and what can be done with it. */
export function LinkCard({ link, expired, onEdit, manageable }: LinkCardProps) {
  const dialogs = useDialogs();
  const notify = useNotify();
  const archive = useArchiveLinkMutation();
  const remove = useDeleteLinkMutation();
  const archived = link.status === 'archived';
  const name = `${link.domain}/${link.alias}`;
  const shortUrl = useShortUrl(link);
  const success = (message: string) =>
    notify({ message, durationMs: NOTICE_DURATION_MS.default, tone: 'success' });

  const toggleArchive = async () => {
    try {
      await archive.mutateAsync({ aliasId: link.id, archived: !archived });
      success(archived ? `${name} is active again.` : `${name} was archived.`);
    } catch {
      // The global response handler has said why (plan limit, permission…).
    }
  };

  const confirmDelete = async () => {
    const confirmed = await dialogs.confirm({
      title: 'Delete link',
      messageHtml: `<strong>${escapeHtml(name)}</strong> will stop working and leave your lists. Its alias cannot be used again.`,
      confirmLabel: 'Delete',
    });
    if (!confirmed) return;
    try {
      await remove.mutateAsync(link.id);
      success(`${name} was deleted.`);
    } catch {
      // The global response handler has said why.
    }
  };

  return (
    <Paper withBorder radius="md" p="md" component="article" aria-label={name}>
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <ShortLinkSummary name={name} shortUrl={shortUrl} longUrl={link.longUrl} />
          <Group gap="xs" wrap="wrap">
            <CopyAndVisitButtons name={name} shortUrl={shortUrl} />
            <Button
              size="xs"
              variant="default"
              component={Link}
              to={href('analytics', { hash: link.id })}
              aria-label={`Analytics of ${name}`}
            >
              Analytics
            </Button>
            {manageable && (
              <MenuOnFirstUse
                position="bottom-end"
                withinPortal
                target={(created) => (
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`More actions for ${name}`}
                    // Only the menu's actions make the card busy: no loader before it exists.
                    loading={created ? archive.isPending || remove.isPending : undefined}
                  >
                    More
                  </Button>
                )}
              >
                {(menu) => (
                  <>
                    <menu.Item onClick={() => onEdit(link)}>Edit</menu.Item>
                    <menu.Item onClick={toggleArchive}>
                      {archived ? 'Restore' : 'Archive'}
                    </menu.Item>
                    <menu.Item color="red" onClick={confirmDelete}>
                      Delete
                    </menu.Item>
                  </>
                )}
              </MenuOnFirstUse>
            )}
          </Group>
        </Group>
        {link.description && <Text size="sm">{link.description}</Text>}
        <Group gap="xs" wrap="wrap">
          {link.tags.map((tag) => (
            <Badge key={tag} variant="light" radius="sm" tt="none">
              {tag}
            </Badge>
          ))}
          <Text size="xs" c="gray.7">
            Created {dateFormat.format(new Date(link.createdAt))}
          </Text>
          {link.expiresAt && (
            <Text size="xs" c={expired ? 'red.9' : 'gray.7'}>
              {expired ? 'Expired' : 'Expires'} {dateTimeFormat.format(new Date(link.expiresAt))}
            </Text>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
