import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';

const JOB_ID = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const JOB_PATH = `/functions/v1/bulk-import/bulk/jobs/${JOB_ID}`;

function job(overrides: Record<string, unknown> = {}) {
  return {
    job_id: JOB_ID,
    status: 'completed',
    file_name: 'bulk.csv',
    total: 3,
    processed: 3,
    created: 0,
    result_path: `user/bulk-imports/${JOB_ID}.csv`,
    created_at: '2026-11-22T10:00:00+00:00',
    started_at: '2026-11-22T10:00:01+00:00',
    finished_at: '2026-11-22T10:00:02+00:00',
    ...overrides,
  };
}

const REFUSED = [
  { line: 2, field: 'url', message: 'The url must be a valid URL.' },
  { line: 3, field: 'alias', message: 'The alias has already been taken.' },
  { line: 4, field: 'url', message: 'The url field is required.' },
];

describe('BulkJobPage', { timeout: 20_000 }, () => {
  it('says why each row was refused, with its line, and offers the result CSV', async () => {
    const backend = new TestBackend()
      .on('GET', JOB_PATH, () => json(job()))
      .on('POST', '/rest/v1/rpc/bulk_job_errors', () =>
        json(REFUSED, { headers: { 'content-range': '0-2/3' } }),
      );
    renderApp({ route: `/app/bulk/${JOB_ID}`, world: signedInWorld(), backend });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bulk import' })).toBeVisible();
    expect(screen.getByText('Completed')).toBeVisible();
    expect(screen.getByText('Links created').nextSibling).toHaveTextContent('0');
    expect(screen.getByText('Rows refused').nextSibling).toHaveTextContent('3');

    const table = await screen.findByRole('table', { name: 'Refused rows' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '2urlThe url must be a valid URL.',
      '3aliasThe alias has already been taken.',
      '4urlThe url field is required.',
    ]);
    expect(within(table).getByRole('rowheader', { name: '2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download the result CSV' })).toBeEnabled();
  });

  it('shows a running job’s progress and asks again until it ends, then lists its rows', async () => {
    let polls = 0;
    const backend = new TestBackend()
      .on('GET', JOB_PATH, () =>
        json(
          ++polls < 2
            ? job({ status: 'processing', processed: 1, created: 1, result_path: null })
            : job({ created: 3 }),
        ),
      )
      .on('POST', '/rest/v1/rpc/bulk_job_errors', () =>
        json([], { headers: { 'content-range': '*/0' } }),
      );
    renderApp({ route: `/app/bulk/${JOB_ID}`, world: signedInWorld(), backend });
    expect(await screen.findByText(/1 of 3 rows processed/)).toBeVisible();
    expect(screen.getByRole('progressbar', { name: 'Rows processed: 33%' })).toBeVisible();
    // Nothing to list before the job ends.
    expect(backend.requestsTo('POST', '/rest/v1/rpc/bulk_job_errors')).toHaveLength(0);

    expect(await screen.findByText('No row was refused.', {}, { timeout: 5_000 })).toBeVisible();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(polls).toBe(2);
  });

  it('says when the batch is not there', async () => {
    const backend = new TestBackend().on('GET', JOB_PATH, () =>
      json({ code: 'bulk_job_not_found', message: 'Bulk job not found.' }, { status: 404 }),
    );
    renderApp({ route: `/app/bulk/${JOB_ID}`, world: signedInWorld(), backend });
    expect(await screen.findByRole('heading', { name: 'Batch not found' })).toBeVisible();
    await waitFor(() => expect(backend.requestsTo('GET', JOB_PATH)).toHaveLength(1));
  });
});
