/** Reads each runner's own report into one shape, for the summary line `npm test` prints. */

export interface SuiteCount {
  passed: number;
  failed: number;
  skipped: number;
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests?: number;
}

export function countVitestTests(reportJson: string): SuiteCount {
  const report = JSON.parse(reportJson) as VitestReport;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + (report.numTodoTests ?? 0),
  };
}

interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}

/** A flaky test passed on retry but failed first: it counts as failed, so retries cannot hide it. */
export function countPlaywrightTests(reportJson: string): SuiteCount {
  const { stats } = JSON.parse(reportJson) as PlaywrightReport;
  return { passed: stats.expected, failed: stats.unexpected + stats.flaky, skipped: stats.skipped };
}

/** deno test ends with e.g. "ok | 12 passed (3 steps) | 0 failed (40ms)" or "FAILED | 1 passed | 2 failed". */
export function countDenoTests(output: string): SuiteCount {
  // Colour codes would split the numbers from their words.
  const plain = output.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
  const line = plain
    .split('\n')
    .reverse()
    .find((l) => /^(ok|FAILED) \| \d+ passed/.test(l.trim()));
  if (!line) throw new Error('deno test printed no result line');
  const number = (pattern: RegExp) => Number(line.match(pattern)?.[1] ?? 0);
  return {
    passed: number(/(\d+) passed/),
    failed: number(/(\d+) failed/),
    skipped: number(/(\d+) ignored/),
  };
}
