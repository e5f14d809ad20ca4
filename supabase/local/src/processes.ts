import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';

export interface ManagedProcess {
  child: ChildProcess;
  /**
   * Sends the stop signal and resolves once the process has exited; a process still running
   * `killAfterMs` later (default 5 s) is killed.
   */
  stop(killAfterMs?: number): Promise<void>;
}

export interface ManagedOptions {
  /** The signal that asks the process to end (default SIGTERM; Postgres: SIGINT, fast shutdown). */
  stopSignal?: NodeJS.Signals;
  /** Where the output lines go (default: the stack log, prefixed with the name). */
  output?: (line: string) => void;
}

const DEFAULT_KILL_AFTER_MS = 5_000;

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

/**
 * Spawns a child whose output is prefixed into the stack log and which dies with the stack. The
 * child leads its own process group: a Ctrl-C at the terminal reaches the stack only, which then
 * stops its children in dependency order (a Postgres that got the terminal's SIGINT too would
 * shut down while the functions still write to it).
 */
export function spawnManaged(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions,
  log: (line: string) => void,
  { stopSignal = 'SIGTERM', output }: ManagedOptions = {},
): ManagedProcess {
  const launch = withParentDeathSignal(command, args);
  const child = spawn(launch.command, launch.args, {
    ...options,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stopping = false;
  const line = output ?? ((text: string) => log(`${name}: ${text}`));
  const forward = (chunk: Buffer) => {
    for (const text of chunk.toString().split('\n')) if (text.trim()) line(text);
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  child.on('exit', (code, signal) => {
    if (!stopping) log(`${name}: exited unexpectedly (${signal ?? `code ${code}`})`);
  });
  return {
    child,
    stop: (killAfterMs = DEFAULT_KILL_AFTER_MS) =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => {
          log(`${name}: still running ${killAfterMs} ms after ${stopSignal}; killed`);
          child.kill('SIGKILL');
        }, killAfterMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill(stopSignal);
      }),
  };
}
