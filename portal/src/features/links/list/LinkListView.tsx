import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { Fragment, useDeferredValue, useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  DEFAULT_LINKS_PER_PAGE,
  isLinkListState,
  useLinkListQuery,
  type LinkListItem,
  type LinkListScope,
  type LinkListState,
} from '../../../data/links-list-query.ts';
import { EditLinkModal, type LinkEditAllowances } from './EditLinkModal.tsx';
import { LinkCard } from './LinkCard.tsx';
import { listLoadErrorMessages } from './listError.ts';
import { parseLinkSearch } from './search.ts';
import { READABLE_INPUT_STYLES } from './readableStyles.ts';

const STATE_LABELS: Record<LinkListState, string> = {
  active: 'Active',
  expired: 'Expired',
  archived: 'Archived',
};

/** The list's place in the address: ?state=archived&q=tag:foo&page=2 (back and forward work). */
export const LIST_PARAMS = { state: 'state', search: 'q', page: 'page' } as const;

export function readListParams(params: URLSearchParams): {
  state: LinkListState;
  searchText: string;
  page: number;
} {
  const state = params.get(LIST_PARAMS.state);
  const page = Number(params.get(LIST_PARAMS.page) ?? '1');
  return {
    state: isLinkListState(state) ? state : 'active',
    searchText: params.get(LIST_PARAMS.search) ?? '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

interface LinkListViewProps {
  scope: LinkListScope;
  /** The accessible name of the list's region, e.g. "Your links". */
  label: string;
  allowances?: LinkEditAllowances;
  /** Whether rows offer edit, archive and delete (default yes; the server checks anyway). */
  manageable?: (link: LinkListItem) => boolean;
  perPage?: number;
}

/** A paged link list by state with a `type:query` search, and each link's actions. */
export function LinkListView({
  scope,
  label,
  allowances,
  manageable = () => true,
  perPage = DEFAULT_LINKS_PER_PAGE,
}: LinkListViewProps) {
  const [params, setParams] = useSearchParams();
  const { state, searchText, page } = readListParams(params);
  const [draft, setDraft] = useState(searchText);
  const [editing, setEditing] = useState<LinkListItem | null>(null);
  const resultsId = useId();
  const search = parseLinkSearch(searchText);
  const query = useLinkListQuery({ scope, state, search, page, perPage });

  // The address changed under us (back button, a link): the box follows it.
  const [draftSource, setDraftSource] = useState(searchText);
  if (draftSource !== searchText) {
    setDraftSource(searchText);
    setDraft(searchText);
  }

  const update = (changes: Partial<Record<keyof typeof LIST_PARAMS, string | null>>) => {
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        const name = LIST_PARAMS[key as keyof typeof LIST_PARAMS];
        if (value == null || value === '') next.delete(name);
        else next.set(name, value);
      }
      return next;
    });
  };

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    update({ search: draft.trim(), page: null });
  };

  const data = query.data;
  // The cards render in a transition, in slices the browser can paint and answer input between:
  // a query's answer otherwise renders at once (useSyncExternalStore), a page of cards in one
  // long task. Until the first slice is done the list still says it is loading.
  // Also when the list opens with its page already at hand (cached): null at first.
  const shown = useDeferredValue(data ?? null, null);
  // A list that shrank (the last link of a page archived) shows the page before.
  useEffect(() => {
    if (data && data.items.length === 0 && page > 1 && !query.isPlaceholderData) {
      update({ page: String(page - 1) });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- update is rebuilt every render
  }, [data, page, query.isPlaceholderData]);

  return (
    <Stack gap="md" component="section" aria-label={label}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <SegmentedControl
          aria-label="Link state"
          value={state}
          onChange={(value) => update({ state: value === 'active' ? null : value, page: null })}
          data={Object.entries(STATE_LABELS).map(([value, text]) => ({ value, label: text }))}
        />
        <form
          onSubmit={submitSearch}
          role="search"
          aria-label="Search links"
          style={{ flex: '1 1 18rem' }}
        >
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              label="Search links"
              styles={READABLE_INPUT_STYLES}
              description="Text, or type:query — alias:spring, tag:marketing, url:example.com"
              value={draft}
              onChange={(event) => setDraft(event.currentTarget.value)}
              aria-controls={resultsId}
            />
            <Button type="submit" variant="light">
              Search
            </Button>
          </Group>
        </form>
      </Group>

      <div id={resultsId} aria-busy={query.isFetching} aria-live="polite">
        {query.isPending || (shown == null && !query.isError) ? (
          <Center py="xl" role="status">
            <Loader aria-hidden="true" />
            <VisuallyHidden>Loading links…</VisuallyHidden>
          </Center>
        ) : query.isError ? (
          <Alert color="red" role="alert" title="The links could not be loaded">
            {listLoadErrorMessages(query.error).map((message, index) => (
              <Fragment key={index}>
                {index > 0 && <br />}
                {message}
              </Fragment>
            ))}
            <Group mt="sm">
              <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
                Try again
              </Button>
            </Group>
          </Alert>
        ) : shown && shown.items.length === 0 ? (
          <Paper withBorder radius="md" p="lg">
            <Text>
              {search
                ? `No ${state} links match “${searchText.trim()}”.`
                : `No ${state} links yet.`}
            </Text>
          </Paper>
        ) : (
          <Stack gap="sm">
            {shown?.items.map((link) => (
              <LinkCard
                key={link.id}
                link={link}
                expired={state === 'expired'}
                manageable={manageable(link)}
                onEdit={setEditing}
              />
            ))}
          </Stack>
        )}
      </div>

      {shown && (page > 1 || shown.hasNextPage) && (
        <Group justify="center" gap="sm" component="nav" aria-label="Link pages">
          <Button
            variant="default"
            disabled={page <= 1}
            onClick={() => update({ page: page - 1 <= 1 ? null : String(page - 1) })}
          >
            Previous page
          </Button>
          <Text size="sm" aria-current="page">
            Page {page}
          </Text>
          <Button
            variant="default"
            disabled={!shown.hasNextPage}
            onClick={() => update({ page: String(page + 1) })}
          >
            Next page
          </Button>
        </Group>
      )}

      {editing && (
        <EditLinkModal link={editing} allowances={allowances} onClose={() => setEditing(null)} />
      )}
    </Stack>
  );
}
