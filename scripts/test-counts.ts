/**
 * Reads each runner's own report into one shape, for the summary `npm test` prints: the counts,
 * and the names of the failed tests with the first line of their error, so a log's last lines are
 * enough to know what broke.
 */

export interface SuiteCount {
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
}

/** One line per failure: the test's name and its error's first non-empty line. */
function failureLine(name: string, message: string | undefined): string {
  const plain = stripColours(message ?? '');
  const first = plain
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line.length > 0);
  const reason = first ? ` — ${first.length > 240 ? `${first.slice(0, 240)}…` : first}` : '';
  return `${name}${reason}`;
}

const stripColours = (text: string) =>
  text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests?: number;
  testResults?: {
    name: string;
    status?: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

export function countVitestTests(reportJson: string): SuiteCount {
  const report = JSON.parse(reportJson) as VitestReport;
  const failures = (report.testResults ?? []).flatMap((file) => {
    const failedTests = file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => failureLine(test.fullName, test.failureMessages?.[0]));
    // A file whose hooks or imports failed has a message and possibly no failed test of its own.
    if (failedTests.length === 0 && file.status === 'failed')
      return [failureLine(file.name, file.message)];
    return failedTests;
  });
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + (report.numTodoTests ?? 0),
    failures,
  };
}

interface PlaywrightSuite {
  title: string;
  specs?: {
    title: string;
    file?: string;
    line?: number;
    tests: { status: string; results: { error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuite[];
}

interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  suites?: PlaywrightSuite[];
}

function playwrightFailures(suites: PlaywrightSuite[], path: string[]): string[] {
  return suites.flatMap((suite) => {
    const here = suite.title ? [...path, suite.title] : path;
    const own = (suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === 'unexpected' || test.status === 'flaky')
        .map((test) => {
          const error = test.results.find((result) => result.error)?.error?.message;
          const name = [...here, spec.title].join(' › ');
          return failureLine(test.status === 'flaky' ? `${name} (flaky)` : name, error);
        }),
    );
    return [...own, ...playwrightFailures(suite.suites ?? [], here)];
  });
}

/** A flaky test passed on retry but failed first: it counts as failed, so retries cannot hide it. */
export function countPlaywrightTests(reportJson: string): SuiteCount {
  const { stats, suites } = JSON.parse(reportJson) as PlaywrightReport;
  return {
    passed: stats.expected,
    failed: stats.unexpected + stats.flaky,
    skipped: stats.skipped,
    failures: playwrightFailures(suites ?? [], []),
  };
}

/**
 * deno test ends with e.g. "ok | 12 passed (3 steps) | 0 failed (40ms)" or "FAILED | 1 passed |
 * 2 failed", after a FAILURES section listing "name => file:line" per failed test.
 */
export function countDenoTests(output: string): SuiteCount {
  const lines = stripColours(output).split('\n');
  const resultAt = lines.findLastIndex((l) => /^(ok|FAILED) \| \d+ passed/.test(l.trim()));
  if (resultAt < 0) throw new Error('deno test printed no result line');
  const line = lines[resultAt]!;
  const number = (pattern: RegExp) => Number(line.match(pattern)?.[1] ?? 0);
  const failuresAt = lines.findLastIndex((l) => l.trim() === 'FAILURES');
  const failures =
    failuresAt < 0
      ? []
      : lines
          .slice(failuresAt + 1, resultAt)
          .map((l) => l.trim())
          .filter((l) => l.includes(' => '));
  return {
    passed: number(/(\d+) passed/),
    failed: number(/(\d+) failed/),
    skipped: number(/(\d+) ignored/),
    failures,
  };
}
