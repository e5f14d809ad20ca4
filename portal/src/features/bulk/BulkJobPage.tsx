import {
  Alert,
  Anchor,
  Badge,
  Button,
  Container,
  Group,
  Pagination,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useId, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { LoadingFrame } from '../../components/LoadingFrame.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import {
  BulkJobNotFoundError,
  isJobRunning,
  useBulkJobQuery,
  type BulkJob,
} from '../../data/bulk-job-query.ts';
import {
  REFUSED_ROWS_PAGE_SIZE,
  useRefusedRowsQuery,
} from '../../data/bulk-job-refused-rows-query.ts';
import { useBulkResultDownload } from '../../data/bulk-job-result-download.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';
import { saveFile } from '../links/result/qr/saveFile.ts';
import { JOB_STATUS_LABELS, jobCounts, resultFileName } from './jobSummary.ts';

const STATUS_COLORS: Record<BulkJob['status'], string> = {
  pending: 'gray',
  processing: 'blue',
  completed: 'green',
  failed: 'red',
};

const count = (value: number) => value.toLocaleString('en-US');

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text fz={24} fw={700}>
        {count(value)}
      </Text>
    </Paper>
  );
}

function ResultDownload({ job }: { job: BulkJob }) {
  const download = useBulkResultDownload();
  if (job.result_path == null) return null;
  const path = job.result_path;
  return (
    <Stack gap={4} align="flex-start">
      <Button
        variant="default"
        loading={download.isPending}
        onClick={() =>
          download.mutate(path, { onSuccess: (blob) => saveFile(blob, resultFileName(job)) })
        }
      >
        Download the result CSV
      </Button>
      <Text size="sm" c="gray.7">
        Every row of the file with its short link, or why it was refused.
      </Text>
      {download.isError && (
        <Alert color="red" role="alert">
          The result could not be downloaded. Try again.
        </Alert>
      )}
    </Stack>
  );
}

/** The refused rows, a page at a time: line of the file, field, and the message. */
function RefusedRows({ job }: { job: BulkJob }) {
  const [page, setPage] = useState(1);
  const rows = useRefusedRowsQuery(job.job_id, page, !isJobRunning(job));
  const titleId = useId();
  const heading = (
    <Title order={2} size="h3" id={titleId}>
      Refused rows
    </Title>
  );
  if (isJobRunning(job)) return null;
  if (rows.isPending) {
    return (
      <Stack gap="sm">
        {heading}
        <LoadingFrame label="Loading the refused rows" minHeight={120} />
      </Stack>
    );
  }
  if (rows.isError) {
    return (
      <Stack gap="sm">
        {heading}
        <Alert color="red" role="alert" title="The refused rows could not be loaded">
          Check your connection and try again.
          <Button mt="sm" size="xs" variant="default" onClick={() => void rows.refetch()}>
            Try again
          </Button>
        </Alert>
      </Stack>
    );
  }
  const { rows: refused, count: total } = rows.data;
  const pages = Math.max(1, Math.ceil(total / REFUSED_ROWS_PAGE_SIZE));
  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId}>
      {heading}
      {total === 0 ? (
        <Text>No row was refused.</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={480}>
            <Table striped aria-labelledby={titleId} aria-busy={rows.isPlaceholderData}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col" w={80}>
                    Line
                  </Table.Th>
                  <Table.Th scope="col" w={120}>
                    Field
                  </Table.Th>
                  <Table.Th scope="col">Why it was refused</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {refused.map((row) => (
                  <Table.Tr key={`${row.line}-${row.field}`}>
                    <Table.Th scope="row" fw={500}>
                      {row.line}
                    </Table.Th>
                    <Table.Td>{row.field}</Table.Td>
                    <Table.Td>{row.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 && (
            <Pagination
              total={pages}
              value={page}
              onChange={setPage}
              getControlProps={(control) => ({
                'aria-label': control === 'previous' ? 'Previous page' : 'Next page',
              })}
            />
          )}
        </>
      )}
    </Stack>
  );
}

function JobView({ job }: { job: BulkJob }) {
  const counts = jobCounts(job);
  const running = isJobRunning(job);
  return (
    <Stack gap="lg">
      <div>
        <Group gap="sm" align="center">
          <Title order={1}>Bulk import</Title>
          <Badge color={STATUS_COLORS[job.status]} variant="light" size="lg">
            {JOB_STATUS_LABELS[job.status]}
          </Badge>
        </Group>
        <Text mt="xs" c="gray.7">
          {job.file_name ?? 'Your file'}, uploaded{' '}
          <time dateTime={job.created_at}>{new Date(job.created_at).toLocaleString()}</time>
        </Text>
      </div>
      {running && (
        <Stack gap={4}>
          <Progress
            value={counts.percent}
            animated
            aria-label={`Rows processed: ${counts.percent}%`}
          />
          <Text size="sm" role="status">
            {count(counts.processed)} of {count(counts.total)} rows processed. This page updates by
            itself.
          </Text>
        </Stack>
      )}
      {job.status === 'failed' && (
        <Alert color="red" role="alert" title="The batch could not be finished">
          {count(counts.created)} of {count(counts.total)} links were created before it stopped.
          Upload the rows that are missing again.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label="Rows in the file" value={counts.total} />
        <Figure label="Processed" value={counts.processed} />
        <Figure label="Links created" value={counts.created} />
        <Figure label="Rows refused" value={counts.refused} />
      </SimpleGrid>
      <ResultDownload job={job} />
      <RefusedRows job={job} />
      <Anchor component={Link} to={paths.dashboard}>
        Go to your links
      </Anchor>
    </Stack>
  );
}

/** bulk/{jobId}: a bulk import's progress, counts, refused rows and result CSV. */
export default function BulkJobPage() {
  const { productName } = useConfig();
  usePageTitle('Bulk import', productName);
  const { jobId = '' } = useParams();
  const job = useBulkJobQuery(jobId);

  if (job.isPending) return <PageLoader />;
  return (
    <Container size="lg" py="xl">
      {job.isError ? (
        job.error instanceof BulkJobNotFoundError ? (
          <Stack gap="md" align="flex-start">
            <Title order={1}>Batch not found</Title>
            <Text>This batch does not exist, or it belongs to an account you cannot see.</Text>
            <Anchor component={Link} to={paths.dashboard}>
              Go to your links
            </Anchor>
          </Stack>
        ) : (
          <Stack gap="md" align="flex-start">
            <Title order={1}>Bulk import</Title>
            <Alert color="red" role="alert" title="The batch could not be loaded">
              Check your connection and try again.
            </Alert>
            <Button onClick={() => void job.refetch()}>Try again</Button>
          </Stack>
        )
      ) : (
        <JobView job={job.data} />
      )}
    </Container>
  );
}
