import fs from 'node:fs';
import { startStack } from '../../supabase/local/src/stack.ts';
import { exportStackEnv, ownStackConfig, readSharedStackEnv, SHARED_STACK_DIR } from './stack.ts';

/** Uses the stack `npm test` started, or starts a fresh one and stops it after the run. */
export default async function globalSetup() {
  if (SHARED_STACK_DIR) {
    exportStackEnv(readSharedStackEnv(SHARED_STACK_DIR));
    return;
  }
  const config = ownStackConfig();
  fs.rmSync(config.stateDir, { recursive: true, force: true });
  const stack = await startStack(config, (line) => {
    if (process.env.STACK_VERBOSE) console.log(line);
  });
  exportStackEnv(stack.env);
  return async () => {
    await stack.stop();
  };
}
