/**
 * `npm start`: the local stack (with seed data on first run), the portal and the kiosk dev
 * servers, then every URL and the demo logins. Ctrl-C stops everything, the stack in dependency
 * order (see startStack), so no click is lost. A stack already started with
 * `npm run stack:up --detach` is reused rather than started twice (and left running).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { loadConfig, REPO_ROOT } from '../supabase/local/src/config.ts';
import { StackError } from '../supabase/local/src/errors.ts';
import { localShortUrlBase } from '../supabase/local/src/functions/local-env.ts';
import { withParentDeathSignal } from '../supabase/local/src/processes.ts';
import { readStackEnv, startStack, type StackEnv } from '../supabase/local/src/stack.ts';
import { DEMO_LOGINS } from './demo-logins.ts';

const PORTAL_PORT = Number(process.env.PORTAL_PORT ?? 5173);
const KIOSK_PORT = Number(process.env.KIOSK_PORT ?? 5174);

async function isUp(url: string): Promise<boolean> {
  return fetch(`${url}/health`).then(
    (r) => r.ok,
    () => false,
  );
}

function startDevServer(app: 'portal' | 'kiosk', port: number, env: StackEnv): ChildProcess {
  // Ended by the kernel if this process dies without stopping them, as the stack's children are.
  const launch = withParentDeathSignal(path.join(REPO_ROOT, 'node_modules', '.bin', 'vite'), [
    '--port',
    String(port),
    '--strictPort',
  ]);
  return spawn(launch.command, launch.args, {
    cwd: path.join(REPO_ROOT, app),
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      VITE_SUPABASE_URL: env.SUPABASE_URL,
      VITE_SUPABASE_ANON_KEY: env.SUPABASE_ANON_KEY,
      // The kiosk opens the portal to impersonate a user, and the portal leads back.
      VITE_PORTAL_URL: `http://localhost:${PORTAL_PORT}`,
      VITE_KIOSK_URL: `http://localhost:${KIOSK_PORT}`,
      // Short links as the stack serves them (on its gateway port), unless the stack was told
      // otherwise: the functions then answer the same SHORT_URL_BASE.
      VITE_SHORT_URL_BASE: process.env.SHORT_URL_BASE || localShortUrlBase(env.SUPABASE_URL),
    },
  });
}

async function main() {
  const config = loadConfig();
  const existing = readStackEnv(config);
  let stopStack: (() => Promise<void>) | undefined;
  let env: StackEnv;
  if (existing && (await isUp(existing.SUPABASE_URL))) {
    env = existing;
    console.log(`Using the stack already running at ${env.SUPABASE_URL}.`);
  } else {
    const started = Date.now();
    const stack = await startStack(config, (line) => console.log(line));
    env = stack.env;
    stopStack = stack.stop;
    const { bootstrapped, seeded } = stack.migrations;
    console.log(
      `Stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s${bootstrapped ? ' (new database' + (seeded ? ', demo data loaded)' : ')') : ''}.`,
    );
  }

  const servers = [
    startDevServer('portal', PORTAL_PORT, env),
    startDevServer('kiosk', KIOSK_PORT, env),
  ];
  console.log(
    [
      '',
      'Shortlane is starting:',
      `  Customer portal  http://localhost:${PORTAL_PORT}/app`,
      `  Staff kiosk      http://localhost:${KIOSK_PORT}/`,
      `  Supabase API     ${env.SUPABASE_URL}`,
      `  Database         ${env.DB_URL}`,
      `  Mail catcher     ${env.MAILBOX_URL}/api/v1/messages`,
      `  Stripe sandbox   ${env.STRIPE_API_BASE}  (test card 4242 4242 4242 4242)`,
      `  Paddle sandbox   ${env.PADDLE_API_BASE}  (test card 4242 4242 4242 4242)`,
      `  Registrar        ${env.REGISTRAR_API_URL}  (Name.com sandbox; control API at /control)`,
      '',
      'Demo logins:',
      ...DEMO_LOGINS.map(
        (login) => `  ${login.who.padEnd(26)} ${login.email.padEnd(30)} ${login.password}`,
      ),
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const server of servers) server.kill('SIGTERM');
    if (stopStack) {
      console.log(
        `Stopping the stack: requests in flight and the functions' last writes get up to ${config.stopTimeoutMs / 1000} s.`,
      );
      await stopStack();
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  for (const server of servers)
    server.on(
      'exit',
      (code) => code && !stopping && console.error(`A dev server exited with code ${code}.`),
    );
}

main().catch((error: unknown) => {
  console.error(error instanceof StackError ? `start: ${error.message}` : error);
  process.exit(1);
});
