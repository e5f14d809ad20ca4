/**
 * `deno <args>` as on a fresh machine after `npm ci`: an empty DENO_DIR and an npm registry that
 * hangs up (freshDenoEnv). `npm run check:functions` and `npm run test:functions` go through it,
 * so a module that only this machine's Deno cache holds fails here too, not first in CI.
 */
import { spawn } from 'node:child_process';
import { denoExecutable } from '../supabase/local/src/functions/deno.ts';
import { freshDenoEnv } from '../supabase/local/src/functions/fresh-machine.ts';

const fresh = await freshDenoEnv();
const child = spawn(denoExecutable(), process.argv.slice(2), {
  env: { ...process.env, ...fresh.env },
  stdio: 'inherit',
});
const code = await new Promise<number>((resolve) => {
  child.once('error', (error) => {
    console.error(error.message);
    resolve(1);
  });
  child.once('close', (exitCode) => resolve(exitCode ?? 1));
});
await fresh.close();
process.exit(code);
