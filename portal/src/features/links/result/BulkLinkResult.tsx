import { Button, Stack, Text, Title } from '@mantine/core';

export interface BulkLinkResultProps {
  batch: { jobId: string; totalItems: number };
  onStartAnother: () => void;
}

/** The bulk result (link-creation 2): the batch is scheduled, with how many items it holds. */
export function BulkLinkResult({ batch, onStartAnother }: BulkLinkResultProps) {
  return (
    <Stack
      gap="md"
      component="section"
      aria-labelledby="bulk-link-result-title"
      data-job-id={batch.jobId}
    >
      <Title order={2} size="h3" id="bulk-link-result-title">
        Batch scheduled
      </Title>
      <Text>
        Total items added: <strong>{batch.totalItems.toLocaleString('en-US')}</strong>
      </Text>
      <div>
        <Button onClick={onStartAnother}>Start another batch</Button>
      </div>
    </Stack>
  );
}
