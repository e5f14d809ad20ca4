import { Alert, Button, Checkbox, FileInput, Group, Select, Stack } from '@mantine/core';
import { BULK_FILE } from '@shortlane/shared/constants.ts';
import { resolveDomain } from '@shortlane/shared/domains.ts';
import { validateBulkFile } from '@shortlane/shared/validation/files.ts';
import { useState } from 'react';
import { useBulkImportMutation } from '../../../data/links-bulk-mutation.ts';
import { formErrorsFromError } from '../../../lib/forms.ts';
import { CreateFormLoading } from './CreateFormLoading.tsx';
import { DomainSelect } from './DomainSelect.tsx';
import { messageText } from './messageKeys.ts';
import { READABLE } from './readable.ts';
import { trackCreateAttempt } from './tracking.ts';
import { useCreateFormModel } from './useCreateFormModel.ts';
import type { StickyChoice } from './SingleLinkForm.tsx';
import type { OrganizationScope } from './workspace.ts';

/** The picker lists csv, xlsx and ods (the server also takes xls). */
const PICKER_ACCEPT = BULK_FILE.pickerExtensions.map((extension) => `.${extension}`).join(',');

export interface ScheduledBatch {
  jobId: string;
  totalItems: number;
}

export interface BulkLinkFormProps {
  organization: OrganizationScope | null;
  sticky: StickyChoice;
  onScheduled: (batch: ScheduledBatch, choice: StickyChoice) => void;
}

/**
 * Bulk mode (link-creation 2, 4, 5, 8): a file (csv, xls, xlsx, ods; at most 10MB), whether its
 * first row is a header (default yes), the domain and the team; sent to the `bulk-import`
 * function, whose answer gives the batch's size. Refusals land under their fields.
 */
export function BulkLinkForm({ organization, sticky, onScheduled }: BulkLinkFormProps) {
  const [file, setFile] = useState<File | null>(null);
  const [withHeader, setWithHeader] = useState(true);
  const [domain, setDomain] = useState(sticky.domain);
  const [team, setTeam] = useState(sticky.team);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const model = useCreateFormModel({ organization, teamId: team, domain });
  const bulkImport = useBulkImportMutation();

  const resolved = model.loading
    ? null
    : resolveDomain(model.choices, window.location.hostname, domain || null);
  const usedDomain = resolved?.domain ?? domain;
  const domainError = errors.domain ?? (resolved?.error ? messageText(resolved.error) : undefined);

  async function submit() {
    const fileError = validateBulkFile(file);
    if (fileError || !file) {
      setErrors({ file: fileError ?? '' });
      return;
    }
    setErrors({});
    try {
      const answer = await bulkImport.mutateAsync({
        workspace: model.workspace,
        file,
        domain: usedDomain,
        withHeader,
      });
      trackCreateAttempt('created', 'bulk');
      onScheduled({ jobId: answer.jobId, totalItems: answer.total }, { domain: usedDomain, team });
    } catch (error) {
      trackCreateAttempt('refused', 'bulk');
      const fieldErrors = await formErrorsFromError(error);
      const known = ['file', 'domain', 'team', 'withHeader'];
      const sorted: Record<string, string> = {};
      for (const [field, message] of Object.entries(fieldErrors)) {
        const key = known.includes(field) ? field : 'form';
        sorted[key] ??= messageText(message);
      }
      setErrors(sorted);
    }
  }

  const busy = bulkImport.isPending;
  if (model.loading) {
    return <CreateFormLoading />;
  }
  return (
    <form
      noValidate
      aria-busy={busy}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        <FileInput
          label="File"
          description="A spreadsheet with one long URL per row (csv, xlsx or ods; at most 10 MB)."
          placeholder="Choose a file"
          descriptionProps={READABLE}
          accept={PICKER_ACCEPT}
          value={file}
          onChange={(next) => {
            setFile(next);
            setErrors(({ file: _dropped, ...rest }) => rest);
          }}
          clearable
          required
          error={errors.file}
          disabled={busy}
        />
        <Checkbox
          label="The first row is a header"
          checked={withHeader}
          onChange={(event) => setWithHeader(event.currentTarget.checked)}
          disabled={busy}
        />
        <DomainSelect
          choices={model.choices}
          value={usedDomain}
          onChange={setDomain}
          error={domainError}
          disabled={busy || model.loading}
        />
        {model.teamOptions.length > 1 ? (
          <Select
            label="Team"
            data={model.teamOptions}
            value={team}
            allowDeselect={false}
            onChange={(next) => next != null && setTeam(next)}
            error={errors.team}
            disabled={busy}
            comboboxProps={{ withinPortal: true }}
          />
        ) : null}
        {errors.form ? (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" disabled={busy || model.loading}>
            {busy ? 'Uploading...' : 'Upload file'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
