import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type StackConfig } from './config.ts';
import { StackError } from './errors.ts';
import { dataDirectory } from './postgres.ts';
import { postgrestPidFile } from './postgrest.ts';
import { readStackEnv, startStack, stackEnvFile } from './stack.ts';

/** The stack's pid, and on a second line its stop timeout (ms), which `down` waits for. */
const pidFile = (config: StackConfig) => path.join(config.stateDir, 'stack.pid');
// Beyond the graceful part, what `down` allows for PostgREST and Postgres to stop.
const FINAL_STOP_MS = 20_000;
const logFile = (config: StackConfig) => path.join(config.stateDir, 'stack.log');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readPidFileLine(file: string, line: number): number | undefined {
  const raw = fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').split('\n')[line]) : NaN;
  return Number.isInteger(raw) && raw > 0 ? raw : undefined;
}

const readPid = (file: string) => readPidFileLine(file, 0);

function runningPid(config: StackConfig): number | undefined {
  const pid = readPid(pidFile(config));
  return pid && isAlive(pid) ? pid : undefined;
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

function printSummary(config: StackConfig) {
  const env = readStackEnv(config);
  if (!env) return;
  console.log(
    [
      '',
      'Shortlane local stack is running.',
      `  API gateway   ${env.SUPABASE_URL}  (/rest/v1 /auth/v1 /storage/v1 /functions/v1)`,
      `  Database      ${env.DB_URL}`,
      `  Mail catcher  ${env.MAILBOX_URL}/api/v1/messages`,
      `  Stripe        ${env.STRIPE_API_BASE}  (sandbox; card 4242 4242 4242 4242)`,
      `  Paddle        ${env.PADDLE_API_BASE}  (sandbox; card 4242 4242 4242 4242)`,
      `  Registrar     ${env.REGISTRAR_API_URL}  (Name.com sandbox; control API at /control)`,
      `  anon key      ${env.SUPABASE_ANON_KEY}`,
      `  service key   ${env.SUPABASE_SERVICE_ROLE_KEY}`,
      `  env file      ${stackEnvFile(config)}`,
      '',
    ].join('\n'),
  );
}

async function up(config: StackConfig, detach: boolean) {
  const existing = runningPid(config);
  if (existing) {
    console.log(`The stack is already running (pid ${existing}).`);
    printSummary(config);
    return;
  }
  if (detach) {
    fs.mkdirSync(config.stateDir, { recursive: true });
    fs.rmSync(stackEnvFile(config), { force: true });
    const out = fs.openSync(logFile(config), 'w');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), 'up'],
      {
        detached: true,
        stdio: ['ignore', out, out],
        env: process.env,
      },
    );
    child.unref();
    let exited = false;
    child.once('exit', () => (exited = true));
    const ready = await waitUntil(() => exited || fs.existsSync(stackEnvFile(config)), 120_000);
    if (!ready || exited) {
      process.stderr.write(fs.readFileSync(logFile(config), 'utf8'));
      throw new StackError(`The stack did not start; its log is ${logFile(config)}.`);
    }
    printSummary(config);
    return;
  }
  const started = Date.now();
  const log = (line: string) => console.log(line);
  const stack = await startStack(config, log);
  fs.writeFileSync(pidFile(config), `${process.pid}\n${config.stopTimeoutMs}\n`);
  const { applied, bootstrapped, seeded } = stack.migrations;
  console.log(
    `Ready in ${((Date.now() - started) / 1000).toFixed(1)} s` +
      (bootstrapped ? '; new database bootstrapped' : '') +
      (applied.length ? `; migrations applied: ${applied.join(', ')}` : '') +
      (seeded ? '; seed loaded' : ''),
  );
  printSummary(config);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log(
      `Stopping: requests in flight and the functions' last writes get up to ${config.stopTimeoutMs / 1000} s.`,
    );
    await stack.stop();
    fs.rmSync(pidFile(config), { force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

/** Stops a running stack, and a Postgres left behind by one that crashed. */
async function down(config: StackConfig) {
  const pid = runningPid(config);
  if (pid) {
    // The stack stops itself in order (see startStack); SIGKILL is for one that hangs.
    const stopTimeoutMs = readPidFileLine(pidFile(config), 1) ?? config.stopTimeoutMs;
    process.kill(pid, 'SIGTERM');
    if (!(await waitUntil(() => !isAlive(pid), stopTimeoutMs + FINAL_STOP_MS))) {
      process.kill(pid, 'SIGKILL');
      console.log(`The stack (pid ${pid}) did not stop in time and was killed.`);
    } else console.log(`Stopped the stack (pid ${pid}).`);
  }
  fs.rmSync(pidFile(config), { force: true });
  const postgrestPid = readPid(postgrestPidFile(config));
  if (postgrestPid && isAlive(postgrestPid)) {
    process.kill(postgrestPid, 'SIGTERM');
    await waitUntil(() => !isAlive(postgrestPid), 10_000);
    console.log(`Stopped a PostgREST left running (pid ${postgrestPid}).`);
  }
  fs.rmSync(postgrestPidFile(config), { force: true });
  fs.rmSync(stackEnvFile(config), { force: true });
  const postmaster = path.join(dataDirectory(config), 'postmaster.pid');
  if (fs.existsSync(postmaster)) {
    const pgPid = readPid(postmaster);
    if (pgPid && isAlive(pgPid)) {
      process.kill(pgPid, 'SIGINT');
      await waitUntil(() => !isAlive(pgPid), 20_000);
      console.log(`Stopped a PostgreSQL left running (pid ${pgPid}).`);
    }
  }
  if (!pid) console.log('The stack is not running.');
}

async function main() {
  const [command = 'up', ...flags] = process.argv.slice(2);
  const config = loadConfig();
  switch (command) {
    case 'up':
      return up(config, flags.includes('--detach') || flags.includes('-d'));
    case 'down':
      return down(config);
    case 'reset':
      await down(config);
      fs.rmSync(config.stateDir, { recursive: true, force: true });
      console.log(
        `Wiped ${config.stateDir}; the next \`stack:up\` starts from a fresh database and seed.`,
      );
      return;
    case 'status': {
      const pid = runningPid(config);
      console.log(pid ? `Running (pid ${pid}).` : 'Not running.');
      if (pid) printSummary(config);
      return;
    }
    default:
      throw new StackError(
        `Unknown command "${command}": use up [--detach], down, reset or status.`,
      );
  }
}

main().catch((error: unknown) => {
  if (error instanceof StackError) {
    console.error(`stack: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
