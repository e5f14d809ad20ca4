import { describe, expect, it } from 'vitest';
import { bulkJobPollDelay } from '../../data/bulk-job-query.ts';
import { jobCounts, resultFileName } from './jobSummary.ts';

describe('bulk job summary', () => {
  it('counts refused rows among the processed ones', () => {
    expect(jobCounts({ total: 10, processed: 4, created: 3 })).toEqual({
      total: 10,
      processed: 4,
      created: 3,
      refused: 1,
      percent: 40,
    });
    expect(jobCounts({ total: 0, processed: 0, created: 0 }).percent).toBe(100);
  });

  it('names the result after the uploaded file', () => {
    expect(resultFileName({ file_name: 'spring links.csv', job_id: 'j1' })).toBe(
      'spring_links-result.csv',
    );
    expect(resultFileName({ file_name: null, job_id: 'j1' })).toBe('bulk-j1-result.csv');
  });
});

describe('bulk job polling', () => {
  it('backs off while the job runs, up to the cap, and stops once it ended', () => {
    const running = { status: 'processing' as const };
    expect([0, 1, 2, 3, 4, 9].map((polls) => bulkJobPollDelay(running, polls))).toEqual([
      1_000, 2_000, 4_000, 8_000, 8_000, 8_000,
    ]);
    expect(bulkJobPollDelay(undefined, 0)).toBe(1_000);
    expect(bulkJobPollDelay({ status: 'completed' }, 3)).toBe(false);
    expect(bulkJobPollDelay({ status: 'failed' }, 0)).toBe(false);
  });
});
