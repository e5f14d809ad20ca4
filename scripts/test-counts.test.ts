import { describe, expect, it } from 'vitest';
import { countDenoTests, countPlaywrightTests, countVitestTests } from './test-counts.ts';

describe('test report counting', () => {
  it('reads Vitest JSON counts, pending and todo as skipped', () => {
    const report = JSON.stringify({
      numPassedTests: 7,
      numFailedTests: 2,
      numPendingTests: 1,
      numTodoTests: 1,
    });
    expect(countVitestTests(report)).toEqual({ passed: 7, failed: 2, skipped: 2, failures: [] });
  });

  it('names each failed Vitest test with its first error line, and a file whose hooks failed', () => {
    const report = JSON.stringify({
      numPassedTests: 1,
      numFailedTests: 1,
      numPendingTests: 0,
      testResults: [
        {
          name: '/repo/a.test.ts',
          status: 'failed',
          assertionResults: [
            { fullName: 'links creates one', status: 'passed', failureMessages: [] },
            {
              fullName: 'links refuses a bad URL',
              status: 'failed',
              failureMessages: [
                '\n\u001b[31mAssertionError: expected 404 to be 422\u001b[0m\n    at a.test.ts:3',
              ],
            },
          ],
        },
        {
          name: '/repo/b.test.ts',
          status: 'failed',
          message: 'Hook timed out',
          assertionResults: [],
        },
      ],
    });
    expect(countVitestTests(report).failures).toEqual([
      'links refuses a bad URL — AssertionError: expected 404 to be 422',
      '/repo/b.test.ts — Hook timed out',
    ]);
  });

  it('counts flaky Playwright tests as failures and names them with their suite path', () => {
    const report = JSON.stringify({
      stats: { expected: 5, unexpected: 1, flaky: 1, skipped: 3 },
      suites: [
        {
          title: 'kiosk.spec.ts',
          specs: [
            { title: 'passes', tests: [{ status: 'expected', results: [{}] }] },
            {
              title: 'bans a domain',
              tests: [
                { status: 'unexpected', results: [{ error: { message: 'Timed out 5000ms' } }] },
              ],
            },
          ],
          suites: [
            {
              title: 'announcements',
              specs: [
                {
                  title: 'shows in the bell',
                  tests: [
                    { status: 'flaky', results: [{ error: { message: 'not visible' } }, {}] },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(countPlaywrightTests(report)).toEqual({
      passed: 5,
      failed: 2,
      skipped: 3,
      failures: [
        'kiosk.spec.ts › bans a domain — Timed out 5000ms',
        'kiosk.spec.ts › announcements › shows in the bell (flaky) — not visible',
      ],
    });
  });

  it('reads the last deno test result line, coloured or not', () => {
    const output =
      'running 3 tests\n...\n\u001b[32mok\u001b[0m | 12 passed (3 steps) | 0 failed | 2 ignored (40ms)\n';
    expect(countDenoTests(output)).toEqual({ passed: 12, failed: 0, skipped: 2, failures: [] });
    expect(countDenoTests('FAILED | 1 passed | 2 failed (9ms)')).toMatchObject({
      passed: 1,
      failed: 2,
      skipped: 0,
    });
  });

  it('lists the tests named in deno’s FAILURES section', () => {
    const output = [
      'ERRORS',
      '',
      'r redirects => ./supabase/functions/r/test.ts:10:6',
      'error: AssertionError',
      '',
      'FAILURES',
      '',
      'r redirects => ./supabase/functions/r/test.ts:10:6',
      '\u001b[31mwhoami refuses\u001b[0m => ./supabase/functions/whoami/test.ts:4:6',
      '',
      'FAILED | 10 passed | 2 failed (1s)',
    ].join('\n');
    expect(countDenoTests(output).failures).toEqual([
      'r redirects => ./supabase/functions/r/test.ts:10:6',
      'whoami refuses => ./supabase/functions/whoami/test.ts:4:6',
    ]);
  });

  it('refuses output with no deno result line rather than guessing zero', () => {
    expect(() => countDenoTests('error: Module not found')).toThrow(/no result line/);
  });
});
