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
    expect(countVitestTests(report)).toEqual({ passed: 7, failed: 2, skipped: 2 });
  });

  it('counts flaky Playwright tests as failures', () => {
    const report = JSON.stringify({ stats: { expected: 5, unexpected: 1, flaky: 1, skipped: 3 } });
    expect(countPlaywrightTests(report)).toEqual({ passed: 5, failed: 2, skipped: 3 });
  });

  it('reads the last deno test result line, coloured or not', () => {
    const output =
      'running 3 tests\n...\n\u001b[32mok\u001b[0m | 12 passed (3 steps) | 0 failed | 2 ignored (40ms)\n';
    expect(countDenoTests(output)).toEqual({ passed: 12, failed: 0, skipped: 2 });
    expect(countDenoTests('FAILED | 1 passed | 2 failed (9ms)')).toEqual({
      passed: 1,
      failed: 2,
      skipped: 0,
    });
  });

  it('refuses output with no deno result line rather than guessing zero', () => {
    expect(() => countDenoTests('error: Module not found')).toThrow(/no result line/);
  });
});
