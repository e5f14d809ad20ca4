/**
 * `npm run lock:functions`: rewrites supabase/functions/deno.lock, the package versions
 * `supabase functions deploy` bundles. Deno resolves the functions' import map from the npm
 * registry, as Supabase's bundler does, in a copy of the functions made outside this repository:
 * here the root deno.json has Deno read node_modules instead, and write no lock.
 * scripts/function-dependencies.test.ts then checks the lock against package-lock.json.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../supabase/local/src/config.ts';
import { denoExecutable } from '../supabase/local/src/functions/deno.ts';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shortlane-lock-functions-'));
try {
  // The functions import shared/src by relative paths: keep the layout.
  const functionsDir = path.join(work, 'supabase', 'functions');
  fs.cpSync(path.join(REPO_ROOT, 'supabase', 'functions'), functionsDir, { recursive: true });
  fs.cpSync(path.join(REPO_ROOT, 'shared', 'src'), path.join(work, 'shared', 'src'), {
    recursive: true,
  });
  fs.rmSync(path.join(functionsDir, 'deno.lock'), { force: true });
  const entrypoints = fs
    .readdirSync(functionsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
    .map((entry) => path.join(entry.name, 'index.ts'))
    .filter((entry) => fs.existsSync(path.join(functionsDir, entry)));
  const result = spawnSync(
    denoExecutable(),
    ['install', '--node-modules-dir=none', '--config', 'deno.json', '--entrypoint', ...entrypoints],
    {
      cwd: functionsDir,
      env: { ...process.env, DENO_DIR: path.join(work, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1' },
      stdio: 'inherit',
    },
  );
  if (result.status !== 0)
    throw new Error(`deno install failed (${result.status ?? result.signal})`);
  fs.copyFileSync(
    path.join(functionsDir, 'deno.lock'),
    path.join(REPO_ROOT, 'supabase', 'functions', 'deno.lock'),
  );
  console.log('supabase/functions/deno.lock rewritten');
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
