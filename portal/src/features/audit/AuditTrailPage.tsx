import {
  Alert,
  Button,
  Container,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import {
  type AuditEvent,
  type AuditFilters,
  fetchAuditExport,
  useAuditFilterChoicesQuery,
  useAuditTrailQuery,
} from '../../data/audit-trail-query.ts';
import { useOrganizationBySlugQuery } from '../../data/links-list-query.ts';
import { ApiError } from '../../data/unwrap.ts';
import { useConfig, useSupabase } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { saveTextFile } from '../analytics/DownloadLogButton.tsx';
import {
  actionLabel,
  actorLabel,
  auditCsv,
  auditFileName,
  changedFields,
  periodFilter,
} from './auditView.ts';
import { OrganizationUnavailable } from '../organization/OrganizationUnavailable.tsx';

const formatTime = (iso: string) => new Date(iso).toLocaleString();

function Changes({ event }: { event: AuditEvent }) {
  const changes = changedFields(event);
  if (changes.length === 0) return <Text c="dimmed">—</Text>;
  return (
    <details>
      <summary>
        {changes.length} field{changes.length === 1 ? '' : 's'}
      </summary>
      <dl style={{ margin: 0 }}>
        {changes.map((change) => (
          <div key={change.field}>
            <Text component="dt" size="sm" fw={600}>
              {change.field}
            </Text>
            <Text component="dd" size="sm" ml="sm" style={{ wordBreak: 'break-word' }}>
              {change.before ?? '(none)'} → {change.after ?? '(none)'}
            </Text>
          </div>
        ))}
      </dl>
    </details>
  );
}

function EventsTable({ events }: { events: readonly AuditEvent[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped aria-label="Audit events">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Actor</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Target</Table.Th>
            <Table.Th>IP</Table.Th>
            <Table.Th>Changes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.id}>
              <Table.Td>{formatTime(event.created_at)}</Table.Td>
              <Table.Td>{actorLabel(event)}</Table.Td>
              <Table.Td>{actionLabel(event.action)}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>{event.target ?? '—'}</Table.Td>
              <Table.Td>{event.ip ?? '—'}</Table.Td>
              <Table.Td>
                <Changes event={event} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * organizations/{org}/audit: every change made in the organization, written by the database,
 * filtered by actor, action and period, exported as CSV. The call itself refuses anyone without
 * the audit permission; the page says so rather than hide it.
 */
export default function AuditTrailPage() {
  const { org = '' } = useParams();
  const { productName } = useConfig();
  usePageTitle('Audit trail', productName);
  const supabase = useSupabase();
  const organization = useOrganizationBySlugQuery(org);
  const organizationId = organization.data?.id ?? null;
  const [actorId, setActorId] = useState<string | null>(null);
  const [action, setAction] = useState<string | null>(null);
  const [fromDay, setFromDay] = useState('');
  const [toDay, setToDay] = useState('');
  const filters: AuditFilters = { actorId, action, ...periodFilter(fromDay, toDay) };
  const choices = useAuditFilterChoicesQuery(organizationId);
  const trail = useAuditTrailQuery(organizationId, filters);
  const [exported, setExported] = useState(0);
  const exporting = useMutation({
    mutationFn: () => {
      setExported(0);
      return fetchAuditExport(supabase, organizationId!, filters, setExported);
    },
    onSuccess: ({ events }) => saveTextFile(auditCsv(events), auditFileName(org)),
  });

  if (organization.isPending) return <PageLoader />;
  if (organization.isError || organization.data === null) {
    return (
      <OrganizationUnavailable title="Audit trail" loadFailed={organization.isError} size="lg" />
    );
  }

  const denied = trail.error instanceof ApiError && trail.error.status === 403;
  const events = trail.data?.pages.flat() ?? [];
  const filtered = actorId !== null || action !== null || fromDay !== '' || toDay !== '';
  const periodError =
    fromDay !== '' && toDay !== '' && fromDay > toDay ? 'The end is before the start.' : undefined;

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>Audit trail</Title>
          <Text mt="xs" c="gray.7">
            Every change made in the organization: who made it, when, from where, and what it
            changed.
          </Text>
        </div>
        {denied ? (
          <Alert color="yellow" title="Not available to you">
            Only the organization&apos;s owner and people whose role includes the Audit permission
            can see its audit trail.
          </Alert>
        ) : (
          <>
            <Group align="flex-end" wrap="wrap" role="search" aria-label="Filter the audit trail">
              <Select
                label="Actor"
                placeholder="Anyone"
                clearable
                searchable
                data={(choices.data?.actors ?? []).map((actor) => ({
                  value: actor.id,
                  label: actor.email,
                }))}
                value={actorId}
                onChange={setActorId}
                w={240}
              />
              <Select
                label="Action"
                placeholder="Any action"
                clearable
                searchable
                data={(choices.data?.actions ?? []).map((name) => ({
                  value: name,
                  label: actionLabel(name),
                }))}
                value={action}
                onChange={setAction}
                w={240}
              />
              <TextInput
                type="date"
                label="From"
                value={fromDay}
                onChange={(event) => setFromDay(event.currentTarget.value)}
              />
              <TextInput
                type="date"
                label="To"
                value={toDay}
                error={periodError}
                onChange={(event) => setToDay(event.currentTarget.value)}
              />
              <Button
                variant="default"
                loading={exporting.isPending}
                disabled={events.length === 0 || periodError !== undefined}
                onClick={() => exporting.mutate()}
              >
                Export CSV
              </Button>
            </Group>
            <div role="status" aria-live="polite">
              {exporting.isPending && (
                <Text size="sm">Exporting… {exported.toLocaleString()} events so far.</Text>
              )}
              {exporting.data?.truncated && (
                <Text size="sm">
                  The file holds the newest {exporting.data.events.length.toLocaleString()} events;
                  narrow the period to export older ones.
                </Text>
              )}
            </div>
            {exporting.isError && (
              <Alert color="red" role="alert">
                The export failed. Try again.
              </Alert>
            )}
            {trail.isPending ? (
              <Loader size="sm" aria-label="Loading the audit trail" />
            ) : trail.isError ? (
              <Alert color="red" title="The audit trail could not be loaded" role="alert">
                <Button variant="light" size="xs" mt="xs" onClick={() => void trail.refetch()}>
                  Try again
                </Button>
              </Alert>
            ) : events.length === 0 ? (
              <Text c="dimmed">
                {filtered ? 'No changes match these filters.' : 'Nothing has changed yet.'}
              </Text>
            ) : (
              <>
                <EventsTable events={events} />
                {trail.hasNextPage && (
                  <Group justify="center">
                    <Button
                      variant="default"
                      loading={trail.isFetchingNextPage}
                      onClick={() => void trail.fetchNextPage()}
                    >
                      Show older changes
                    </Button>
                  </Group>
                )}
              </>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}
