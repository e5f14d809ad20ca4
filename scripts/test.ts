/**
 * `npm test`: every suite, in order, against one fresh local stack started here.
 *
 *   unit + ui (Vitest)      no stack
 *   stack (Vitest)          contract tests of the local stack and database tests (RLS by actor)
 *   functions (deno test)   edge-function handlers called directly
 *   e2e (Playwright)        Chromium against the portal and kiosk on the same stack
 *
 * Deno runs as on a fresh machine after `npm ci`: an empty DENO_DIR and an npm registry that
 * hangs up (freshDenoEnv), so a function or test that would download anything at run time fails
 * here instead of passing on a machine whose cache happens to hold it.
 *
 * Every suite runs even when an earlier one fails; the last line is the plain
 * "N passed, N failed" summary, and the exit code is non-zero if anything failed.
 * `npm test -- unit stack` runs only the named suites.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, REPO_ROOT } from '../supabase/local/src/config.ts';
import { NO_DOWNLOADS } from '../supabase/local/src/functions/deno.ts';
import { freshDenoEnv } from '../supabase/local/src/functions/fresh-machine.ts';
import { startStack, type RunningStack } from '../supabase/local/src/stack.ts';
import { TEST_STACK_ENV } from '../supabase/local/src/test-stack-env.ts';
import {
  countDenoTests,
  countPlaywrightTests,
  countVitestTests,
  type SuiteCount,
} from './test-counts.ts';

interface Suite {
  name: string;
  needsStack: boolean;
  command: string;
  args: (reportFile: string) => string[];
  count: (reportFile: string, output: string) => SuiteCount;
}

const bin = (name: string) => path.join(REPO_ROOT, 'node_modules', '.bin', name);
const vitest = (projects: string[]): Pick<Suite, 'command' | 'args' | 'count'> => ({
  command: bin('vitest'),
  args: (report) => [
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ],
  count: (report) => countVitestTests(fs.readFileSync(report, 'utf8')),
});

const SUITES: Suite[] = [
  { name: 'unit', needsStack: false, ...vitest(['unit', 'ui']) },
  { name: 'stack', needsStack: true, ...vitest(['stack']) },
  {
    name: 'functions',
    needsStack: true,
    command: bin('deno'),
    args: () => [
      'test',
      '--allow-all',
      '--no-prompt',
      ...NO_DOWNLOADS,
      '--config',
      'supabase/functions/deno.json',
      'supabase/functions/',
    ],
    count: (_report, output) => countDenoTests(output),
  },
  {
    name: 'e2e',
    needsStack: true,
    command: bin('playwright'),
    args: () => ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
    count: (report) => countPlaywrightTests(fs.readFileSync(report, 'utf8')),
  },
];

function run(
  suite: Suite,
  reportFile: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(suite.command, suite.args(reportFile), {
      cwd: REPO_ROOT,
      env: {
        ...env,
        PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile,
        PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const tee = (target: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk.toString();
      target.write(chunk);
    };
    child.stdout.on('data', tee(process.stdout));
    child.stderr.on('data', tee(process.stderr));
    child.on('error', (error) => {
      output += String(error);
      resolve({ code: 1, output });
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function main() {
  const wanted = process.argv.slice(2);
  const suites = wanted.length ? SUITES.filter((s) => wanted.includes(s.name)) : SUITES;
  if (suites.length === 0)
    throw new Error(
      `No suite named ${wanted.join(', ')}; suites: ${SUITES.map((s) => s.name).join(', ')}`,
    );

  const reportsDir = path.join(REPO_ROOT, '.local', 'test-reports');
  fs.rmSync(reportsDir, { recursive: true, force: true });
  fs.mkdirSync(reportsDir, { recursive: true });

  const stackDir = path.join(REPO_ROOT, '.local', 'test');
  const freshDeno = await freshDenoEnv();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...freshDeno.env,
    STACK_GATEWAY_PORT: process.env.TEST_STACK_GATEWAY_PORT ?? '25321',
    STACK_DB_PORT: process.env.TEST_STACK_DB_PORT ?? '25322',
    STACK_MAIL_PORT: process.env.TEST_STACK_MAIL_PORT ?? '25324',
    STACK_STATE_DIR: stackDir,
    STACK_WATCH_FUNCTIONS: 'false',
    ...TEST_STACK_ENV,
    SHORTLANE_TEST_STACK_DIR: stackDir,
    // Beside a running `npm start` (5173/5174), and below the ephemeral port range.
    E2E_PORTAL_PORT: process.env.E2E_PORTAL_PORT ?? '25173',
    E2E_KIOSK_PORT: process.env.E2E_KIOSK_PORT ?? '25174',
    CI: process.env.CI ?? '',
  };

  const results: { name: string; count: SuiteCount; code: number }[] = [];
  let stack: RunningStack | undefined;
  try {
    for (const suite of suites) {
      if (suite.needsStack && !stack) {
        Object.assign(process.env, env);
        fs.rmSync(stackDir, { recursive: true, force: true });
        const started = Date.now();
        stack = await startStack(loadConfig({ stateDir: stackDir }), (line) => {
          if (process.env.STACK_VERBOSE) console.log(line);
        });
        console.log(
          `\n▶ test stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${stack.env.SUPABASE_URL}`,
        );
      }
      console.log(`\n▶ ${suite.name}`);
      const reportFile = path.join(reportsDir, `${suite.name}.json`);
      const { code, output } = await run(suite, reportFile, env);
      let count: SuiteCount;
      try {
        count = suite.count(reportFile, output);
      } catch {
        count = {
          passed: 0,
          failed: 1,
          skipped: 0,
          failures: [`${suite.name} left no readable report (exit code ${code})`],
        };
      }
      // A runner that crashed before reporting must not look like a pass.
      if (code !== 0 && count.failed === 0)
        count = {
          ...count,
          failed: 1,
          failures: [`${suite.name} exited with code ${code} without reporting a failed test`],
        };
      results.push({ name: suite.name, count, code });
    }
  } finally {
    await stack?.stop();
    await freshDeno.close();
  }

  console.log('\nSummary');
  for (const { name, count, code } of results) {
    console.log(
      `  ${name.padEnd(10)} ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped${code ? '  ✗' : ''}`,
    );
  }
  const failures = results.flatMap(({ name, count }) =>
    count.failures.map((failure) => `  ✗ ${name}: ${failure}`),
  );
  if (failures.length > 0) console.log(`\nFailed\n${failures.join('\n')}`);
  const total = results.reduce(
    (sum, { count }) => ({
      passed: sum.passed + count.passed,
      failed: sum.failed + count.failed,
      skipped: sum.skipped + count.skipped,
    }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
