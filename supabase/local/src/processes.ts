import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';

export interface ManagedProcess {
  child: ChildProcess;
  stop(): Promise<void>;
}

const SETPRIV = '/usr/bin/setpriv';

/**
 * The command line that makes the kernel send SIGTERM to the child when the stack process dies,
 * however it dies (SIGKILL included, which no exit handler sees). util-linux's setpriv sets
 * PR_SET_PDEATHSIG and then execs the command, so the child keeps its pid. Without setpriv the
 * command runs as it is, and `stack:down` remains the way to end an orphan.
 */
export function withParentDeathSignal(
  command: string,
  args: readonly string[],
  setprivPath = SETPRIV,
): { command: string; args: string[] } {
  if (process.platform !== 'linux' || !fs.existsSync(setprivPath))
    return { command, args: [...args] };
  return { command: setprivPath, args: ['--pdeathsig', 'TERM', '--', command, ...args] };
}

/** Spawns a child whose output is prefixed into the stack log and which dies with the stack. */
export function spawnManaged(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions,
  log: (line: string) => void,
): ManagedProcess {
  const launch = withParentDeathSignal(command, args);
  const child = spawn(launch.command, launch.args, {
    ...options,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stopping = false;
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) log(`${name}: ${line}`);
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  child.on('exit', (code, signal) => {
    if (!stopping) log(`${name}: exited unexpectedly (${signal ?? `code ${code}`})`);
  });
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
