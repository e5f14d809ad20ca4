import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../src/config.ts';
import { readStackEnv, startStack, type StackEnv } from '../src/stack.ts';
import { TEST_STACK_ENV } from '../src/test-stack-env.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: StackEnv;
  }
}

/**
 * Gives every stack-backed test suite a running stack. `npm test` starts one stack for all
 * suites and names it in SHORTLANE_TEST_STACK_DIR; run alone, a suite starts a fresh one of its
 * own (ports and state dir from STACK_* variables, defaulting to a test range beside the dev stack).
 */
export default async function setup(project: TestProject) {
  const shared = process.env.SHORTLANE_TEST_STACK_DIR;
  if (shared) {
    const env = readStackEnv(loadConfig({ stateDir: path.resolve(shared) }));
    if (!env) throw new Error(`No running stack found in ${shared}`);
    project.provide('stackEnv', env);
    return;
  }
  process.env.STACK_GATEWAY_PORT ??= '26321';
  process.env.STACK_DB_PORT ??= '26322';
  process.env.STACK_MAIL_PORT ??= '26324';
  process.env.STACK_WATCH_FUNCTIONS = 'false';
  for (const [name, value] of Object.entries(TEST_STACK_ENV)) process.env[name] ??= value;
  const config = loadConfig({
    stateDir: path.resolve(process.env.STACK_STATE_DIR ?? '.local/test-stack'),
  });
  fs.rmSync(config.stateDir, { recursive: true, force: true });
  const stack = await startStack(config, (line) => {
    if (process.env.STACK_VERBOSE) console.log(line);
  });
  project.provide('stackEnv', stack.env);
  return async () => {
    await stack.stop();
  };
}
