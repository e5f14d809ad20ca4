import { Button, Stack, Text } from '@mantine/core';
import type { StatsPeriod } from '@shortlane/shared/constants.ts';
import { useMutation } from '@tanstack/react-query';
import { fetchClickLogCsv } from '../../data/link-analytics-query.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { analyticsErrorMessage } from './errors.ts';

/** Hands text to the browser as a file download. */
export function saveTextFile(text: string, fileName: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The click has started the download; the object URL is no longer needed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function clickLogFileName(domain: string, alias: string, period: StatsPeriod): string {
  return `clicks-${domain}-${alias}-${period}.csv`.replace(/[^A-Za-z0-9._-]+/g, '_');
}

/** Downloads the link's raw click log for the period (where the plan has download_logs). */
export function DownloadLogButton({
  aliasId,
  domain,
  alias,
  period,
}: {
  aliasId: string;
  domain: string;
  alias: string;
  period: StatsPeriod;
}) {
  const supabase = useSupabase();
  const download = useMutation({
    mutationFn: () => fetchClickLogCsv(supabase, aliasId, period),
    onSuccess: (csv) => saveTextFile(csv, clickLogFileName(domain, alias, period)),
  });
  return (
    <Stack gap={4} align="flex-start">
      <Button variant="default" loading={download.isPending} onClick={() => download.mutate()}>
        Download click log (CSV)
      </Button>
      {download.isError && (
        <Text size="sm" c="red.8" role="alert">
          {analyticsErrorMessage(download.error)}
        </Text>
      )}
    </Stack>
  );
}
