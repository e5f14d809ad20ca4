import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT, type StackConfig } from '../../supabase/local/src/config.ts';
import { readStackEnv, type StackEnv } from '../../supabase/local/src/stack.ts';

/**
 * `stack:up` as a user runs it, in a child process: a load generator in the bench's own process
 * then never shares the gateway's event loop (which would charge the gateway for the load).
 */

/** The stack's CLI of a checkout (this one unless another is compared with it). */
const cliOf = (root: string) => path.join(root, 'supabase', 'local', 'src', 'cli.ts');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface StackProcess {
  child: ChildProcess;
  output: () => string;
}

/** The child's environment: the bench's variables over this process's, never DATABASE_URL. */
function childEnv(variables: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...variables };
  delete env.DATABASE_URL;
  return env;
}

export function spawnStack(variables: Record<string, string>, root = REPO_ROOT): StackProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', cliOf(root), 'up'], {
    cwd: root,
    env: childEnv(variables),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** Healthy: the gateway answers and PostgREST serves through it. */
export async function isHealthy(config: StackConfig): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${config.gatewayPort}/rest/v1/`, {
      headers: { apikey: config.anonKey },
    });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** Waits for the stack to serve; kills it and throws with its output if it does not in time. */
export async function untilHealthy(
  stack: StackProcess,
  config: StackConfig,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await isHealthy(config))) {
    if (stack.child.exitCode !== null || Date.now() > deadline) {
      stack.child.kill('SIGKILL');
      throw new Error(`The bench stack did not become healthy:\n${stack.output()}`);
    }
    await sleep(20);
  }
}

export async function stopStack(stack: StackProcess): Promise<void> {
  if (stack.child.exitCode !== null) return;
  const exited = new Promise((resolve) => stack.child.once('exit', resolve));
  stack.child.kill('SIGTERM');
  const timer = setTimeout(() => stack.child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** Stops a bench stack a crashed earlier run may have left, through the CLI's own `down`. */
export async function stopLeftovers(
  variables: Record<string, string>,
  root = REPO_ROOT,
): Promise<void> {
  const down = spawn(process.execPath, ['--import', 'tsx', cliOf(root), 'down'], {
    cwd: root,
    env: childEnv(variables),
    stdio: 'ignore',
  });
  await new Promise((resolve) => down.once('exit', resolve));
}

export function stackEnvOf(config: StackConfig): StackEnv {
  const env = readStackEnv(config);
  if (!env) throw new Error(`The bench stack wrote no ${config.stateDir}/stack.env`);
  return env;
}
